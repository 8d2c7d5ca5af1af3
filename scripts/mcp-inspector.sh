#!/usr/bin/env bash
# Lists the tools of `lobster mcp` with the official MCP Inspector's CLI
# mode. Best effort, like shellcheck: when the Inspector cannot be
# installed from npm (no npx, no network), it says so and succeeds; when it
# runs, the tools must be listed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v npx >/dev/null; then
	echo "mcp-inspector: npx not found; skipped"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/lobster" ./cmd/lobster
if ! (cd "$tmp" && timeout 600 npm install --no-audit --no-fund --silent @modelcontextprotocol/inspector@0.15.0 >/dev/null 2>&1); then
	echo "mcp-inspector: @modelcontextprotocol/inspector could not be installed; skipped"
	exit 0
fi
out=$(cd "$tmp" && timeout 120 node_modules/.bin/mcp-inspector --cli "$tmp/lobster" mcp --method tools/list)
for tool in check fix explain plan graph schema; do
	if ! grep -q "\"name\": \"$tool\"" <<<"$out"; then
		echo "mcp-inspector: tools/list has no $tool:"
		echo "$out"
		exit 1
	fi
done
echo "mcp-inspector: tools/list lists check, fix, explain, plan, graph, schema"
