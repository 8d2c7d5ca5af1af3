package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// keysFlow has a step of every kind whose json keys are known before a
// run. "USE" is replaced by the reference being completed.
const keysFlow = `steps:
  - id: lit
    run: echo '{"a":1,"nested":{"x":true}}'
  - id: pf
    command: printf '%s\n' "{\"p\":[1]}"
  - id: arr
    run: echo -n '[{"id":1,"name":"x"}]'
  - id: par
    parallel:
      branches:
        - id: b1
          run: echo '{"k":1}'
        - id: b2
          run: make
  - id: loop
    for_each: $arr.json
    steps:
      - id: s1
        run: echo '{"v":1}'
      - id: inner
        run: echo $item.json.ITEM
  - id: wrap
    pipeline: exec --json ls | map --wrap file tag=x
  - id: picked
    pipeline: exec --json ls | pick name,size
  - id: ask
    input:
      prompt: ok?
      responseSchema:
        type: object
        properties:
          env: {type: string, description: where}
          opts: {type: object, properties: {fast: {type: boolean}}}
  - id: sub
    workflow: child.lobster
  - id: plain
    run: echo '{"a":1}' | jq .
  - id: doc
    run: |
      cat <<'EOF'
      {"title": "x", "tags": ["a"]}
      EOF
  - id: use
    run: echo USE
`

const keysChild = "steps:\n  - id: c0\n    run: echo hi\n  - id: c\n    run: echo '{\"msg\":\"hi\",\"n\":2}'\n"

func TestCompletionJSONKeys(t *testing.T) {
	c := start(t)
	if err := os.WriteFile(filepath.Join(c.dir, "child.lobster"), []byte(keysChild), 0o666); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ref  string
		want []string // exactly these labels, sorted
	}{
		{"$lit.json.|", []string{"a", "nested"}},
		{"$lit.json.nested.|", []string{"x"}},
		{"$lit.json.a.|", nil},
		{"$pf.json.|", []string{"p"}},
		{"$pf.json.p.|", []string{"0"}},
		{"$arr.json.|", []string{"0"}},
		{"$arr.json.0.|", []string{"id", "name"}},
		{"$par.json.|", []string{"b1", "b2"}},
		{"$par.json.b1.|", []string{"k"}},
		{"$par.json.b2.|", nil},
		{"$loop.json.|", []string{"0"}},
		{"$loop.json.0.|", []string{"index", "inner", "item", "s1"}},
		{"$loop.json.0.s1.|", []string{"v"}},
		{"$loop.json.0.item.|", []string{"id", "name"}},
		{"$wrap.json.|", []string{"0", "file", "tag"}},
		{"$wrap.json.0.|", []string{"file", "tag"}},
		{"$picked.json.|", []string{"0", "name", "size"}},
		{"$ask.response.|", []string{"env", "opts"}},
		{"$ask.response.opts.|", []string{"fast"}},
		{"$ask.subject.|", []string{"0", "name", "size"}}, // the step before it
		{"$sub.json.|", []string{"msg", "n"}},
		{"$plain.json.|", nil}, // not a plain echo
		{"$doc.json.|", []string{"tags", "title"}},
		{"$b1.json.|", []string{"k"}},
	}
	for i, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			labels, _ := complete(t, c, "k"+itoa(i)+".lobster", strings.Replace(keysFlow, "USE", tt.ref, 1))
			if !slices.Equal(labels, tt.want) {
				t.Errorf("labels %v, want %v", labels, tt.want)
			}
		})
	}
	// Inside the loop, the item's keys come from the array it walks.
	text := strings.Replace(keysFlow, "USE", "x", 1)
	u := c.open("kloop.lobster", strings.Replace(text, "$item.json.ITEM", "$item.json.", 1))
	var list protocol.CompletionList
	c.call("textDocument/completion", docPos(u, at(t, text, "$item.json.ITEM", 1, len("$item.json."))), &list)
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label)
	}
	slices.Sort(labels)
	if !slices.Equal(labels, []string{"id", "name"}) {
		t.Errorf("loop item keys %v", labels)
	}
}

// TestCompletionJSONKeyEdit checks the edit range (the typed part of the
// key), the detail and the documentation of a key.
func TestCompletionJSONKeyEdit(t *testing.T) {
	c := start(t)
	text := strings.Replace(keysFlow, "USE", "$par.json.b| x", 1)
	_, items := complete(t, c, "edit.lobster", text)
	if len(items) != 2 {
		t.Fatalf("items %+v", items)
	}
	it := items[0]
	clean := strings.Replace(text, "|", "", 1)
	line := strings.Count(clean[:strings.Index(clean, "$par.json.b")], "\n")
	if it.Label != "b1" || it.TextEdit == nil || it.TextEdit.NewText != "b1" || it.TextEdit.Range != rng(line, 24, line, 25) || textOf(clean, it.TextEdit.Range) != "b" {
		t.Errorf("item %+v", it)
	}
	if it.Detail != "branch of par" {
		t.Errorf("detail %q", it.Detail)
	}
	doc, _ := it.Documentation.(map[string]any)
	if doc["value"] != "the json of the branch `b1` of the parallel step `par` (missing when the branch's output is not JSON)" {
		t.Errorf("documentation %#v", it.Documentation)
	}
}

