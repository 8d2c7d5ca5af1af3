package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
)

// TestImplementationsMatchRegistry keeps the implementations and the
// registry's names equal, both ways.
func TestImplementationsMatchRegistry(t *testing.T) {
	got := Implemented()
	want := commands.Names()
	if !slices.Equal(got, want) {
		t.Errorf("implementations %v\nregistry        %v", got, want)
	}
	for _, name := range NotYetSupported {
		if _, ok := commands.Lookup(name); !ok {
			t.Errorf("NotYetSupported lists %q, which is not registered", name)
		}
		if Supported(name) {
			t.Errorf("Supported(%q) = true", name)
		}
	}
	if !Supported("exec") || Supported("nosuch") {
		t.Error("Supported: exec should be supported and nosuch not")
	}
}

// run parses and runs text in human mode over input, in a temporary state
// directory, and returns the items, what renderers wrote, and the error.
func run(t *testing.T, text string, input ...any) ([]any, string, error) {
	t.Helper()
	return runEnv(t, &Env{Mode: Human, StateDir: t.TempDir(), Environ: os.Environ()}, text, input...)
}

func runEnv(t *testing.T, env *Env, text string, input ...any) ([]any, string, error) {
	t.Helper()
	p := parser.ParsePipelineText(text)
	if p.Err != nil {
		t.Fatalf("parse %q: %s", text, p.Err.Msg)
	}
	var out bytes.Buffer
	env.Stdout = &out
	res, err := Run(context.Background(), StagesOf(p.Stages, text), input, env)
	return res.Items, out.String(), err
}

// parseItems parses a JSON array into items.
func parseItems(t *testing.T, text string) []any {
	t.Helper()
	v, err := jsvalue.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return v.([]any)
}

// check runs text over the JSON array input and compares the items, as
// compact JSON, with want.
func check(t *testing.T, text, input, want string) {
	t.Helper()
	items, _, err := run(t, text, parseItems(t, input)...)
	if err != nil {
		t.Errorf("%s: %v", text, err)
		return
	}
	if got := compact(nonNil(items)); got != want {
		t.Errorf("%s over %s:\n got %s\nwant %s", text, input, got, want)
	}
}

// checkErr runs text and wants the error message want.
func checkErr(t *testing.T, text, input, want string) {
	t.Helper()
	_, _, err := run(t, text, parseItems(t, input)...)
	if err == nil || err.Error() != want {
		t.Errorf("%s: error %v, want %q", text, err, want)
	}
}

