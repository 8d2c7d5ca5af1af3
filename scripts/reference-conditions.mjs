// reference-conditions.mjs: record how the REFERENCE evaluates `when` /
// `condition` values (evaluateCondition) against fixed step results, as
// JSON lines {when, value} or {when, error}; the last line holds the
// results. Run by record-reference.sh with LOBSTER_REF_DIR set.
import path from "node:path";
import { pathToFileURL } from "node:url";

const ref = process.env.LOBSTER_REF_DIR;
const ex = await import(pathToFileURL(path.join(ref, "dist/src/workflows/expressions.js")));

const results = {
  a: { id: "a", stdout: "x\n", json: { n: 5, s: "5", z: 0, e: "", t: true, f: false, nul: null, neg: -1, arr: [1, 2], obj: { k: 1, j: [2] }, obj2: { j: [2], k: 1 }, word: "approve", zero: "0" } },
  gate: { id: "gate", approved: true },
  skip: { id: "skip", skipped: true },
};
const conditions = [
  null, true, false, 0, 1, "true", " false ", "",
  "$gate.approved", "!$gate.approved", "$skip.skipped", "$a.approved", "!$a.approved",
  "$a.json.n == 5", "$a.json.n == '5'", "$a.json.s == 5", "$a.json.s == \"5\"", "$a.json.n != 5",
  "$a.json.n > 4", "$a.json.n >= 5.0", "$a.json.s < 10", "$a.json.neg < \"0\"", "$a.json.e < 1", "$a.json.t > 0", "$a.json.nul < 1",
  "$a.json.missing == null", "$a.json.nul == null", "!$a.json.missing", "$a.json.z", "$a.json.zero", "$a.json.e", "$a.json.arr", "$a.json.obj",
  "$a.json.obj == $a.json.obj2", "$a.json.arr == $a.json.obj.j", "-0 == 0", "0 == -0.0", "$a.json.word == approve", "$a.json.word == 'approve'",
  "!$a.json.t == false", "$a.json.t && $a.json.f", "$a.json.t || $a.json.f", "($a.json.t || $a.json.f) && !$a.json.f",
  "false && $nope.x", "$nope.x || true", "!$nope.x", "approve", "x == $a.json.s", "1 == 1 == 1", "1e3 == 1000", "$a.json.n = 5",
  "$a.json.n & 1", "${name} == x", "'a\\nb' == 'anb'", "-1 < 0", "1 < 2 && 3 > 2", "((true))", "null", "null == null", "'' == \"\"",
  "$a.json.n == 5 && $a.json.s == '5' || $a.json.f", "yes",
];
for (const when of conditions) {
  try {
    console.log(JSON.stringify({ when, value: ex.evaluateCondition(when, results) }));
  } catch (err) {
    console.log(JSON.stringify({ when, error: err.message }));
  }
}
console.log(JSON.stringify({ results }));
