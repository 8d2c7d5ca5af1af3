#!/usr/bin/env python3
"""Record the REFERENCE's dry-run and graph texts for runtime/plan's tests.

usage: LOBSTER_REF_DIR=.../node_modules/@clawdbot/lobster scripts/record-plan-reference.py [CASE.txtar...]

Each case in runtime/plan/testdata/reference/*.txtar holds a workflow file
`w.lobster` (and any other files), and optionally `args.json` (passed as
--args-json). For each case this script runs the reference in a fresh
temporary directory and writes back, as sections of the case:

  dryrun   `lobster run --dry-run w.lobster`: the exit code on the first
           line ("exit N"), then standard error (the plan, or the error)
  mermaid, dot, ascii
           `lobster graph w.lobster --format F`: "exit N", then standard
           output, or standard error when it failed

The files are run as they are: the reference does not check them first
(runtime/plan does not either; the CLI does). Nothing of the reference is
copied, only its outputs.
"""
import glob, os, re, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ref = os.environ.get("LOBSTER_REF_DIR")
if not ref:
    sys.exit("record-plan-reference: set LOBSTER_REF_DIR to an installed @clawdbot/lobster@2026.9.13")
binary = os.path.join(ref, "bin", "lobster.js")
recorded = ("dryrun", "mermaid", "dot", "ascii")

def parse(text):
    parts = re.split(r"^-- (.+?) --\n", text, flags=re.M)
    return parts[0], [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]

def unparse(comment, files):
    return comment + "".join(f"-- {name} --\n{body}" for name, body in files)

def run(work, args):
    env = {"PATH": os.environ["PATH"], "HOME": work, "LOBSTER_STATE_DIR": os.path.join(work, ".state")}
    return subprocess.run(["node", binary] + args, cwd=work, env=env, capture_output=True, text=True, timeout=60)

cases = sys.argv[1:] or sorted(glob.glob(os.path.join(root, "runtime", "plan", "testdata", "reference", "*.txtar")))
for path in cases:
    # surrogateescape: bytes that are not UTF-8 are kept as they are.
    comment, files = parse(open(path, encoding="utf-8", errors="surrogateescape").read())
    files = [(n, b) for n, b in files if n not in recorded]
    with tempfile.TemporaryDirectory() as work:
        work = os.path.realpath(work)
        extra = []
        for name, body in files:
            if name == "args.json":
                extra = ["--args-json", body.strip()]
                continue
            full = os.path.join(work, name)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w", encoding="utf-8", errors="surrogateescape").write(body)
        p = run(work, ["run", "--dry-run", "w.lobster"] + extra)
        files.append(("dryrun", f"exit {p.returncode}\n" + p.stderr.replace(work, "$WORK")))
        for fmt in ("mermaid", "dot", "ascii"):
            p = run(work, ["graph", "w.lobster", "--format", fmt] + extra)
            out = p.stdout if p.returncode == 0 else p.stderr
            files.append((fmt, f"exit {p.returncode}\n" + out.replace(work, "$WORK")))
    open(path, "w", encoding="utf-8", errors="surrogateescape").write(unparse(comment, files))
    print(f"{os.path.basename(path)}: recorded", file=sys.stderr)
