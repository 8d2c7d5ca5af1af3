// End-to-end test of lobster-lsp through vscode-jsonrpc, the transport
// vscode-languageclient uses: initialize, didOpen, diagnostics, hover,
// completion, shutdown, exit with status 0. The server is
// $LOBSTER_LSP, or built from the repository with go build.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert');
const cp = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const rpc = require('vscode-jsonrpc/node');

function serverPath() {
  if (process.env.LOBSTER_LSP) {
    return process.env.LOBSTER_LSP;
  }
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lobster-lsp-')), 'lobster-lsp');
  cp.execFileSync('go', ['build', '-o', out, './cmd/lobster-lsp'], {
    cwd: path.join(__dirname, '..', '..', '..'),
    stdio: 'inherit',
  });
  return out;
}

test('a whole session with lobster-lsp', { timeout: 120000 }, async () => {
  const proc = cp.spawn(serverPath(), ['--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(
    new rpc.StreamMessageReader(proc.stdout),
    new rpc.StreamMessageWriter(proc.stdin)
  );
  const diagnostics = new Promise((resolve) => {
    conn.onNotification('textDocument/publishDiagnostics', (p) => resolve(p));
  });
  conn.listen();

  const init = await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  assert.strictEqual(init.serverInfo.name, 'lobster-lsp');
  assert.ok(init.capabilities.hoverProvider);
  assert.ok(init.capabilities.inlayHintProvider);
  await conn.sendNotification('initialized', {});

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobster-e2e-'));
  const uri = 'file://' + path.join(dir, 'flow.lobster');
  const text = 'steps:\n  - id: build\n    run: make\n  - id: deploy\n    run: ./deploy.sh "$biuld.stdout"\n';
  await conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'lobster', version: 1, text },
  });
  const p = await diagnostics;
  assert.strictEqual(p.uri, uri);
  const typo = p.diagnostics.find((d) => d.code === 'unknown-step-ref');
  assert.ok(typo, JSON.stringify(p.diagnostics));
  assert.deepStrictEqual(typo.range, { start: { line: 4, character: 23 }, end: { line: 4, character: 28 } });
  assert.match(typo.codeDescription.href, /diagnostics\.md#unknown-step-ref$/);

  const hover = await conn.sendRequest('textDocument/hover', {
    textDocument: { uri },
    position: { line: 1, character: 10 },
  });
  assert.match(hover.contents.value, /`build`/);

  const list = await conn.sendRequest('textDocument/completion', {
    textDocument: { uri },
    position: { line: 4, character: 23 },
  });
  assert.deepStrictEqual(list.items.map((i) => i.label), ['build']);

  const lenses = await conn.sendRequest('textDocument/codeLens', { textDocument: { uri } });
  assert.deepStrictEqual(
    lenses.map((l) => l.command.title),
    ['Plan (file)', 'Plan diff (file)', 'Plan', 'Plan diff', 'Plan', 'Plan diff']
  );
  const plan = await conn.sendRequest('workspace/executeCommand', lenses[2].command);
  assert.match(plan.text, /^1\. build \[shell\]\n {3}run: make\n/m);

  await conn.sendRequest('shutdown');
  const exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
  await conn.sendNotification('exit');
  assert.strictEqual(await exited, 0);
  conn.dispose();
});