func TestWhere(t *testing.T) {
	nums := `[{"n":10},{"n":30},{"n":50},{"n":"40"},{"n":null},{}]`
	check(t, "where n>=30", nums, `[{"n":30},{"n":50},{"n":"40"}]`)
	check(t, "where n<5", `[{"n":1},{"n":5},{"n":9},{"n":null},{}]`, `[{"n":1},{"n":null}]`)
	check(t, "where n<=5", `[{"n":1},{"n":5},{"n":9}]`, `[{"n":1},{"n":5}]`)
	check(t, "where n>=0", `[{"n":null},{}]`, `[{"n":null}]`) // null is 0, missing is NaN
	check(t, "where unread=true", `[{"unread":true},{"unread":false},{"unread":1},{"unread":"1"},{"unread":"true"}]`,
		`[{"unread":true},{"unread":1},{"unread":"1"}]`)
	check(t, "where unread=false", `[{"unread":true},{"unread":false},{"unread":0},{"unread":""},{"unread":[]}]`,
		`[{"unread":false},{"unread":0},{"unread":""},{"unread":[]}]`)
	check(t, "where x=null", `[{"x":null},{"x":0},{}]`, `[{"x":null},{}]`)
	check(t, "where x!=null", `[{"x":null},{"x":0},{}]`, `[{"x":0}]`)
	check(t, "where a.b==1", `[{"a":{"b":1}},{"a":5},{"a":{"b":"1"}}]`, `[{"a":{"b":1}},{"a":{"b":"1"}}]`)
	check(t, "where user.id==u1", `[{"user":{"id":"u1"}},{"user":{"id":"u2"}},{"user":null}]`, `[{"user":{"id":"u1"}}]`)
	check(t, "where kind!=spam", `[{"kind":"spam"},{"kind":"ham"},{}]`, `[{"kind":"ham"},{}]`)
	check(t, "where v==1", `[{"v":[1]},{"v":"1"},{"v":" 1 "},{"v":true},{"v":"0x1"}]`,
		`[{"v":[1]},{"v":"1"},{"v":" 1 "},{"v":true},{"v":"0x1"}]`)
	check(t, "where v==0", `[{"v":""},{"v":" "},{"v":[]},{"v":{}},{"v":null}]`, `[{"v":""},{"v":" "},{"v":[]}]`)
	check(t, "where v<b", `[{"v":"10"},{"v":{}},{"v":"c"},{"v":5}]`, `[{"v":"10"},{"v":{}}]`)
	check(t, "where v==0x10", `[{"v":16},{"v":"16"},{"v":"0x10"}]`, `[{"v":16},{"v":"16"},{"v":"0x10"}]`)
	check(t, "where v==1e1", `[{"v":10}]`, `[{"v":10}]`)
	check(t, "where v==Infinity", `[{"v":1e400}]`, `[{"v":null}]`) // 1e400 parses to Infinity, printed null
	check(t, "where v==True", `[{"v":true},{"v":"True"}]`, `[{"v":"True"}]`)
	check(t, "where x==", `[{"x":"="},{"x":""}]`, `[{"x":"="}]`)
	check(t, "where a===1", `[{"a":"=1"},{"a":1}]`, `[{"a":"=1"}]`)
	check(t, "where a!==1", `[{"a":"=1"},{"a":1}]`, `[{"a":1}]`)
	check(t, "where a=>1", `[{"a":">1"},{"a":1}]`, `[{"a":">1"}]`)
	check(t, "where items.0==x", `[{"items":["x"]},{"items":"x"}]`, `[{"items":["x"]}]`)
	check(t, "where items.length>1", `[{"items":[1,2]},{"items":"abc"}]`, `[{"items":[1,2]}]`)
	check(t, "where 'n >=  30'", nums, `[{"n":30},{"n":50},{"n":"40"}]`)
	check(t, "where n>=0", `[1,"a",null]`, `[]`)

	checkErr(t, "where", `[]`, "where requires an expression (e.g. field=value)")
	checkErr(t, "where garbage", `[]`, "Invalid where expression: garbage")
	checkErr(t, "where a-b==1", `[]`, "Invalid where expression: a-b==1")
	checkErr(t, "where ' a==1'", `[]`, "Invalid where expression:  a==1")
}

