// The Lobster extension: starts lobster-lsp for .lobster files.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

/** serverOptions finds lobster-lsp: the lobster.server.path setting, else PATH. */
function serverOptions() {
  const config = vscode.workspace.getConfiguration('lobster');
  const command = config.get('server.path') || 'lobster-lsp';
  return { command, args: [], transport: TransportKind.stdio };
}

function clientOptions() {
  const config = vscode.workspace.getConfiguration('lobster');
  return {
    documentSelector: [
      { scheme: 'file', language: 'lobster' },
      { scheme: 'untitled', language: 'lobster' },
    ],
    initializationOptions: { shellcheck: config.get('shellcheck') || 'auto' },
  };
}

async function start() {
  client = new LanguageClient('lobster', 'Lobster Language Server', serverOptions(), clientOptions());
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(
      `Lobster: cannot start lobster-lsp (${err && err.message ? err.message : err}). ` +
        'Install it with "go install github.com/lobsterdev/lobster/cmd/lobster-lsp@latest" ' +
        'or set "lobster.server.path".'
    );
  }
}

async function stop() {
  if (client) {
    const c = client;
    client = undefined;
    await c.stop();
  }
}

/**
 * runPlan asks the server for the plan (or plan diff) of the active editor,
 * with args given as JSON; the server opens the result as a document.
 * @param {string} command lobster.plan or lobster.planDiff
 */
async function runPlan(command) {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'lobster') {
    vscode.window.showWarningMessage('Lobster: open a .lobster file first.');
    return;
  }
  const args = await vscode.window.showInputBox({
    prompt: 'Args as a JSON object (empty: the defaults)',
    placeHolder: '{"target": "prod"}',
  });
  if (args === undefined) {
    return; // cancelled
  }
  const arg = { uri: editor.document.uri.toString() };
  if (args.trim() !== '') {
    arg.args = args;
  }
  try {
    const res = await vscode.commands.executeCommand(command, arg);
    if (res && !res.uri) {
      const doc = await vscode.workspace.openTextDocument({ content: res.text, language: 'diff' });
      await vscode.window.showTextDocument(doc, { preview: true });
    }
  } catch (err) {
    vscode.window.showErrorMessage(`Lobster: ${err && err.message ? err.message : err}`);
  }
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('lobster.showPlan', () => runPlan('lobster.plan')),
    vscode.commands.registerCommand('lobster.showPlanDiff', () => runPlan('lobster.planDiff')),
    vscode.commands.registerCommand('lobster.restartServer', async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('lobster.server.path') || e.affectsConfiguration('lobster.shellcheck')) {
        await stop();
        await start();
      }
    })
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate, serverOptions, clientOptions };
