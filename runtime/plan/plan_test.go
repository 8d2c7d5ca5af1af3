package plan_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/plan"
)

var update = flag.Bool("update", os.Getenv("LOBSTER_UPDATE") != "", "rewrite the text and json sections of testdata/plan/*.txtar (review the diff)")

// TestGolden checks Text and the JSON form against testdata/plan/*.txtar.
// These are our own formats: -update rewrites them, and the diff must be
// reviewed. Each case plans w.lobster (with args.json) among its files.
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/plan/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden cases (%v)", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{}
			for _, f := range ar.Files {
				files[f.Name] = string(f.Data)
			}
			p := buildInMemory(t, files)
			var js bytes.Buffer
			enc := json.NewEncoder(&js)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(p); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{"text": p.Text(), "json": js.String()}
			if *update {
				for name, data := range got {
					found := false
					for i := range ar.Files {
						if ar.Files[i].Name == name {
							ar.Files[i].Data, found = []byte(data), true
						}
					}
					if !found {
						ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
					}
				}
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range []string{"text", "json"} {
				want, ok := files[name]
				if !ok {
					t.Errorf("no %q section (run with -update, then review)", name)
					continue
				}
				if got[name] != want {
					t.Errorf("%s (-want +got):\n%s", name, diff.Diff("want", []byte(want), "got", []byte(got[name])))
				}
			}
		})
	}
}

// buildInMemory plans w.lobster of files, reading composed workflows from
// files too, as if they were in the directory /case (which must not exist).
func buildInMemory(t *testing.T, files map[string]string) *plan.Plan {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	var args any
	if a, ok := files["args.json"]; ok {
		v, err := jsvalue.Parse([]byte(a))
		if err != nil {
			t.Fatalf("args.json: %v", err)
		}
		args = v
	}
	f, _ := parser.Parse("/case/w.lobster", []byte(files["w.lobster"]))
	p, err := plan.Build(f, plan.Options{Args: args, Path: "/case/w.lobster", ReadFile: func(path string) ([]byte, error) {
		name, ok := strings.CutPrefix(filepath.ToSlash(path), "/case/")
		if !ok {
			return nil, fs.ErrNotExist
		}
		return fs.ReadFile(fsys, name)
	}})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return p
}

func parse(t *testing.T, src string) *plan.Plan {
	t.Helper()
	return parseAt(t, "w.lobster", src)
}

func parseAt(t *testing.T, path, src string) *plan.Plan {
	t.Helper()
	f, _ := parser.Parse(path, []byte(src))
	p, err := plan.Build(f, plan.Options{Path: path})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return p
}

