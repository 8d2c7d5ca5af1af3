// Records how the reference's YAML library (the `yaml` package that
// @clawdbot/lobster depends on, YAML 1.2 core schema) reads each case in
// lang/parser/testdata/yaml/cases.json. The Go reader's tests compare with
// the recorded values. Usage:
//   node scripts/record-yaml.mjs [path/to/node_modules]   (default /tmp/ref/node_modules)
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
const modules = process.argv[2] || '/tmp/ref/node_modules';
const require = createRequire(path.join(modules, 'x.js'));
const YAML = require('yaml');
const dir = new URL('../lang/parser/testdata/yaml/', import.meta.url);
const cases = JSON.parse(fs.readFileSync(new URL('cases.json', dir), 'utf8'));
const out = cases.map((src) => {
  try {
    return { src, value: YAML.parse(src) ?? null };
  } catch (e) {
    return { src, error: String(e.message).split('\n')[0] };
  }
});
fs.writeFileSync(new URL('expected.json', dir), JSON.stringify(out, null, 1) + '\n');
