#!/usr/bin/env python3
"""Record the REFERENCE's behaviour for every conformance case.

usage: LOBSTER_REF_DIR=.../node_modules/@clawdbot/lobster scripts/record-conformance.py [CASE.txtar...]

Each case in conformance/cases/*.txtar holds the files of a run and a `cmd`
file: the lobster command line as a JSON array. This script copies the files
into a fresh temporary directory, runs the reference there with that command
line and writes its exit code and normalised stdout back into the case as
`want/exit` and `want/stdout` (the temporary directory becomes $WORK).

`cmd` may instead be a sequence of steps, {"args": [...], "env": {...}}, for
pause and resume round trips: arguments $TOKEN and $ID stand for the last
pause's resume token and approval id; stdout is then a transcript of every
step (command line, exit code, output with tokens and ids normalised),
ending with a listing of the state directory, and want/exit is the last
step's exit code. conformance_test.go builds the same transcript. A case
with a `compare-stderr` file also gets `want/stderr`, the standard error of
its commands (the dry-run prints its plan there). A case
with a `deliberate` file keeps its own `ours/stdout` and `ours/exit`: our
expected output where we differ on purpose; the reference's is still
recorded next to it. A case with a `server.json` file,
{"status": N, "body": "...", "hang": bool}, runs against a local HTTP
endpoint that answers every request so (hang: not until the client gives
up) and counts them: "$SERVER" in the case's files, arguments and
environment is its URL, its URL in the output becomes "$SERVER", and the
output ends with "[server: N request(s)]"; with "log": true there, each
request follows, in the order they came: "> METHOD PATH", its
authorization header when it has one, and "> BODY". "$SHIMS" is the directory of
the openclaw.invoke and clawd.invoke programs. Nothing of the reference is
copied, only its outputs.
"""
import glob, http.server, json, os, re, subprocess, sys, tempfile, threading

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

TOKEN_FIELD = re.compile(r'"resumeToken": "[A-Za-z0-9_-]+"')
ID_FIELD = re.compile(r'"approvalId": "[0-9a-f]{8}"')
ID_TEXT = re.compile(r'Approval ID \\"[0-9a-f]{8}\\"')
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
APPROVAL_FILE = re.compile(r"^approval_[0-9a-f]{8}\.json$")

def normalize_ids(s):
    s = TOKEN_FIELD.sub('"resumeToken": "<token>"', s)
    s = ID_FIELD.sub('"approvalId": "<id>"', s)
    return ID_TEXT.sub(lambda m: 'Approval ID \\"<id>\\"', s)

def pause_ids(stdout):
    try:
        env = json.loads(stdout)
    except ValueError:
        return None
    if not isinstance(env, dict):
        return None
    if env.get("requiresApproval"):
        return env["requiresApproval"].get("resumeToken", ""), env["requiresApproval"].get("approvalId", "")
    if env.get("requiresInput"):
        return env["requiresInput"].get("resumeToken", ""), ""
    return None

def list_state(d):
    lines = []
    for name in (os.listdir(d) if os.path.isdir(d) else []):
        shown = UUID.sub("<uuid>", name)
        if APPROVAL_FILE.match(shown):
            shown = "approval_<id>.json"
        try:
            if "lobster.consumed-resume-state.v1" in open(os.path.join(d, name)).read():
                shown += " (tombstone)"
        except OSError:
            pass
        lines.append(shown + "\n")
    return "".join(sorted(lines))

class FakeServer:
    """The HTTP endpoint of a case with a server.json (see above)."""

    def __init__(self, spec):
        answer = json.loads(spec)
        self.count = 0
        self.log = []
        self.logging = bool(answer.get("log"))
        self.stop = threading.Event()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                outer.count += 1
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                if outer.logging:
                    entry = f"> {self.command} {self.path}\n"
                    if self.headers.get("authorization") is not None:
                        entry += f"> authorization: {self.headers.get('authorization')}\n"
                    outer.log.append(entry + f"> {body.decode('utf-8', 'replace')}\n")
                if answer.get("hang"):
                    outer.stop.wait(60)
                    return
                body = answer.get("body", "").encode()
                self.send_response(answer.get("status", 200))
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()

cases = sys.argv[1:] or sorted(glob.glob(os.path.join(root, "conformance", "cases", "*.txtar")))
for path in cases:
    # newline="": a carriage return is data, never a line break to translate;
    # surrogateescape: bytes that are not UTF-8 are data too, kept as they are.
    comment, files = parse(open(path, newline="", encoding="utf-8", errors="surrogateescape").read())
    files = [(n, b) for n, b in files if not n.startswith("want/")]
    cmd = json.loads(dict(files)["cmd"])
    single = all(isinstance(a, str) for a in cmd)
    steps = [{"args": cmd}] if single else cmd
    server = FakeServer(dict(files)["server.json"]) if "server.json" in dict(files) else None
    shims = os.path.normpath(os.path.join(ref, "..", "..", ".bin"))
    srv = (lambda t: t.replace("$SERVER", server.url).replace("$SHIMS", shims)) if server else (lambda t: t.replace("$SHIMS", shims))
    with tempfile.TemporaryDirectory() as work:
        work = os.path.realpath(work)
        for name, body in files:
            if name in ("cmd", "deliberate", "compare-stderr", "server.json") or name.startswith("ours/"):
                continue
            full = os.path.join(work, name)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w", newline="", encoding="utf-8", errors="surrogateescape").write(srv(body))
        state = os.path.join(work, ".state")
        token = ident = ""
        out = err = ""
        for step in steps:
            args = [srv(a.replace("$TOKEN", token).replace("$ID", ident)) for a in step["args"]]
            env = {"PATH": os.environ["PATH"], "HOME": work, "LOBSTER_STATE_DIR": state}
            env.update({k: srv(v) for k, v in step.get("env", {}).items()})
            p = subprocess.run(["node", binary] + args, cwd=work, env=env, capture_output=True, timeout=60)
            p.stdout, p.stderr = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
            ids = pause_ids(p.stdout)
            if ids and ids[0]:
                token, ident = ids
            text = p.stdout.replace(work, "$WORK")
            if server:
                text = text.replace(server.url, "$SERVER")
            err += p.stderr.replace(work, "$WORK")
            if single:
                out += text
            else:
                out += f"$ lobster {' '.join(step['args'])}\n[exit {p.returncode}]\n{normalize_ids(text)}"
        if not single:
            out += "$ ls .state\n" + list_state(state)
        if server:
            server.close()
            out += f"[server: {server.count} request(s)]\n" + "".join(server.log)
    files += [("want/exit", f"{p.returncode}\n"), ("want/stdout", out)]
    if "compare-stderr" in dict(files):
        files.append(("want/stderr", err))
    open(path, "w", newline="", encoding="utf-8", errors="surrogateescape").write(unparse(comment, files))
    print(f"{os.path.basename(path)}: exit {p.returncode}", file=sys.stderr)
