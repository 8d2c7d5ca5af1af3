// reference-templates.mjs: record how the REFERENCE substitutes ${arg} and
// $id.path in template text (resolveTemplate) and resolves whole-value
// references (parseStepRef + getStepRefValue), as JSON lines. Run by
// record-reference.sh with LOBSTER_REF_DIR set.
import path from "node:path";
import { pathToFileURL } from "node:url";

const ref = process.env.LOBSTER_REF_DIR;
const ex = await import(pathToFileURL(path.join(ref, "dist/src/workflows/expressions.js")));

const args = {
  name: "world", n: 3, f: 0.5, big: 1e21, t: true, nul: null, arr: [1, "a", null, [2, 3]], obj: { k: 1 },
  quote: "it's", "my-arg": "dash", chained: "$fetch.json.id",
};
const results = {
  fetch: { id: "fetch", stdout: '{"id":7,"items":[{"name":"x"},{"name":"y"}],"b":1,"a":2}\n', json: { id: 7, items: [{ name: "x" }, { name: "y" }], b: 1, a: 2, "2": "two", "hy-phen": 1, nested: { deep: [10, [20, 30]] }, zero: 0, f: false, s: "str", nul: null } },
  plain: { id: "plain", stdout: "hello\n" },
  gate: { id: "gate", approved: true, approvedBy: "alice" },
  skipped: { id: "skipped", skipped: true },
  arr: { id: "arr", stdout: "[1,2]\n", json: [1, 2, { x: [3] }] },
  num: { id: "num", stdout: "2\n", json: 2 },
  failed: { id: "failed", error: true, errorMessage: "boom" },
};
const templates = [
  "echo ${name} ${n} ${f} ${big} ${t} ${nul} ${arr} ${obj} ${missing} ${my-arg} '${quote}'",
  "${name.x} ${ name } ${a:-b} $${name} ${${name}}",
  "$fetch.stdout|$fetch.json|$fetch.json.id|$fetch.json.items.0.name|$fetch.json.items.1|$fetch.json.items.2",
  "$fetch.json.items.01.name $fetch.json.items.0x1.name $fetch.json.items.1e0.name $fetch.json.items.0b1.name $fetch.json.items.0o1.name $fetch.json.items.1_0 $fetch.json.items.-1",
  "$fetch.json.2 $fetch.json.hy-phen $fetch.json.nested.deep.1.0 $fetch.json.zero $fetch.json.f $fetch.json.s.length $fetch.json.nul $fetch.json.nul.x",
  "$plain.stdout $plain.json $plain.approved $plain.skipped $plain.stdout.bak $plain.exitCode",
  "$gate.approved $gate.approvedBy $gate.json $skipped.skipped $skipped.approved $failed.error $failed.errorMessage",
  "$arr.json $arr.json.2 $arr.json.2.x $arr.json.length $num.json $num.json.x",
  "$missing.stdout $HOME.json $fetc.json ${chained} $fetch.json.constructor",
  "$fetch.id $fetch.json.id.x.y $gate.approved.x",
  "a$fetch.json.id$fetch.json.id. $$fetch.json.id",
];
for (const template of templates) {
  console.log(JSON.stringify({ template, rendered: ex.resolveTemplate(template, args, results) }));
}
const wholes = ["$fetch.json", " $fetch.json.items ", "$fetch.json.items.0.name", "$fetch.json.missing", "$missing.json", "$fetch.json x", "${name}", "$num.json"];
for (const whole of wholes) {
  const r = ex.parseStepRef(whole.trim());
  let rec = { whole, ref: r };
  if (r) {
    try {
      const v = ex.getStepRefValue(r, results, true);
      rec.value = v === undefined ? { undefined: true } : v;
    } catch (err) {
      rec.error = err.message;
    }
  }
  console.log(JSON.stringify(rec));
}
console.log(JSON.stringify({ args, results }));
