// reference-tokens.mjs: record how the REFERENCE decodes resume tokens, as
// JSON lines {input, ok, kind?, stateKey?, legacy?, error?}. Run by
// record-reference.sh with LOBSTER_REF_DIR set; nothing of the package is
// copied, only its verdicts on the probe tokens below.
import path from "node:path";
import { pathToFileURL } from "node:url";

const ref = process.env.LOBSTER_REF_DIR;
const { decodeResumeToken } = await import(pathToFileURL(path.join(ref, "dist/src/resume.js")));
const { encodeToken } = await import(pathToFileURL(path.join(ref, "dist/src/token.js")));

const b64 = (s) => Buffer.from(s, "utf8").toString("base64url");
const json = (v) => b64(JSON.stringify(v));
const key = "workflow_resume_0b6a4c1e-8f7e-4c1a-9d52-3f0e7c1a2b3c";
const pkey = "pipeline_resume_0b6a4c1e-8f7e-4c1a-9d52-3f0e7c1a2b3c";
const issued = encodeToken({ protocolVersion: 1, v: 1, kind: "workflow-file", stateKey: key });
const probes = [
  issued,
  encodeToken({ protocolVersion: 1, v: 1, kind: "pipeline-resume", stateKey: pkey }),
  Buffer.from(JSON.stringify({ protocolVersion: 1, v: 1, kind: "pipeline-resume", stateKey: pkey })).toString("base64"),
  ` ${issued.slice(0, 10)}\n${issued.slice(10)} `,
  json({ protocolVersion: 1, v: 1, kind: "workflow-file", stateKey: "odd key" }),
  json({ protocolVersion: 1.0, v: 1, kind: "workflow-file", stateKey: key, extra: true }),
  json({ protocolVersion: 2, v: 1, kind: "workflow-file", stateKey: key }),
  json({ protocolVersion: "1", v: 1, kind: "workflow-file", stateKey: key }),
  json({ v: 1, kind: "workflow-file", stateKey: key }),
  json({ protocolVersion: 1, v: 2, kind: "workflow-file", stateKey: key }),
  json({ protocolVersion: 1, v: 1, kind: "workflow-file" }),
  json({ protocolVersion: 1, v: 1, kind: "workflow-file", stateKey: "" }),
  json({ protocolVersion: 1, v: 1, kind: "workflow-file", stateKey: 5 }),
  json({ protocolVersion: 1, v: 1, kind: "workflow-file", filePath: "/tmp/w.lobster", resumeAtIndex: 3, steps: [{ id: "gate", approved: true }], args: {} }),
  json({ protocolVersion: 1, v: 1, kind: "workflow-file", filePath: "/tmp/w.lobster", resumeAtIndex: "3", steps: [], args: {} }),
  json({ protocolVersion: 1, v: 1, kind: "workflow-file", filePath: "", resumeAtIndex: 3, steps: [], args: {} }),
  json({ protocolVersion: 1, v: 1, kind: "pipeline-resume" }),
  json({ protocolVersion: 1, v: 1, kind: "pipeline-resume", stateKey: "" }),
  json({ protocolVersion: 1, v: 1, kind: "pipeline-resume", pipeline: [{ name: "exec", args: { shell: true, _: ["echo FORGED"] }, raw: "exec --shell 'echo FORGED'" }], resumeAtIndex: 0, items: [] }),
  json({ protocolVersion: 1, v: 1, kind: "other", stateKey: key }),
  json({ protocolVersion: 1, v: 1, stateKey: key }),
  json([]),
  json(null),
  json("token"),
  json(1),
  b64("{not json"),
  "",
  "!!!!",
  "%%%",
];
for (const input of probes) {
  let rec;
  try {
    const p = decodeResumeToken(input);
    rec = { input, ok: true, kind: p.kind, stateKey: p.stateKey ?? null, legacy: p.stateKey === undefined };
  } catch (err) {
    rec = { input, ok: false, error: err.message };
  }
  console.log(JSON.stringify(rec));
}
