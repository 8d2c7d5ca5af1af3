package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// lobsterBinary is this test binary as the lobster command: testscript's
// Main puts it on PATH under that name (building lobster instead took 45 s
// of the package's time on a loaded machine).
func lobsterBinary(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("lobster")
	if err != nil {
		t.Fatalf("testscript did not put lobster on PATH: %v", err)
	}
	return bin
}

// rpcPeer speaks newline-delimited JSON-RPC to a process.
type rpcPeer struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
}

func (p *rpcPeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// reply reads messages until the response with id, and returns it.
func (p *rpcPeer) reply(id int) map[string]any {
	p.t.Helper()
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			p.t.Fatalf("waiting for the response %d: %v", id, err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			p.t.Fatalf("not JSON: %q", line)
		}
		if n, ok := m["id"].(float64); ok && int(n) == id {
			return m
		}
	}
}

// callTool calls an MCP tool and returns the run envelope of its
// structured content (nil when it has none) and its content as text.
func (p *rpcPeer) callTool(id int, tool string, args map[string]any) (env map[string]any, content string) {
	p.t.Helper()
	params, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, params))
	res, _ := p.reply(id)["result"].(map[string]any)
	sc, _ := res["structuredContent"].(map[string]any)
	env, _ = sc["envelope"].(map[string]any)
	return env, fmt.Sprint(res["content"])
}

// TestMCPBinary starts the built lobster mcp and speaks newline-delimited
// JSON-RPC to it, as an MCP client on standard I/O does.
func TestMCPBinary(t *testing.T) {
	bin := lobsterBinary(t)
	dir := t.TempDir()
	typo := "steps:\n  - id: build\n    run: echo hi\n  - id: use\n    run: cat\n    stdin: $biuld.stdout\n"
	if err := os.WriteFile(filepath.Join(dir, "typo.lobster"), []byte(typo), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp", "--shellcheck", "off")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	p := &rpcPeer{t: t, in: in, out: bufio.NewReader(out)}

	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	init := p.reply(1)
	info, _ := init["result"].(map[string]any)["serverInfo"].(map[string]any)
	if info["name"] != "lobster" {
		t.Fatalf("initialize: %v", init)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var names []string
	for _, tool := range p.reply(2)["result"].(map[string]any)["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	slices.Sort(names)
	if want := []string{"check", "explain", "fix", "graph", "plan", "schema"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}

	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"check","arguments":{"path":"typo.lobster"}}}`)
	res := p.reply(3)["result"].(map[string]any)
	if res["isError"] == true {
		t.Fatalf("check: %v", res)
	}
	diags := res["structuredContent"].(map[string]any)["diagnostics"].([]any)
	if len(diags) != 1 {
		t.Fatalf("diagnostics: %v", diags)
	}
	d := diags[0].(map[string]any)
	got, _ := json.Marshal(map[string]any{"code": d["code"], "file": d["file"], "range": d["range"], "severity": d["severity"]})
	want := `{"code":"unknown-step-ref","file":"typo.lobster","range":{"end":{"col":18,"line":6,"offset":80},"start":{"col":13,"line":6,"offset":75}},"severity":"error"}`
	if string(got) != want {
		t.Errorf("check found\n%s\nwant\n%s", got, want)
	}

	// Bad input is answered with errors, and the server goes on.
	p.send(`this is not JSON`)
	p.send(`{"jsonrpc":"2.0","id":4,"method":"no/such/method"}`)
	if e, ok := p.reply(4)["error"].(map[string]any); !ok || e["code"] != float64(-32601) {
		t.Errorf("an unknown method: %v", e)
	}
	p.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"check","arguments":{"path":"/etc/passwd"}}}`)
	if r := p.reply(5)["result"].(map[string]any); r["isError"] != true || !strings.Contains(fmt.Sprint(r["content"]), "outside the workspace roots") {
		t.Errorf("a path outside the roots: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"check","arguments":{"text":"steps: []\n"}}}`)
	if r := p.reply(6)["result"].(map[string]any); r["isError"] == true {
		t.Errorf("still serving: %v", r)
	}

	// The end of input ends the server, with status 0.
	in.Close()
	select {
	case err := <-done:
		done <- err
		if err != nil {
			t.Errorf("exit: %v\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Error("the server did not stop at the end of its input")
	}
}
