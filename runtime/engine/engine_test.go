package engine

import (
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/render"
)

func parse(t *testing.T, src string) *ast.Workflow {
	t.Helper()
	f, diags := parser.Parse("w.lobster", []byte(src))
	for _, d := range diags {
		if d.Severity.String() == "error" {
			t.Fatalf("parse: %v", d)
		}
	}
	return f.Workflow
}

const workflow = `
args:
  name: {default: world}
  count: {default: 3}
  nothing: {default: null}
  nodefault: {description: no value}
  list: {default: [1, a, {k: v}]}
  my-arg: {default: dash}
  my_arg: {default: underscore}
env:
  GREETING: "hello ${name}"
  FROM_STEP: "$fetch.json.id"
  NUMBER: 5
  LITERAL: "$LOBSTER_ARG_NAME"
steps:
  - id: fetch
    run: echo '{"id":7}'
    env:
      GREETING: "step ${name} $fetch.stdout"
      ONLY_STEP: x
`

func TestResolveArgs(t *testing.T) {
	w := parse(t, workflow)
	provided, _ := jsvalue.Parse([]byte(`{"count": 4, "extra": true}`))
	args := ResolveArgs(w, provided)
	if got, want := jsvalue.Stringify(args, ""), `{"name":"world","count":4,"nothing":null,"list":[1,"a",{"k":"v"}],"my-arg":"dash","my_arg":"underscore","extra":true}`; got != want {
		t.Errorf("args = %s\nwant %s", got, want)
	}
	for _, tt := range []struct{ provided, want string }{
		{`["x","y"]`, `"0":"x","1":"y"`},
		{`"ab"`, `"0":"a","1":"b"`},
		{`null`, `"name":"world"`},
		{`5`, `"name":"world"`},
	} {
		v, _ := jsvalue.Parse([]byte(tt.provided))
		if got := jsvalue.Stringify(ResolveArgs(w, v), ""); !strings.Contains(got, tt.want) {
			t.Errorf("provided %s: args %s, want them to contain %s", tt.provided, got, tt.want)
		}
	}
}

func TestEnvLayers(t *testing.T) {
	w := parse(t, workflow)
	args := ResolveArgs(w, nil)
	step := w.Steps.Value.(*ast.StepList).Steps()[0]
	results := render.Results{"fetch": jsvalue.Obj("id", "fetch", "stdout", "{\"id\":7}\n", "json", jsvalue.Obj("id", 7.0))}
	env := Env(BaseEnv([]string{"PATH=/bin", "GREETING=process", "LOBSTER_ARG_NAME=stale"}, args), args, results, w.Env, step.Env)
	want := map[string]string{
		"PATH":                "/bin",
		"GREETING":            "step world {\"id\":7}\n",
		"FROM_STEP":           "7",
		"LITERAL":             "$LOBSTER_ARG_NAME", // not shell-expanded
		"ONLY_STEP":           "x",
		"LOBSTER_ARG_NAME":    "world",
		"LOBSTER_ARG_COUNT":   "3",
		"LOBSTER_ARG_NOTHING": "null",
		"LOBSTER_ARG_LIST":    "1,a,[object Object]",
		"LOBSTER_ARG_MY_ARG":  "underscore", // the later key wins a collision
		"LOBSTER_ARGS_JSON":   `{"name":"world","count":3,"nothing":null,"list":[1,"a",{"k":"v"}],"my-arg":"dash","my_arg":"underscore"}`,
	}
	for name, value := range want {
		if got := Getenv(env, name); got != value {
			t.Errorf("%s = %q, want %q", name, got, value)
		}
	}
	if Getenv(env, "NUMBER") != "" || Getenv(env, "LOBSTER_ARG_NODEFAULT") != "" {
		t.Error("a non-string env value or an arg without a value reached the environment")
	}
	seen := map[string]bool{}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if seen[name] {
			t.Errorf("%s set twice", name)
		}
		seen[name] = true
	}
	// Before fetch has run, its reference stays as written.
	if got := Getenv(Env(BaseEnv(nil, args), args, render.Results{}, w.Env), "FROM_STEP"); got != "$fetch.json.id" {
		t.Errorf("FROM_STEP before fetch ran = %q", got)
	}
}

func TestValue(t *testing.T) {
	w := parse(t, `
steps:
  - id: a
    run: "true"
    stdin: {k: [1, 2.5, "s", null, true], base: &b {x: 1}, ref: *b, dup: 1}
`)
	step := w.Steps.Value.(*ast.StepList).Steps()[0]
	if got, want := jsvalue.Stringify(Value(step.Stdin.Value), ""), `{"k":[1,2.5,"s",null,true],"base":{"x":1},"ref":{"x":1},"dup":1}`; got != want {
		t.Errorf("Value = %s, want %s", got, want)
	}
}

func TestIsYes(t *testing.T) {
	for answer, want := range map[string]bool{"y": true, "Y": true, "yes": true, "YeS": true, "": false, "ye": false, "yess": false, "no": false, "yeſ": false, "n": false} {
		if got := isYes(answer); got != want {
			t.Errorf("isYes(%q) = %v, want %v", answer, got, want)
		}
	}
}
