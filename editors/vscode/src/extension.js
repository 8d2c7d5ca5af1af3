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
    initializationOptions: { shellcheck: config.get('shellcheck') || 'off' },
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

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
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
