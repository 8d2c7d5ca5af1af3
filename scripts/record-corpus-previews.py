#!/usr/bin/env python3
"""Record the REFERENCE's graphs and dry-runs of every corpus file.

usage: LOBSTER_REF_DIR=.../node_modules/@clawdbot/lobster scripts/record-corpus-previews.py [CORPUS_DIR]

For every file of CORPUS_DIR (default ../shared/corpus next to this
repository; SOURCES.md excepted), in byte order of the names, runs the
reference (@clawdbot/lobster 2026.9.13) in CORPUS_DIR, on the file's name:

  lobster graph NAME --format F     for F in mermaid, dot, ascii
  lobster run --dry-run NAME

and writes one JSON line per file to testdata/reference/corpus-previews.jsonl:

  {"file": NAME, "mermaid": {"exit": N, "stdout": ..., "stderr": ...},
   "dot": {...}, "ascii": {...}, "dryrun": {...}}

cmd/lobster's TestCorpusPreviews compares lobster's output with it. The
corpus files are read where they are and never copied; nothing runs (the
state directory and HOME are a temporary directory). Only the reference's
outputs are recorded, none of its code.
"""
import json, os, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ref = os.environ.get("LOBSTER_REF_DIR")
if not ref:
    sys.exit("record-corpus-previews: set LOBSTER_REF_DIR to an installed @clawdbot/lobster@2026.9.13")
version = json.load(open(os.path.join(ref, "package.json")))["version"]
if version != "2026.9.13":
    sys.exit(f"record-corpus-previews: expected @clawdbot/lobster 2026.9.13, found {version}")
binary = os.path.join(ref, "bin", "lobster.js")
corpus = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "corpus"))
if not os.path.isdir(corpus):
    sys.exit(f"record-corpus-previews: no corpus at {corpus}")
out_path = os.path.join(root, "testdata", "reference", "corpus-previews.jsonl")

names = sorted((n for n in os.listdir(corpus) if n != "SOURCES.md" and os.path.isfile(os.path.join(corpus, n))),
               key=lambda n: n.encode())
with tempfile.TemporaryDirectory() as home:
    env = {"PATH": os.environ["PATH"], "HOME": home, "LOBSTER_STATE_DIR": os.path.join(home, ".state")}

    def run(args):
        p = subprocess.run(["node", binary] + args, cwd=corpus, env=env, capture_output=True, text=True, timeout=120)
        return {"exit": p.returncode, "stdout": p.stdout, "stderr": p.stderr}

    lines = []
    for name in names:
        rec = {"file": name}
        for fmt in ("mermaid", "dot", "ascii"):
            rec[fmt] = run(["graph", name, "--format", fmt])
        rec["dryrun"] = run(["run", "--dry-run", name])
        lines.append(json.dumps(rec, ensure_ascii=False, sort_keys=False))
        print(f"{name}: graph exit {rec['mermaid']['exit']}, dry-run exit {rec['dryrun']['exit']}", file=sys.stderr)
with open(out_path + ".tmp", "w") as f:
    f.write("\n".join(lines) + "\n")
os.replace(out_path + ".tmp", out_path)
print(f"wrote {out_path} ({len(lines)} files)", file=sys.stderr)
