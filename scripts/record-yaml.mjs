// Records how the reference's YAML library (npm `yaml` 2.9.x, which
// @clawdbot/lobster loads workflow files with: `YAML.parse(text)`) reads
// each case of lang/parser/testdata/yaml/cases.json: hand-written cases and
// the differences the differential fuzz test (FuzzYAMLReader) found and
// that were fixed. The Go reader's tests compare with the recording, so
// they need no node. Values are tagged as scripts/yaml-oracle.mjs describes.
// Usage:
//   node scripts/record-yaml.mjs [path/to/node_modules]   (default /work/ref/node_modules)
import fs from 'node:fs';
import { load, read } from './yaml-oracle.mjs';

const { YAML } = load(process.argv[2] || '/work/ref/node_modules');
const dir = new URL('../lang/parser/testdata/yaml/', import.meta.url);
const cases = JSON.parse(fs.readFileSync(new URL('cases.json', dir), 'utf8'));
const out = cases.map((src) => ({ src, ...read(YAML, src) }));
fs.writeFileSync(new URL('expected.json', dir), JSON.stringify(out, null, 1) + '\n');