// TestCompletionJSONKeysOpenChild reads the child workflow from the
// editor when it is open, not from the disk.
func TestCompletionJSONKeysOpenChild(t *testing.T) {
	c := start(t)
	if err := os.WriteFile(filepath.Join(c.dir, "child.lobster"), []byte(keysChild), 0o666); err != nil {
		t.Fatal(err)
	}
	child := c.uri("child.lobster")
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: child, LanguageID: "lobster", Version: 1, Text: strings.Replace(keysChild, `"n":2`, `"edited":2`, 1),
	}})
	labels, _ := complete(t, c, "p.lobster", strings.Replace(keysFlow, "USE", "$sub.json.|", 1))
	if !slices.Equal(labels, []string{"edited", "msg"}) {
		t.Errorf("labels %v, want the open child's keys", labels)
	}
}

func TestHoverJSONKey(t *testing.T) {
	c := start(t)
	if err := os.WriteFile(filepath.Join(c.dir, "child.lobster"), []byte(keysChild), 0o666); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(keysFlow, "USE", "$par.json.b1 $wrap.json.file $sub.json.msg $loop.json.0.s1 $ask.response.env $lit.json.zz $pf.json.p.0", 1)
	u := c.open("h.lobster", text)
	tests := []struct{ needle, span, want string }{
		{"$par.json.b1", "b1", "`$par.json.b1`: the key `b1` of `$par.json`, the json of the branch `b1` of the parallel step `par` (missing when the branch's output is not JSON)"},
		{"$wrap.json.file", "file", "`$wrap.json.file`: the key `file` of `$wrap.json`, made by `map --wrap file`, the last stage of the pipeline of `wrap`"},
		{"$sub.json.msg", "msg", "`$sub.json.msg`: the key `msg` of `$sub.json`, printed by the `run` of `c` (a JSON literal): the last step of the child workflow `child.lobster`"},
		{"$loop.json.0.s1", "s1", "`$loop.json.0.s1`: the key `s1` of `$loop.json.0`, the json (else the stdout) of the sub-step `s1` in the iteration of the for_each loop `loop` (missing when it was skipped)"},
		{"$loop.json.0.s1", "0", "`$loop.json.0`: the item 0 of the array `$loop.json` (`undefined` past its end)"},
		{"$ask.response.env", "env", "`$ask.response.env`: the key `env` of `$ask.response`, a property of the `responseSchema` of the input step `ask`: where"},
		{"$lit.json.zz", "zz", "`$lit.json.zz`: walks into `$lit.json` (a key or an array index; a missing one is `undefined`)"},
		{"$pf.json.p.0", "0", "`$pf.json.p.0`: the item 0 of the array `$pf.json.p` (`undefined` past its end)"},
	}
	for _, tt := range tests {
		t.Run(tt.needle+" "+tt.span, func(t *testing.T) {
			off := strings.Index(text, tt.needle) + strings.LastIndex(tt.needle, "."+tt.span) + 1
			if tt.span == "0" && tt.needle == "$loop.json.0.s1" {
				off = strings.Index(text, tt.needle) + len("$loop.json.")
			}
			var h *protocol.Hover
			line := strings.Count(text[:off], "\n")
			c.call("textDocument/hover", docPos(u, pos(line, off-(strings.LastIndex(text[:off], "\n")+1))), &h)
			if h == nil {
				t.Fatal("no hover")
			}
			if h.Contents.Value != tt.want {
				t.Errorf("hover\n%s\nwant\n%s", h.Contents.Value, tt.want)
			}
			if h.Range == nil || offsetOf(text, h.Range.Start) != off || textOf(text, *h.Range) != tt.span {
				t.Errorf("hover range %v, want %q at %d", h.Range, tt.span, off)
			}
		})
	}
}

func TestPrintedJSON(t *testing.T) {
	tests := []struct {
		shell, want string
		ok          bool
	}{
		{`echo '{"a":1}'`, `{"a":1}`, true},
		{`echo -n "{\"a\": 1}"`, `{"a": 1}`, true},
		{`echo -e '[1, 2]'`, `[1, 2]`, true},
		{`printf '%s\n' '{"a":1}'`, `{"a":1}`, true},
		{`printf '{"a":1}'`, `{"a":1}`, true},
		{"  echo '{\"a\":1}'\n", `{"a":1}`, true},
		{`echo '{"a":1}' | jq .`, "", false},
		{`echo "{\"a\": \"$HOME\"}"`, "", false},
		{`echo '{"a":1}'; rm -rf x`, "", false},
		{`echo hi`, "", false},
		{`echo '{"a":'`, "", false},
		{`printf '%d' 3`, "", false},
		{`cat '{"a":1}'`, "", false},
		{`echo '{"a":1}' > out`, "", false},
		{"cat <<EOF\n{\"a\": 1,\n \"b\": [2]}\nEOF", "{\"a\": 1,\n \"b\": [2]}", true},
		{"cat <<'JSON'\n{\"cost\": \"$5\"}\nJSON\n", `{"cost": "$5"}`, true},
		{"cat << \"EOF\"\n[1]\nEOF", "[1]", true},
		{"cat <<-EOF\n\t{\"a\": 1}\n\tEOF", `{"a": 1}`, true},
		{"cat <<EOF\n{\"a\": \"$HOME\"}\nEOF", "", false},
		{"cat <<EOF\n{\"a\": 1}\nEOF\nrm -rf x", "", false},
		{"cat <<EOF | jq .\n{\"a\": 1}\nEOF", "", false},
		{"cat <<EOF\n{\"a\": 1}\n", "", false},
		{"cat <<EOF\nnot json\nEOF", "", false},
		{"cat <<EOF >out\n{}\nEOF", "", false},
	}
	for _, tt := range tests {
		got, ok := printedJSON(tt.shell)
		if got != tt.want || ok != tt.ok {
			t.Errorf("printedJSON(%q) = %q, %v; want %q, %v", tt.shell, got, ok, tt.want, tt.ok)
		}
	}
}
