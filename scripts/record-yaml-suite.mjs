// Records how the reference's YAML library (npm `yaml` 2.9.x, which
// @clawdbot/lobster loads workflow files with: `YAML.parse(text)`, YAML 1.2,
// core schema) reads every case of the official yaml-test-suite copied in
// lang/parser/testdata/yaml-test-suite/src. lang/parser's suite test
// compares the Go reader with the recorded verdicts and values.
//
// Usage:
//   node scripts/record-yaml-suite.mjs [path/to/node_modules]   (default /work/ref/node_modules)
//
// Output: lang/parser/testdata/yaml-test-suite/reference.json, one entry per
// case in file order:
//   {"id": "2JQS", "sha256": <of the unpacked input>,
//    "error": "<first line of the message>", "line": L, "col": C}   (rejected), or
//   {"id": ..., "sha256": ..., "value": <value>}                   (accepted)
// Values are tagged as scripts/yaml-oracle.mjs describes; a case whose value
// holds JavaScript-only objects ({"$js": ...}: !!omap, !!set, !!binary) has
// "jsOnly": true, and the test judges it by the suite's own JSON.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { load, read } from './yaml-oracle.mjs';

const { YAML, version } = load(process.argv[2] || '/work/ref/node_modules');

const dir = new URL('../lang/parser/testdata/yaml-test-suite/', import.meta.url);
const srcDir = new URL('src/', dir);

// unpack turns the suite's visible markers into the bytes they stand for,
// as the suite's own tools do.
export function unpack(text) {
  return text
    .replace(/␣/g, ' ')
    .replace(/—*»/g, '\t')
    .replace(/←/g, '\r')
    .replace(/⇔/g, '\uFEFF')
    .replace(/↵/g, '')
    .replace(/∎\n$/, '');
}

// cases lists the suite's cases: later variants of a file inherit the
// fields of the one before; a file whose first variant says skip is left out.
export function cases(dirURL) {
  const out = [];
  for (const name of fs.readdirSync(dirURL).filter((n) => n.endsWith('.yaml')).sort()) {
    const variants = YAML.parse(fs.readFileSync(new URL(name, dirURL), 'utf8'));
    if (variants[0].skip) continue;
    const base = name.replace(/\.yaml$/, '');
    const width = variants.length >= 100 ? 3 : 2;
    let prev = {};
    variants.forEach((v, i) => {
      const c = { ...v };
      for (const k of ['name', 'tags', 'yaml', 'tree', 'json', 'dump']) {
        if (!(k in c) && k in prev) c[k] = prev[k];
      }
      prev = c;
      const id = variants.length > 1 ? `${base}-${String(i).padStart(width, '0')}` : base;
      out.push({ id, yaml: unpack(c.yaml), fail: !!c.fail });
    });
  }
  return out;
}

const out = [];
for (const c of cases(srcDir)) {
  const sha256 = crypto.createHash('sha256').update(c.yaml, 'utf8').digest('hex');
  out.push({ id: c.id, sha256, ...read(YAML, c.yaml) });
}
fs.writeFileSync(new URL('reference.json', dir), JSON.stringify(out, null, 0).replace(/\},\{"id"/g, '},\n{"id"') + '\n');
const rejected = out.filter((e) => 'error' in e).length;
console.log(`yaml ${version}: ${out.length} cases, ${rejected} rejected`);
