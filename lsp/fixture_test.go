package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// flow is the workflow most feature tests run on.
const flow = `# A release flow.
args:
  target:
    default: prod
    description: where to deploy
  dry-run:
    default: false
env:
  REGION: eu
steps:
  - id: build
    run: make build TARGET=${target}
  - id: test
    run: |
      echo "$LOBSTER_ARG_TARGET"
      cat "$build.stdout"
    when: $build.json.ok == true && !$build.skipped
  - id: approve
    approval: Ship it?
    stdin: $test.stdout
  - id: ship
    pipeline: exec --json --shell "deploy ${target}" | pick name
    on_error: continue
  - id: each
    for_each: $build.json.items
    steps:
      - id: one
        run: echo $item.json
`

// at is the position of the n-th occurrence (from 1) of needle in text,
// moved by delta bytes (ASCII lines only).
func at(t *testing.T, text, needle string, n, delta int) protocol.Position {
	t.Helper()
	off := -1
	for i := 0; i < n; i++ {
		k := strings.Index(text[off+1:], needle)
		if k < 0 {
			t.Fatalf("occurrence %d of %q not found", n, needle)
		}
		off += 1 + k
	}
	off += delta
	line := strings.Count(text[:off], "\n")
	col := off - (strings.LastIndex(text[:off], "\n") + 1)
	return pos(line, col)
}

// docPos are the params of a position request.
func docPos(u protocol.DocumentURI, p protocol.Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": u}, "position": p}
}

// openFlow starts a server and opens flow.
func openFlow(t *testing.T) (*client, protocol.DocumentURI) {
	c := start(t)
	u := c.open("flow.lobster", flow)
	return c, u
}
