#!/usr/bin/env python3
"""Record the REFERENCE's behaviour for every conformance case.

usage: LOBSTER_REF_DIR=.../node_modules/@clawdbot/lobster scripts/record-conformance.py [CASE.txtar...]

Each case in conformance/cases/*.txtar holds the files of a run and a `cmd`
file: the lobster command line as a JSON array. This script copies the files
into a fresh temporary directory, runs the reference there with that command
line and writes its exit code and normalised stdout back into the case as
`want/exit` and `want/stdout` (the temporary directory becomes $WORK). A case
with a `deliberate` file keeps its own `ours/stdout` and `ours/exit`: our
expected output where we differ on purpose; the reference's is still
recorded next to it. Nothing of the reference is copied, only its outputs.
"""
import glob, json, os, re, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ref = os.environ.get("LOBSTER_REF_DIR")
if not ref:
    sys.exit("record-conformance: set LOBSTER_REF_DIR to an installed @clawdbot/lobster@2026.9.13")
binary = os.path.join(ref, "bin", "lobster.js")

def parse(text):
    parts = re.split(r"^-- (.+?) --\n", text, flags=re.M)
    return parts[0], [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]

def unparse(comment, files):
    return comment + "".join(f"-- {name} --\n{body}" for name, body in files)

cases = sys.argv[1:] or sorted(glob.glob(os.path.join(root, "conformance", "cases", "*.txtar")))
for path in cases:
    comment, files = parse(open(path).read())
    files = [(n, b) for n, b in files if not n.startswith("want/")]
    cmd = json.loads(dict(files)["cmd"])
    with tempfile.TemporaryDirectory() as work:
        work = os.path.realpath(work)
        for name, body in files:
            if name in ("cmd", "deliberate") or name.startswith("ours/"):
                continue
            full = os.path.join(work, name)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w").write(body)
        env = {"PATH": os.environ["PATH"], "HOME": work, "LOBSTER_STATE_DIR": os.path.join(work, ".state")}
        p = subprocess.run(["node", binary] + cmd, cwd=work, env=env, capture_output=True, text=True, timeout=60)
        out = p.stdout.replace(work, "$WORK")
    files += [("want/exit", f"{p.returncode}\n"), ("want/stdout", out)]
    open(path, "w").write(unparse(comment, files))
    print(f"{os.path.basename(path)}: exit {p.returncode}", file=sys.stderr)
