#!/usr/bin/env node
// reference-load.mjs: record the REFERENCE implementation's load-time verdict
// for Lobster workflow files, as test data for the Go reimplementation.
//
// This script contains no reference code. It imports `loadWorkflowFile` from an
// installed copy of the npm package @clawdbot/lobster (version 2026.9.13) and
// calls it on each file given on the command line. loadWorkflowFile parses the
// file (JSON.parse for .json, yaml v2 `parse()` for anything else) and runs
// the load-time validation. It does not run steps,
// evaluate conditions or check that files named by `workflow:` exist.
// It does not apply the CLI's extension check either.
//
// Usage:
//   LOBSTER_REF_DIR=/tmp/ref/node_modules/@clawdbot/lobster \
//     node scripts/reference-load.mjs FILE...
//
// Output: one JSON line per argument, in argument order:
//   {"file":"<basename>","ok":true}
//   {"file":"<basename>","ok":false,"error":"<Error.message>"}
// The message is recorded exactly as thrown. For YAML parse errors it
// includes the yaml package's multi-line code excerpt.
//
// scripts/record-reference.sh regenerates testdata/reference/*.jsonl with it.

import path from "node:path";
import { pathToFileURL } from "node:url";

const refDir =
  process.env.LOBSTER_REF_DIR || "/tmp/ref/node_modules/@clawdbot/lobster";
// The package's "exports" map doesn't expose this module, so import it by path.
const loaderPath = path.join(path.resolve(refDir), "dist/src/workflows/load.js");
const { loadWorkflowFile } = await import(pathToFileURL(loaderPath).href);

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write("usage: node reference-load.mjs FILE...\n");
  process.exit(2);
}

for (const file of files) {
  const rec = { file: path.basename(file) };
  try {
    await loadWorkflowFile(file);
    rec.ok = true;
  } catch (err) {
    rec.ok = false;
    rec.error = err && typeof err.message === "string" ? err.message : String(err);
  }
  process.stdout.write(JSON.stringify(rec) + "\n");
}