func TestBuildFacts(t *testing.T) {
	tests := []struct {
		name string
		src  string
		args string
		test func(t *testing.T, p *plan.Plan)
	}{
		{
			name: "args substituted in command, env and cwd; references kept",
			src: `args: {who: {default: world}}
env: {G: "hi ${who}"}
steps:
  - id: a
    run: echo ${who} $b.json ${nope}
    env: {X: "${who}-$a.stdout", N: 3}
    cwd: /tmp/${who}`,
			args: `{"who": "you"}`,
			test: func(t *testing.T, p *plan.Plan) {
				st := p.Steps[0]
				eq(t, "command", st.Command, "echo you $b.json ${nope}")
				eq(t, "workflow env", p.Env[0].Value, "hi you")
				eq(t, "env count (non-strings dropped)", len(st.Env), 1)
				eq(t, "env", st.Env[0].Value, "you-$a.stdout")
				eq(t, "cwd", st.Cwd, "/tmp/you")
				eq(t, "args", string(p.Args), `{"who":"you"}`)
			},
		},
		{
			name: "kinds in the reference's order",
			src: `steps:
  - {id: a, run: x}
  - {id: b, command: "  "}
  - {id: c, approval: true}
  - {id: d, pipeline: json}
  - {id: e, workflow: x.lobster}
  - {id: f, parallel: {branches: [{id: g, pipeline: json}, {id: h, run: x}]}}
  - {id: i, for_each: $a.json, steps: [{id: j, run: x}]}
  - {id: k, input: {prompt: p, responseSchema: {}}}`,
			test: func(t *testing.T, p *plan.Plan) {
				want := []plan.Kind{plan.Shell, plan.None, plan.None, plan.Pipeline, plan.Workflow, plan.Parallel, plan.ForEach, plan.Input}
				for i, k := range want {
					eq(t, p.Steps[i].ID, p.Steps[i].Kind, k)
				}
				eq(t, "branch g", p.Steps[5].Parallel.Branches[0].Kind, plan.Pipeline)
				eq(t, "branch h", p.Steps[5].Parallel.Branches[1].Kind, plan.Shell)
				eq(t, "sub-step j", p.Steps[6].Loop.Steps[0].Kind, plan.Shell)
				eq(t, "approval prompt", p.Steps[2].Approval.Prompt, "Approve c?")
			},
		},
		{
			name: "conditions on placeholders",
			src: `steps:
  - {id: gate, approval: required}
  - {id: ask, input: {prompt: p, responseSchema: {}}}
  - {id: a, run: x, when: "$gate.approved"}
  - {id: b, run: x, when: "$a.json.ok"}
  - {id: c, run: x, condition: "$ask.response.pending == true"}
  - {id: d, run: x, when: false, condition: true}`,
			test: func(t *testing.T, p *plan.Plan) {
				// b reads output: decided at run time, not skipped,
				// though false against the placeholders.
				for i, skipped := range []bool{false, false, false, false, false, true} {
					eq(t, p.Steps[i].ID+" skipped", p.Steps[i].Skipped, skipped)
				}
				for i, runtime := range []bool{false, false, false, true, true, false} {
					if w := p.Steps[i].When; w != nil {
						eq(t, p.Steps[i].ID+" runtime", w.Runtime, runtime)
					}
				}
				eq(t, "b's plan-time value", p.Steps[3].When.Value, false)
				eq(t, "field", p.Steps[4].When.Field, "condition")
				eq(t, "when wins", p.Steps[5].When.Field, "when")
				eq(t, "no errors", len(p.Errors), 0)
			},
		},
		{
			name: "retry defaults and policies",
			src: `steps:
  - {id: a, run: x, retry: {max: 3}, timeout_ms: 50, on_error: continue}`,
			test: func(t *testing.T, p *plan.Plan) {
				r := p.Steps[0].Retry
				eq(t, "retry", *r, plan.Retry{Max: 3, Backoff: "fixed", DelayMs: 1000, MaxDelayMs: 30000})
				eq(t, "timeout", p.Steps[0].TimeoutMs, 50.0)
				eq(t, "on_error", p.Steps[0].OnError, "continue")
			},
		},
		{
			name: "approval forms",
			src: `steps:
  - {id: a, run: x, approval: false}
  - {id: b, run: x, approval: "  "}
  - {id: c, run: x, approval: "Ship it?"}
  - {id: d, run: x, approval: {prompt: P, required_approver: r, requiredApprover: R, require_different_approver: true}}`,
			test: func(t *testing.T, p *plan.Plan) {
				if p.Steps[0].Approval != nil || p.Steps[1].Approval != nil {
					t.Error("false and a blank string are no gate")
				}
				eq(t, "prompt", p.Steps[2].Approval.Prompt, "Ship it?")
				eq(t, "mapping", *p.Steps[3].Approval, plan.Approval{Prompt: "P", RequiredApprover: "R", RequireDifferentApprover: true})
			},
		},
		{
			name: "problems are recorded with positions and the rest is planned",
			src: `steps:
  - id: a
    run: x
    stdin: $nope.json
  - id: b
    pipeline: json | nosuch
  - id: c
    run: x`,
			test: func(t *testing.T, p *plan.Plan) {
				eq(t, "steps", len(p.Steps), 3)
				eq(t, "errors", len(p.Errors), 2)
				eq(t, "first", p.Errors[0].Msg, "Workflow step a stdin: Unknown step reference: nope.json")
				eq(t, "first line", p.Errors[0].Pos.Line, 4)
				eq(t, "first col", p.Errors[0].Pos.Col, 12)
				eq(t, "second", p.Errors[1].Msg, "Workflow step b pipeline references unknown command: nosuch")
				eq(t, "second col", p.Errors[1].Pos.Col, 22)
				_, err := p.DryRun()
				var pe *plan.Error
				if !errors.As(err, &pe) || pe != p.Errors[0] {
					t.Errorf("DryRun error = %v, want the first problem", err)
				}
			},
		},
		{
			name: "a skipped step is described but not checked",
			src: `steps:
  - {id: a, run: x, when: false, stdin: $nope.json}`,
			test: func(t *testing.T, p *plan.Plan) {
				eq(t, "errors", len(p.Errors), 0)
				eq(t, "command", p.Steps[0].Command, "x")
				eq(t, "stdin ref", p.Steps[0].Stdin.Ref, true)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := parser.Parse("w.lobster", []byte(tt.src))
			var args any
			if tt.args != "" {
				args, _ = jsvalue.Parse([]byte(tt.args))
			}
			p, err := plan.Build(f, plan.Options{Args: args, Path: "w.lobster"})
			if err != nil {
				t.Fatal(err)
			}
			tt.test(t, p)
		})
	}
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestChildren(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	parent := write("parent.lobster", `args: {env: {default: prod}}
steps:
  - id: sub
    workflow: sub/child-${env}.lobster
    workflow_args: {target: "${env}", n: 2}
  - id: loop
    workflow: parent.lobster
  - id: missing
    workflow: nope.lobster
  - id: dynamic
    workflow: $sub.stdout
`)
	write("sub/child-prod.lobster", `args: {target: {default: dev}, n: {default: 1}}
steps:
  - id: deploy
    run: deploy ${target} ${n}
  - id: back
    workflow: ../parent.lobster
`)
	src, _ := os.ReadFile(parent)
	f, _ := parser.Parse(parent, src)
	p, err := plan.Build(f, plan.Options{Path: parent})
	if err != nil {
		t.Fatal(err)
	}
	sub := p.Steps[0].Workflow
	if sub.Plan == nil {
		t.Fatalf("child not planned: %s", sub.Error)
	}
	eq(t, "child file", sub.File, filepath.Join(dir, "sub/child-prod.lobster"))
	eq(t, "child args", string(sub.Args), `{"target":"prod","n":2}`)
	eq(t, "child command", sub.Plan.Steps[0].Command, "deploy prod 2")
	back := sub.Plan.Steps[1].Workflow
	if back.Plan != nil || !strings.Contains(back.Error, "creates a cycle") {
		t.Errorf("indirect cycle: plan %v, error %q", back.Plan != nil, back.Error)
	}
	self := p.Steps[1].Workflow
	if self.Plan != nil || !strings.Contains(self.Error, "creates a cycle") {
		t.Errorf("direct cycle: plan %v, error %q", self.Plan != nil, self.Error)
	}
	eq(t, "missing", p.Steps[2].Workflow.Error, "Workflow step missing workflow file not found: "+filepath.Join(dir, "nope.lobster"))
	eq(t, "dynamic", p.Steps[3].Workflow.Error, "the path depends on step output")
	// The dry-run does not load children: it works all the same.
	if _, err := p.DryRun(); err != nil {
		t.Errorf("DryRun: %v", err)
	}
}

func TestDiff(t *testing.T) {
	old := parse(t, "steps:\n  - {id: a, run: echo one}\n  - {id: b, run: echo two}\n")
	same := parseAt(t, "other.lobster", "steps:\n  - id: a\n    run: echo one\n  - id: b\n    run: echo two\n")
	changed := parseAt(t, "new.lobster", "steps:\n  - {id: a, run: echo one}\n  - {id: b, run: echo 2, when: false}\n")
	eq(t, "same plans in other files", plan.Diff(old, same), "")
	want := `--- w.lobster
+++ new.lobster
@@ -1,4 +1,5 @@
 1. a [shell]
    run: echo one
-2. b [shell]
-   run: echo two
+2. b [shell] skipped
+   when: false (false at plan time)
+   run: echo 2
`
	if got := plan.Diff(old, changed); got != want {
		t.Errorf("Diff:\n%s\nwant:\n%s", got, want)
	}
	eq(t, "nil plan", plan.Diff(nil, old), "")
}

// TestNoPanic plans every golden input of the repository, which include
// malformed files: Build must return a plan or an error, and every
// rendering must work, never panic.
func TestNoPanic(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/golden/*.txtar")
	more, _ := filepath.Glob("../../examples/*")
	if len(paths) == 0 || len(more) == 0 {
		t.Fatalf("no inputs: %d golden cases, %d examples", len(paths), len(more))
	}
	for _, path := range append(paths, more...) {
		var src []byte
		name := "input.lobster"
		if strings.HasSuffix(path, ".txtar") {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				if strings.HasPrefix(f.Name, "input") {
					src, name = f.Data, f.Name
				}
			}
		} else {
			src, _ = os.ReadFile(path)
			name = path
		}
		f, _ := parser.Parse(name, src)
		p, err := plan.Build(f, plan.Options{Path: name, ReadFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }})
		if err != nil {
			continue
		}
		p.Text()
		p.DryRun()
		for _, format := range plan.GraphFormats {
			if _, err := p.Graph(format); err != nil {
				t.Errorf("%s: Graph(%s): %v", path, format, err)
			}
		}
		if _, err := json.Marshal(p); err != nil {
			t.Errorf("%s: json: %v", path, err)
		}
	}
}

func TestGraphFormat(t *testing.T) {
	p := parse(t, "steps:\n  - {id: a, run: x}\n")
	if _, err := p.Graph("svg"); err == nil || err.Error() != "graph --format must be one of: mermaid, dot, ascii" {
		t.Errorf("Graph(svg) error = %v", err)
	}
}

// TestChildContainment: a child path built from args is held to the run's
// rule (engine.ChildContained) before the file is read, so that plan,
// graph and the dry-run never read or show a file a run would refuse; a
// path written literally may go anywhere, as in a run.
func TestChildContainment(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("flows/parent.lobster", "args: {flow: {default: child}}\nsteps:\n  - id: sub\n    workflow: ./${flow}.lobster\n")
	write("flows/any.lobster", "args: {path: {default: child.lobster}}\nsteps:\n  - id: sub\n    workflow: ${path}\n")
	write("flows/literal.lobster", "steps:\n  - id: sub\n    workflow: ../outside.lobster\n")
	write("flows/child.lobster", "steps:\n  - id: hi\n    run: echo inside\n")
	write("flows/nested/keep", "")
	write("outside.lobster", "steps:\n  - id: out\n    run: echo SECRET\n")
	outside := filepath.Join(dir, "outside.lobster")
	if err := os.Symlink("../outside.lobster", filepath.Join(dir, "flows/link.lobster")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		file, args string
		refused    bool
	}{
		{"parent", `{}`, false},
		{"parent", `{"flow":"nested/../child"}`, false},
		{"parent", `{"flow":"../outside"}`, true},
		{"parent", `{"flow":"link"}`, true},       // inside by name, outside by its link
		{"parent", `{"flow":"../missing"}`, true}, // refused before it is looked for
		{"any", `{"path":"` + outside + `"}`, true},
		{"literal", `{}`, false},
	} {
		path := filepath.Join(dir, "flows", tt.file+".lobster")
		src, _ := os.ReadFile(path)
		f, _ := parser.Parse(path, src)
		args, err := jsvalue.Parse([]byte(tt.args))
		if err != nil {
			t.Fatal(err)
		}
		var read []string
		p, err := plan.Build(f, plan.Options{Path: path, Args: args, ReadFile: func(name string) ([]byte, error) {
			read = append(read, name)
			return parser.ReadFile(name)
		}})
		if err != nil {
			t.Fatalf("%s %s: %v", tt.file, tt.args, err)
		}
		c := p.Steps[0].Workflow
		texts := []string{p.Text()}
		for _, format := range plan.GraphFormats {
			g, err := p.Graph(format)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, g)
		}
		shown := strings.Contains(strings.Join(texts, "\n"), "SECRET")
		if !tt.refused {
			if c.Plan == nil {
				t.Errorf("%s %s: not planned: %s", tt.file, tt.args, c.Error)
			}
			continue
		}
		want := `Workflow step sub: the workflow path "` + strText(t, f) + `" leads to `
		if c.Plan != nil || !strings.HasPrefix(c.Error, want) || !strings.Contains(c.Error, "(the calling file's directory)") {
			t.Errorf("%s %s: planned %v, error %q; want it refused", tt.file, tt.args, c.Plan != nil, c.Error)
		}
		if len(read) > 0 || shown {
			t.Errorf("%s %s: read %v, shown %v; want nothing read or shown", tt.file, tt.args, read, shown)
		}
		if !strings.Contains(p.Text(), "not planned: "+c.Error) {
			t.Errorf("%s %s: the text does not say why:\n%s", tt.file, tt.args, p.Text())
		}
	}
}

// strText is the workflow: path of f's first step, as written.
func strText(t *testing.T, f *ast.File) string {
	t.Helper()
	list, _ := f.Workflow.Steps.Value.(*ast.StepList)
	return ast.ScalarOf(list.Steps()[0].Workflow.Value).Text
}
