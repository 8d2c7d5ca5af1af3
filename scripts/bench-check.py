#!/usr/bin/env python3
"""Whole-process timing of `lobster check` on the shared benchmark workloads,
with the baselines measured in the same run (the machines are shared and
noisy, so only ratios within one run mean something).

usage: scripts/bench-check.py [--rounds N] [--actionlint PATH] [--reference DIR]

Runs are interleaved round by round: ours on wf-1000 and wf-5000, actionlint
(-shellcheck= -pyflakes=) on the equal-shaped wf-1000.yml when it is found,
and the reference's `lobster run --dry-run --file wf-1000.lobster` when
--reference names an installed @clawdbot/lobster (node_modules dir). Prints
medians and ratios.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("--rounds", type=int, default=31)
ap.add_argument("--actionlint", default=shutil.which("actionlint"))
ap.add_argument("--reference", default=None, help="path to node_modules containing @clawdbot/lobster")
args = ap.parse_args()

work = tempfile.mkdtemp(prefix="lobster-bench-")
gen = os.path.join(root, "..", "shared", "bench", "gen.py")
for n in ("1000", "5000"):
    subprocess.run([sys.executable, gen, n, work], check=True)
binary = os.path.join(work, "lobster")
# Built as the README installs it: static (CGO_ENABLED=0).
subprocess.run(["go", "build", "-o", binary, "./cmd/lobster"], cwd=root, check=True,
               env=dict(os.environ, CGO_ENABLED="0"))

# shellcheck is off on both sides: the actionlint baseline runs with -shellcheck=.
cmds = {
    "lobster check wf-1000": [binary, "check", "--shellcheck=off", os.path.join(work, "wf-1000.lobster")],
    "lobster check wf-5000": [binary, "check", "--shellcheck=off", os.path.join(work, "wf-5000.lobster")],
}
if args.actionlint:
    cmds["actionlint wf-1000.yml"] = [args.actionlint, "-shellcheck=", "-pyflakes=",
                                      os.path.join(work, ".github", "workflows", "wf-1000.yml")]
if args.reference:
    ref = os.path.join(args.reference, ".bin", "lobster")
    cmds["reference dry-run wf-1000"] = [ref, "run", "--dry-run", "--file", os.path.join(work, "wf-1000.lobster")]

times = {k: [] for k in cmds}
for _ in range(args.rounds):
    for name, cmd in cmds.items():
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
        times[name].append(time.perf_counter() - t)

med = {k: statistics.median(v) * 1000 for k, v in times.items()}
for k, v in med.items():
    print(f"{k:30s} median {v:7.1f} ms")
ours = med["lobster check wf-1000"]
print(f"wf-5000 / wf-1000: {med['lobster check wf-5000'] / ours:.2f} (target <= 6)")
if "actionlint wf-1000.yml" in med:
    a = med["actionlint wf-1000.yml"]
    print(f"lobster / actionlint: {ours / a:.2f}; target 30 ms at actionlint's 68 ms baseline = {30 / 68:.2f}"
          f" -> equivalent to {ours * 68 / a:.1f} ms on the baseline machine")
if "reference dry-run wf-1000" in med:
    print(f"lobster / reference dry-run: {ours / med['reference dry-run wf-1000']:.3f}")
shutil.rmtree(work)
