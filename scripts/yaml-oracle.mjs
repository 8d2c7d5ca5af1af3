// The reference's YAML library as an oracle for the Go reader's differential
// tests: reads one JSON string (a YAML text) per line on stdin and writes one
// JSON object per line on stdout, how `YAML.parse(text)` of npm `yaml` 2.9.x
// (what @clawdbot/lobster loads workflow files with) reads it:
//   {"value": <value>}                                   accepted
//   {"value": <value>, "jsOnly": true}                   accepted, with JavaScript-only objects
//   {"error": "<first line>", "line": L, "col": C}       rejected
// Values are JSON with the JavaScript values JSON cannot hold tagged:
// {"$num": "NaN" | "Infinity" | "-Infinity" | "-0"} for numbers and
// {"$js": "<constructor>"} for objects that are not plain objects or arrays
// (Map, Set, Uint8Array: the !!omap, !!set and !!binary tags).
//
// Usage: node scripts/yaml-oracle.mjs [path/to/node_modules]  (default /work/ref/node_modules)
// lang/parser starts it when LOBSTER_YAML_MODULES names such a directory (or
// ../ref/node_modules beside the checkout exists); scripts/record-yaml-suite.mjs
// imports read() from here.
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

export function load(modules) {
  const require = createRequire(path.join(path.resolve(modules), 'x.js'));
  const YAML = require('yaml');
  const version = require('yaml/package.json').version;
  if (!version.startsWith('2.9.')) throw new Error(`expected npm yaml 2.9.x, found ${version}`);
  return { YAML, version };
}

// read returns how YAML.parse reads src, in the format above.
export function read(YAML, src) {
  let jsOnly = false;
  const tag = (v) => {
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return { $num: 'NaN' };
      if (v === Infinity) return { $num: 'Infinity' };
      if (v === -Infinity) return { $num: '-Infinity' };
      if (Object.is(v, -0)) return { $num: '-0' };
      return v;
    }
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(tag);
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) {
      const o = {};
      for (const k of Object.keys(v)) o[k] = tag(v[k]);
      return o;
    }
    jsOnly = true;
    return { $js: v.constructor ? v.constructor.name : 'Object' };
  };
  const warn = process.emitWarning;
  process.emitWarning = () => {}; // unresolved tags and stringified keys only warn
  try {
    const value = tag(YAML.parse(src) ?? null);
    return jsOnly ? { value, jsOnly } : { value };
  } catch (err) {
    const out = { error: String(err && err.message).split('\n')[0] };
    if (err && err.linePos) {
      out.line = err.linePos[0].line;
      out.col = err.linePos[0].col;
    }
    return out;
  } finally {
    process.emitWarning = warn;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { YAML } = load(process.argv[2] || '/work/ref/node_modules');
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    let out;
    try {
      out = read(YAML, JSON.parse(line));
    } catch (err) {
      out = { error: 'oracle: ' + String(err && err.message) };
    }
    process.stdout.write(JSON.stringify(out) + '\n');
  });
}
