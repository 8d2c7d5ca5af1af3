#!/usr/bin/env bash
# record-reference.sh: regenerate testdata/reference/*.jsonl, which record the
# REFERENCE implementation's load-time verdicts as test data for the Go code.
#
# The reference is the npm package @clawdbot/lobster@2026.9.13. It is installed
# into a temporary directory and never copied into this repository. Only its
# outputs are recorded: one JSON line per file from scripts/reference-load.mjs,
# which calls the package's loadWorkflowFile (parse and load-time validation) and
# runs no steps.
#
# Outputs:
#   testdata/reference/jsvalue.jsonl      how node parses and prints JSON values
#                                         (scripts/reference-jsvalue.mjs)
#   testdata/reference/templates.jsonl    how the reference substitutes args and
#                                         step references (reference-templates.mjs)
#   testdata/reference/conditions.jsonl   how the reference evaluates conditions
#                                         (reference-conditions.mjs)
#   testdata/reference/tokens.jsonl       how the reference decodes probe resume
#                                         tokens (scripts/reference-tokens.mjs)
#   testdata/reference/corpus-load.jsonl  every file in $CORPUS_DIR except SOURCES.md
#   testdata/reference/probes-load.jsonl  every file in testdata/reference/probes/
# Both are sorted by file name (byte order) and use the basename as "file".
#
# Environment:
#   LOBSTER_REF_DIR  use an already installed package dir (skips the npm install)
#   CORPUS_DIR       default /work/shared/corpus
# Requires node and npm. The package declares node >=22. It was recorded with
# Node 20, and npm only warns (EBADENGINE). JSON.parse error texts come from
# V8, so they may differ between Node versions.
set -euo pipefail

VERSION=2026.9.13
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS_DIR="${CORPUS_DIR:-/work/shared/corpus}"
OUT="$ROOT/testdata/reference"

if [[ -n "${LOBSTER_REF_DIR:-}" ]]; then
  REF_DIR="$LOBSTER_REF_DIR"
else
  TMP="$(mktemp -d)"
  trap 'rm -rf "$TMP"' EXIT
  (cd "$TMP" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "@clawdbot/lobster@$VERSION" >/dev/null)
  REF_DIR="$TMP/node_modules/@clawdbot/lobster"
fi
got="$(node -p "require('$REF_DIR/package.json').version")"
if [[ "$got" != "$VERSION" ]]; then
  echo "record-reference: expected @clawdbot/lobster $VERSION, found $got" >&2
  exit 1
fi
export LOBSTER_REF_DIR="$REF_DIR"

mkdir -p "$OUT"

# load_dir DIR OUTFILE [EXCLUDED_NAME]: run the loader over the regular files of DIR in name order.
load_dir() {
  local dir="$1" out="$2" exclude="${3:-}"
  (cd "$dir" && find . -maxdepth 1 -type f ! -name "${exclude:-/}" -printf '%f\0' \
    | LC_ALL=C sort -z \
    | xargs -0 node "$ROOT/scripts/reference-load.mjs") > "$out.tmp"
  mv "$out.tmp" "$out"
  echo "wrote $out ($(wc -l < "$out") files, $(grep -c '"ok":true' "$out" || true) ok)" >&2
}

load_dir "$CORPUS_DIR" "$OUT/corpus-load.jsonl" SOURCES.md
load_dir "$OUT/probes" "$OUT/probes-load.jsonl"
node "$ROOT/scripts/reference-tokens.mjs" > "$OUT/tokens.jsonl.tmp"
mv "$OUT/tokens.jsonl.tmp" "$OUT/tokens.jsonl"
echo "wrote $OUT/tokens.jsonl ($(wc -l < "$OUT/tokens.jsonl") tokens)" >&2
node "$ROOT/scripts/reference-jsvalue.mjs" > "$OUT/jsvalue.jsonl.tmp"
mv "$OUT/jsvalue.jsonl.tmp" "$OUT/jsvalue.jsonl"
node "$ROOT/scripts/reference-templates.mjs" > "$OUT/templates.jsonl.tmp"
mv "$OUT/templates.jsonl.tmp" "$OUT/templates.jsonl"
node "$ROOT/scripts/reference-conditions.mjs" > "$OUT/conditions.jsonl.tmp"
mv "$OUT/conditions.jsonl.tmp" "$OUT/conditions.jsonl"