func TestParsePredicate(t *testing.T) {
	tests := []struct {
		expr, path, op string
		value          any
	}{
		{"a=1", "a", "==", 1.0},
		{"a = x ", "a", "==", "x "},
		{"a==   ", "a", "==", " "}, // the value keeps one character
		{"a<>1", "a", "<", ">1"},
		{"a== 5 ", "a", "==", 5.0},
		{"a==null", "a", "==", nil},
		{"a==false", "a", "==", false},
		{"a==.5", "a", "==", 0.5},
	}
	for _, tt := range tests {
		p, err := ParsePredicate(tt.expr)
		if err != nil {
			t.Errorf("%q: %v", tt.expr, err)
			continue
		}
		if p.Path != tt.path || p.Op != tt.op || p.Value != tt.value {
			t.Errorf("%q = %q %q %#v, want %q %q %#v", tt.expr, p.Path, p.Op, p.Value, tt.path, tt.op, tt.value)
		}
	}
	for _, bad := range []string{"", "=1", "a", "a==\n", "a==1\nb", "é==1"} {
		if _, err := ParsePredicate(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestSortDedupeGroupBy(t *testing.T) {
	check(t, "sort", `[3,1,2]`, `[1,2,3]`)
	check(t, "sort", `["a",10,"B",9]`, `[9,10,"B","a"]`) // numbers with numbers, the rest as strings
	check(t, "sort --desc", `["b","a","c"]`, `["c","b","a"]`)
	check(t, "sort --desc false", `[1,3,2]`, `[3,2,1]`)
	check(t, "sort --key k", `[{"k":2,"id":"a"},{"k":1,"id":"b"},{"k":2,"id":"c"}]`,
		`[{"k":1,"id":"b"},{"k":2,"id":"a"},{"k":2,"id":"c"}]`)
	check(t, "sort --key k", `[{"id":"a"},{"k":2,"id":"b"},{"k":null,"id":"c"},{"k":1,"id":"d"}]`,
		`[{"k":1,"id":"d"},{"k":2,"id":"b"},{"id":"a"},{"k":null,"id":"c"}]`)
	check(t, "sort --key k --desc", `[{"id":"a"},{"k":2,"id":"b"},{"k":null,"id":"c"},{"k":1,"id":"d"}]`,
		`[{"id":"a"},{"k":null,"id":"c"},{"k":2,"id":"b"},{"k":1,"id":"d"}]`)
	check(t, "sort --key s.length", `[{"s":"ccc"},{"s":"a"},{"s":"bb"}]`, `[{"s":"a"},{"s":"bb"},{"s":"ccc"}]`)
	check(t, "sort", `["\uff61","\ud83d\ude00"]`, `["😀","｡"]`) // UTF-16 order: a surrogate sorts before U+FF61

	check(t, "dedupe", `[1,2,1,3,2]`, `[1,2,3]`)
	check(t, "dedupe", `[{"a":1,"b":2},{"b":2,"a":1},{"a":1,"b":2}]`, `[{"a":1,"b":2},{"b":2,"a":1}]`)
	check(t, "dedupe --key id", `[{"id":"a","v":1},{"id":"b"},{"id":"a","v":2}]`, `[{"id":"a","v":1},{"id":"b"}]`)
	check(t, "dedupe --key id", `[{"v":1},{"id":null,"v":2},{"v":3},{"id":"x"}]`, `[{"v":1},{"id":null,"v":2},{"id":"x"}]`)

	check(t, "groupBy --key from", `[{"from":"a","id":1},{"from":"b","id":2},{"from":"a","id":3},{"id":4}]`,
		`[{"key":"a","items":[{"from":"a","id":1},{"from":"a","id":3}],"count":2},{"key":"b","items":[{"from":"b","id":2}],"count":1},{"items":[{"id":4}],"count":1}]`)
	check(t, "groupBy --key user.id", `[{"user":{"id":"u1"}},{"user":{"id":"u2"}},{"user":{"id":"u1"}}]`,
		`[{"key":"u1","items":[{"user":{"id":"u1"}},{"user":{"id":"u1"}}],"count":2},{"key":"u2","items":[{"user":{"id":"u2"}}],"count":1}]`)
	checkErr(t, "groupBy", `[]`, "groupBy requires --key")
	checkErr(t, "groupBy --key ' '", `[]`, "groupBy requires --key")
}

func TestPickHeadMap(t *testing.T) {
	check(t, "pick name,id,missing", `[{"id":1,"name":"a","x":2},null,5,[7,8]]`, `[{"name":"a","id":1},null,5,{}]`)
	check(t, "pick 0,length", `[[7,8]]`, `[{"0":7,"length":2}]`)
	check(t, "pick ,", `[{"a":1}]`, `[{}]`)
	checkErr(t, "pick", `[]`, "pick requires a comma-separated field list")

	check(t, "head --n 2", `[1,2,3]`, `[1,2]`)
	check(t, "head 1", `[1,2,3]`, `[1,2,3]`) // positionals are ignored: 10
	check(t, "head --n", `[1,2,3]`, `[1]`)
	check(t, "head --n 1.5", `[1,2,3]`, `[1,2]`)
	check(t, "head --n 0", `[1,2,3]`, `[]`)
	checkErr(t, "head --n -1", `[]`, "head --n must be a non-negative number")
	checkErr(t, "head --n x", `[]`, "head --n must be a non-negative number")

	check(t, "map --wrap item", `[1,2]`, `[{"item":1},{"item":2}]`)
	check(t, "map --unwrap x", `[{"x":1},{"y":2},5]`, `[1,null,null]`)
	check(t, "map kind=pr id={{id}}", `[{"id":123,"title":"t"}]`, `[{"id":"123","title":"t","kind":"pr"}]`)
	check(t, "map kind=num", `[5,null,[1]]`, `[{"value":5,"kind":"num"},{"value":null,"kind":"num"},{"value":[1],"kind":"num"}]`)
	check(t, "map --wrap w x={{a}} noeq =v", `[{"a":1}]`, `[{"w":{"a":1},"x":"1"}]`)
	check(t, "map all={{.}} 't={{ this }}' n={{name.length}}", `[{"name":"abc"}]`,
		`[{"name":"abc","all":"{\"name\":\"abc\"}","t":"{\"name\":\"abc\",\"all\":\"{\\\"name\\\":\\\"abc\\\"}\"}","n":"3"}]`) // assignments see the earlier ones: the item is changed in place
	checkErr(t, "map --wrap a --unwrap b", `[]`, "map cannot use both --wrap and --unwrap")
}

func TestTemplate(t *testing.T) {
	check(t, "template --text 'hi {{user.name}}'", `[{"user":{"name":"v"}}]`, `["hi v"]`)
	check(t, "template --text 'x={{missing}}'", `[{}]`, `["x="]`)
	check(t, "template --text '{{.}}'", `[{"a":1},"s",3]`, `["{\"a\":1}","s","3"]`)
	check(t, "template a '{{b}}'", `[{"b":2}]`, `["a 2"]`)
	tests := []struct{ tmpl, item, want string }{
		{`{{name | upper}}`, `{"name":"Ada"}`, `ADA`},
		{`{{name|lower}}`, `{"name":"Ada"}`, `ada`},
		{`[{{name | trim}}]`, `{"name":"  a "}`, `[a]`},
		{`{{s | truncate 5}}`, `{"s":"hello world"}`, `hello...`},
		{`{{s | truncate}}`, `{"s":"short"}`, `short`},
		{`{{s | replace "-" "_"}}`, `{"s":"a-b-c"}`, `a_b_c`},
		{`{{s | split "," | last}}`, `{"s":"a,b,c"}`, `c`},
		{`{{line | split "|" | first}}`, `{"line":"a|b"}`, `a`},
		{`{{xs | first}}/{{xs | last}}/{{e | first}}`, `{"xs":[1,2],"e":[]}`, `1/2/`},
		{`{{xs | length}} {{s | length}} {{n | length}}`, `{"xs":[1,2,3],"s":"ab","n":5}`, `3 2 0`},
		{`{{tags | join ", "}}|{{tags | join}}|{{s | join}}`, `{"tags":["a","b"],"s":"x"}`, `a, b|a, b|x`},
		{`{{o | json}}`, `{"o":{"a":1}}`, "{\n  \"a\": 1\n}"},
		{`{{n | string}}{{m | string}}`, `{"n":1}`, `1`},
		{`{{x | default "N/A"}} {{y | default "N/A"}} {{z | default "N/A"}}`, `{"y":"ok","z":""}`, `N/A ok N/A`},
		{`{{p | round 2}} {{p | round}} {{h | round 0}} {{s | round 1}}`, `{"p":3.14159,"h":2.5,"s":"x"}`, `3.14 3 3 x`},
		{`{{v | round 2}} {{i | round 2}} {{b | round 2}} {{e | round 2}} {{n | round}}`, `{"v":1.005,"i":42,"b":true,"e":"","n":-2.5}`, `1 42 1 0 -3`},
		{`{{s | upper}} {{s | lower}} {{g | lower}}`, `{"s":"straße İ ǅ","g":"ΟΔΟΣ ΣΑ"}`, "STRASSE İ Ǆ straße i\u0307 ǆ οδος σα"},
		{`{{t | date "YYYY-MM-DD"}}`, `{"t":1710000000000}`, `2024-03-09`},
		{`{{t | date}}`, `{"t":"1710000000000"}`, `2024-03-09T16:00:00.000Z`},
		{`{{t | date "DD/MM/YYYY HH:mm:ss"}}`, `{"t":"2024-03-09T16:00:05Z"}`, `09/03/2024 16:00:05`},
		{`{{t | date}}`, `{"t":"not a date"}`, `not a date`},
		{`{{ name | trim | upper }}`, `{"name":" a "}`, `A`},
		{`{{a}b}}`, `{"a":1}`, `{{a}b}}`},
		{`{{a | truncate -3}}|{{a | truncate 0x5}}|{{a | truncate -20}}|{{a | truncate " 4"}}`, `{"a":"hello world"}`, `hello wo...|...|...|hell...`},
		{`{{n | round 1.9}}|{{n | round 0x2}}`, `{"n":3.14159}`, `3.1|3`},
	}
	for _, tt := range tests {
		item, err := jsvalue.Parse([]byte(tt.item))
		if err != nil {
			t.Fatal(err)
		}
		got, err := RenderTemplate(tt.tmpl, item)
		if err != nil || got != tt.want {
			t.Errorf("RenderTemplate(%q, %s) = %q, %v; want %q", tt.tmpl, tt.item, got, err, tt.want)
		}
	}
	if _, err := RenderTemplate("{{a | shout}}", jsvalue.NewObject()); err == nil || err.Error() != "Unknown template filter: shout" {
		t.Errorf("unknown filter: %v", err)
	}
	checkErr(t, "template", `[]`, "template requires --text or --file (or positional text)")
	checkErr(t, "template --text '{{a | nope}}'", `[1]`, "Unknown template filter: nope")
}

func TestTemplateFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.txt"), []byte("Dear {{name}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &Env{Mode: Human, StateDir: t.TempDir(), Dir: dir}
	items, _, err := runEnv(t, env, "template --file t.txt", parseItems(t, `[{"name":"Ada"}]`)...)
	if err != nil || compact(items) != `["Dear Ada"]` {
		t.Errorf("template --file: %v %v", compact(items), err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	for file, want := range map[string]string{
		"none.txt": "ENOENT: no such file or directory, open 'none.txt'",
		"sub":      "EISDIR: illegal operation on a directory, read",
	} {
		if _, _, err := runEnv(t, env, "template --file "+file, parseItems(t, `[1]`)...); err == nil || err.Error() != want {
			t.Errorf("template --file %s: %v", file, err)
		}
	}
}

func TestRenderers(t *testing.T) {
	_, out, err := run(t, "json", parseItems(t, `[{"a":"<&>"},1e21,1e-7]`)...)
	if want := "[\n  {\n    \"a\": \"<&>\"\n  },\n  1e+21,\n  1e-7\n]\n"; err != nil || out != want {
		t.Errorf("json wrote %q, %v; want %q", out, err, want)
	}
	_, out, _ = run(t, "json")
	if out != "[]\n" {
		t.Errorf("json of nothing wrote %q", out)
	}
	_, out, _ = run(t, "table", parseItems(t, `[{"id":1,"name":"Ada"},{"id":22,"tags":["x"],"note":"a\nb"}]`)...)
	want := "id   name  tags   note\n" +
		"---  ----  -----  ----\n" +
		"1    Ada              \n" +
		"22         [\"x\"]  a b \n"
	if out != want {
		t.Errorf("table wrote\n%s\nwant\n%s", out, want)
	}
	_, out, _ = run(t, "table", parseItems(t, `[1,"two",null]`)...)
	if out != "1\ntwo\n\n" {
		t.Errorf("table of scalars wrote %q", out)
	}
	_, out, _ = run(t, "table")
	if out != "(no results)\n" {
		t.Errorf("empty table wrote %q", out)
	}
}

func TestState(t *testing.T) {
	env := &Env{Mode: Human, StateDir: t.TempDir()}
	items, _, err := runEnv(t, env, "state.set demo-key", parseItems(t, `[{"a":1}]`)...)
	if err != nil || compact(items) != `[{"a":1}]` {
		t.Fatalf("state.set: %s %v", compact(items), err)
	}
	data, _ := os.ReadFile(filepath.Join(env.StateDir, "demo-key.json"))
	if string(data) != "{\n  \"a\": 1\n}\n" {
		t.Errorf("state file %q", data)
	}
	items, _, err = runEnv(t, env, "state.get demo-key", parseItems(t, `[99]`)...)
	if err != nil || compact(items) != `[{"a":1}]` {
		t.Errorf("state.get: %s %v", compact(items), err)
	}
	items, _, _ = runEnv(t, env, "state.get missing")
	if compact(items) != `[null]` {
		t.Errorf("state.get missing: %s", compact(items))
	}
	runEnv(t, env, "state.set many", parseItems(t, `[1,2]`)...)
	items, _, _ = runEnv(t, env, "state.get many")
	if compact(items) != `[[1,2]]` {
		t.Errorf("state.set of two items: %s", compact(items))
	}
	for _, text := range []string{"state.get ___", "state.set _"} {
		if _, _, err := runEnv(t, env, text); err == nil || err.Error() != "state key is empty/invalid" {
			t.Errorf("%s: %v", text, err)
		}
	}
	os.WriteFile(filepath.Join(env.StateDir, "bad.json"), []byte("{nope"), 0o600)
	if _, _, err := runEnv(t, env, "state.get bad"); err == nil || err.Error() != "Expected property name or '}' in JSON at position 1" {
		t.Errorf("state.get of a corrupt file: %v", err)
	}

	diff := func(input string) string {
		items, _, err := runEnv(t, env, "diff.last --key k", parseItems(t, input)...)
		if err != nil {
			t.Fatal(err)
		}
		return compact(items)
	}
	if got := diff(`[{"a":1,"b":2}]`); got != `[{"kind":"diff.last","key":"k","changed":true,"before":null,"after":{"a":1,"b":2}}]` {
		t.Errorf("first diff: %s", got)
	}
	if got := diff(`[{"b":2,"a":1}]`); got != `[{"kind":"diff.last","key":"k","changed":false,"before":{"a":1,"b":2},"after":{"b":2,"a":1}}]` {
		t.Errorf("same diff: %s", got)
	}
	if got := diff(`[{"a":2}]`); !strings.Contains(got, `"changed":true`) {
		t.Errorf("changed diff: %s", got)
	}
	os.WriteFile(filepath.Join(env.StateDir, "k.json"), []byte("{corrupt"), 0o600)
	if got := diff(`[]`); got != `[{"kind":"diff.last","key":"k","changed":true,"before":null,"after":[]}]` {
		t.Errorf("diff over a corrupt snapshot: %s", got)
	}
	if _, _, err := runEnv(t, env, "diff.last"); err == nil || err.Error() != "diff.last requires --key" {
		t.Errorf("diff.last without key: %v", err)
	}
}

func TestCanonical(t *testing.T) {
	v, _ := jsvalue.Parse([]byte(`{"b":{"d":1,"c":[{"z":1,"y":2}]},"a":1,"10":0,"2":0}`))
	if got, want := Canonical(v), `{"2":0,"10":0,"a":1,"b":{"c":[{"y":2,"z":1}],"d":1}}`; got != want {
		t.Errorf("Canonical = %s, want %s", got, want)
	}
}

func TestExec(t *testing.T) {
	check(t, "exec --shell \"printf 'a\\n\\nb\\r\\nc'\"", `[]`, `["a","b","c"]`)
	check(t, "exec --json --shell 'echo [1,2]'", `[]`, `[1,2]`)
	check(t, "exec --json --shell 'echo 42'", `[]`, `[42]`)
	check(t, "exec --json --shell true", `[]`, `[null]`)
	check(t, "exec echo '$HOME' 'a  b'", `[]`, `["$HOME a  b"]`)
	check(t, "exec 'echo hi | tr a-z A-Z'", `[]`, `["HI"]`)
	check(t, "exec --shell echo hi", `[]`, `[]`)  // the shell line is "echo"
	check(t, "exec --json echo [3]", `[]`, `[3]`) // --json takes no value
	check(t, "exec --stdin jsonl cat", `[{"a":1},{"a":2}]`, `["{\"a\":1}","{\"a\":2}"]`)
	check(t, "exec --stdin json cat", `[{"a":1},2]`, `["[{\"a\":1},2]"]`)
	check(t, "exec --stdin RAW --shell 'cat; echo; echo end'", `["x",{"y":1}]`, `["x","{\"y\":1}","end"]`)
	check(t, "exec --shell 'cat; echo end'", `["ignored"]`, `["end"]`)

	checkErr(t, "exec", `[]`, "exec requires a command")
	checkErr(t, "exec --shell", `[]`, "exec requires a command")
	checkErr(t, "exec --stdin xml cat", `[]`, "exec --stdin must be raw, json, or jsonl (got xml)")
	checkErr(t, "exec --shell 'echo out; echo err >&2; exit 3'", `[]`, "exec failed (3): err")
	checkErr(t, "exec --shell 'echo out; exit 4'", `[]`, "exec failed (4): out")
	checkErr(t, "exec false", `[]`, "exec failed (1): false")
	checkErr(t, "exec --shell 'kill -9 $$'", `[]`, "exec failed (null): kill -9 $$")
	checkErr(t, "exec no-such-program-xyz", `[]`, "exec command not found: no-such-program-xyz")

	env := &Env{Mode: Human, Environ: append(os.Environ(), "LOBSTER_SHELL=/no/such/shell")}
	if _, _, err := runEnv(t, env, "exec --shell true"); err == nil || err.Error() != "exec shell not found; check LOBSTER_SHELL or ComSpec" {
		t.Errorf("missing shell: %v", err)
	}
	// The program name is not given to a shell: ";" stays part of it.
	if _, _, err := run(t, "exec 'true;touch' injected"); err == nil || err.Error() != "exec command not found: true;touch" {
		t.Errorf("a program name with ;: %v", err)
	}
}

func TestApprove(t *testing.T) {
	items, _, err := run(t, "approve --prompt Go?", parseItems(t, `[1,2]`)...)
	if err != nil || compact(items) != `[{"type":"approval_request","prompt":"Go?","items":[1,2]}]` {
		t.Errorf("approve without a terminal: %s %v", compact(items), err)
	}
	check(t, "approve --emit --preview-from-stdin --limit 1", `[{"a":1},{"a":2}]`,
		`[{"type":"approval_request","prompt":"Approve?","items":[{"a":1},{"a":2}],"preview":"[\n  {\n    \"a\": 1\n  }\n]"}]`)
	check(t, "approve --previewFromStdin --limit 2", `["x","y","z"]`,
		`[{"type":"approval_request","prompt":"Approve?","items":["x","y","z"],"preview":"x\ny"}]`)
	check(t, "approve --preview-from-stdin --limit 0", `["x"]`, `[{"type":"approval_request","prompt":"Approve?","items":["x"]}]`)

	// Later stages do not run after a halt.
	items, _, err = run(t, "approve | exec false", parseItems(t, `[1]`)...)
	if err != nil || len(items) != 1 {
		t.Errorf("approve | exec false: %s %v", compact(items), err)
	}

	// Interactive: yes passes the items, anything else fails.
	for answer, want := range map[string]string{"y\n": `[1]`, " YES \n": `[1]`, "n\n": "Not approved", "": "Not approved"} {
		env := &Env{Mode: Human, Interactive: true, Stdin: strings.NewReader(answer)}
		items, out, err := runEnv(t, env, "approve --prompt 'Send?'", parseItems(t, `[1]`)...)
		got := compact(items)
		if err != nil {
			got = err.Error()
		}
		if got != want || out != "Send? [y/N] " {
			t.Errorf("answer %q: %s, wrote %q", answer, got, out)
		}
	}
}

func TestFinalize(t *testing.T) {
	dir := t.TempDir()
	env := &Env{Mode: Tool, StateDir: dir}
	text := "exec --json --shell 'echo [1]' | approve --prompt 'send?' | pick a"
	p := parser.ParsePipelineText(text)
	stages := StagesOf(p.Stages, text)
	res, err := Run(context.Background(), stages, nil, env)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Finalize(context.Background(), stages, res, env, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "needs_approval" || r.RequiresApproval == nil {
		t.Fatalf("status %s", r.Status)
	}
	id, _ := r.RequiresApproval.Get("approvalId")
	tok, _ := r.RequiresApproval.Get("resumeToken")
	if s, _ := id.(string); len(s) != 8 {
		t.Errorf("approvalId %v", id)
	}
	if s, _ := tok.(string); s == "" {
		t.Errorf("resumeToken %v", tok)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "pipeline_resume_*.json"))
	if len(matches) != 1 {
		t.Fatalf("state files %v", matches)
	}
	data, _ := os.ReadFile(matches[0])
	saved, err := jsvalue.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	o := saved.(*jsvalue.Object)
	if at, _ := o.Get("resumeAtIndex"); at != 2.0 {
		t.Errorf("resumeAtIndex %v", at)
	}
	pl, _ := o.Get("pipeline")
	if got := compact(pl); !strings.Contains(got, `{"name":"pick","args":{"_":["a"]},"raw":"pick a"}`) ||
		!strings.Contains(got, `"args":{"_":[],"json":true,"shell":"echo [1]"}`) {
		t.Errorf("saved pipeline %s", got)
	}

	// A run that did not halt is ok with its items.
	r, _ = Finalize(context.Background(), stages, Result{Items: []any{1.0}}, env, time.Now())
	if r.Status != "ok" || compact(r.Output) != "[1]" {
		t.Errorf("ok run: %s %s", r.Status, compact(r.Output))
	}
}

func TestUnknownCommandRunsEarlierStages(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	_, _, err := run(t, "exec touch "+marker+" | nosuch | exec touch "+marker+"2")
	var unknown *UnknownCommandError
	if !errors.As(err, &unknown) || err.Error() != "Unknown command: nosuch" {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("the stage before the unknown command did not run")
	}
	if _, err := os.Stat(marker + "2"); err == nil {
		t.Error("the stage after the unknown command ran")
	}
	if err := DryRun(StagesOf(parser.ParsePipelineText("exec x | nosuch").Stages, ""), &bytes.Buffer{}); err == nil {
		t.Error("DryRun accepted an unknown command")
	}
}

func TestNotYetSupported(t *testing.T) {
	for _, name := range NotYetSupported {
		_, _, err := run(t, name)
		if want := name + " is not supported by this version of lobster yet"; err == nil || err.Error() != want {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, err := notYetSupported(context.Background(), &Call{Name: "x.y"})
	if err == nil || err.Error() != "x.y is not supported by this version of lobster yet" {
		t.Errorf("notYetSupported: %v", err)
	}
}

func TestDryRun(t *testing.T) {
	text := `exec --json --shell "echo [1,2,3]" | where active=true | table`
	var b bytes.Buffer
	if err := DryRun(StagesOf(parser.ParsePipelineText(text).Stages, text), &b); err != nil {
		t.Fatal(err)
	}
	want := "[DRY RUN] Pipeline (3 stages):\n  1. exec  args: json=true, shell=echo [1,2,3]\n  2. where  args: active=true\n  3. table\n"
	if b.String() != want {
		t.Errorf("dry run:\n%s\nwant\n%s", b.String(), want)
	}
}

// counter is a test source: a lazy stream of n numbers that counts how many
// were produced and records when it was closed.
func counter(n int, produced *atomic.Int64, closed chan<- struct{}) *Stream {
	return lazy(context.Background(), func(ctx context.Context, yield func(any) error) error {
		defer close(closed)
		for i := 0; i < n; i++ {
			produced.Add(1)
			if err := yield(float64(i)); err != nil {
				return err
			}
		}
		return nil
	}, nil)
}

func TestStreamingStopsUpstream(t *testing.T) {
	var produced atomic.Int64
	closed := make(chan struct{})
	src := counter(1_000_000, &produced, closed)
	out, err := headCommand(context.Background(), &Call{Name: "head", Args: NewArgs(nil, "n", "3"), Input: src, Env: &Env{}})
	if err != nil {
		t.Fatal(err)
	}
	s := lazy(context.Background(), out.Lazy, src)
	items, err := s.Drain(context.Background())
	s.Close()
	if err != nil || compact(items) != "[0,1,2]" {
		t.Fatalf("head: %s %v", compact(items), err)
	}
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the upstream producer was not stopped")
	}
	if n := produced.Load(); n > 5 {
		t.Errorf("the upstream produced %d items for head --n 3: not lazy", n)
	}
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	p := parser.ParsePipelineText("exec --shell 'sleep 30' | json")
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := Run(ctx, StagesOf(p.Stages, ""), nil, &Env{Mode: Human, Stdout: &bytes.Buffer{}})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	cancel(errors.New("Received SIGINT"))
	select {
	case err := <-done:
		if err == nil || err.Error() != "Received SIGINT" {
			t.Errorf("error %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancellation did not stop the run")
	}
	if time.Since(start) > 5*time.Second {
		t.Error("slow cancellation")
	}
	// A cancelled context starts nothing.
	marker := filepath.Join(t.TempDir(), "x")
	p = parser.ParsePipelineText("exec touch " + marker)
	Run(ctx, StagesOf(p.Stages, ""), nil, &Env{Mode: Human})
	if _, err := os.Stat(marker); err == nil {
		t.Error("a cancelled run started a process")
	}
}

func TestPanicIsAnError(t *testing.T) {
	_, err := runCommand(context.Background(), func(context.Context, *Call) (Output, error) { panic("boom") }, &Call{Name: "x"})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("panic: %v", err)
	}
}
