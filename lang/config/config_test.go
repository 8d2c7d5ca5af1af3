package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// dump is "line:col severity code: message" of each diagnostic.
func dump(diags []source.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Range.Start.String() + " " + d.Severity.String() + " " + d.Code + ": " + d.Message + "\n")
	}
	return b.String()
}

const example = `rules:
  unknown-key: off
  braced-ref: error
  shellcheck/SC2086: hint
ignore:
  "legacy/**": ["*"]
  "flows/*.json": [unknown-step-ref]
commands:
  ado.pr.monitor:
    description: Watch a pull request until it completes
    flags:
      pr: {type: int, required: true}
      state: {type: enum, values: [active, completed]}
      verbose: {type: bool}
    args: []
    side_effects: read
    json: true
env: [ADO_TOKEN, LOBSTER_HOST_RUN]
shellcheck:
  exclude: [SC2164, "2034"]
  shell: bash
`

func TestParseValid(t *testing.T) {
	c := Parse("/p/.lobsterrc.yaml", []byte(example))
	if len(c.Diags) > 0 {
		t.Fatalf("diagnostics:\n%s", dump(c.Diags))
	}
	cmd, ok := c.Commands().Lookup("ado.pr.monitor")
	if !ok || !cmd.Host || len(cmd.Flags) != 3 || cmd.Flag("pr") == nil || !cmd.Flag("pr").Required || len(cmd.Requires) != 1 || len(cmd.Positionals) != 0 {
		t.Fatalf("host command: %+v", cmd)
	}
	if _, ok := c.Commands().Lookup("exec"); !ok {
		t.Errorf("the built-in commands are gone")
	}
	opts := c.CheckOptions(check.Options{Shellcheck: "/bin/shellcheck"})
	if opts.Commands == nil || strings.Join(opts.Env, ",") != "ADO_TOKEN,LOBSTER_HOST_RUN" || opts.Shellcheck != "/bin/shellcheck" ||
		strings.Join(opts.ShellcheckExclude, ",") != "SC2164,2034" || opts.ShellcheckShell != "bash" {
		t.Errorf("options: %+v", opts)
	}
}

func TestParseProblems(t *testing.T) {
	text := `rule:
  unknown-key: off
rules:
  unkown-key: off
  missing-id: off
  braced-ref: loud
  shellcheck/SC2086: false
ignore:
  "[": [unknown-key]
  "a/**": [yaml-syntax, nope]
commands:
  exec: {}
  "a b": {}
  host.cmd:
    flags:
      --pr: {type: int}
      n: {type: integer}
      e: {type: enum}
      s: {values: [a]}
    args: [{name: a, variadic: true}, {name: b}]
    side_effects: huge
    jsn: true
env: [OK, 1BAD]
shellcheck:
  exclude: [SC20]
  shell: zsh
  program: /tmp/evil
`
	c := Parse(".lobsterrc.yaml", []byte(text))
	want := `1:1 warning config-unknown-key: unknown key "rule" in the configuration; lobster ignores it; did you mean "rules"?
4:3 error config-invalid: unknown code "unkown-key"; did you mean "unknown-key"?
5:3 error config-invalid: "missing-id" is a load error: the reference rejects such a file whatever the configuration says, so it cannot be changed or ignored
6:15 error config-invalid: the severity of braced-ref must be error, warning, info, hint or off, not "loud"
7:22 error config-invalid: rules.shellcheck/SC2086 must be a string, not a boolean
9:3 error config-invalid: "[" is not a valid glob
10:12 error config-invalid: "yaml-syntax" is a load error: the reference rejects such a file whatever the configuration says, so it cannot be changed or ignored
10:25 error config-invalid: unknown code "nope"
12:3 error config-invalid: "exec" is a built-in command (run an OS command); the configuration cannot redefine it
13:3 error config-invalid: "a b" cannot be a pipeline command name (no spaces, quotes, | or $)
16:7 error config-invalid: "--pr" is not a flag name (write it without the dashes)
17:17 error config-invalid: the type of --n must be string, bool, int, number, json or enum, not "integer"
18:7 error config-invalid: --e is an enum: list its values
19:19 error config-invalid: values are for enum flags; --s is string
20:12 error config-invalid: only the last argument can be variadic
21:19 error config-invalid: side_effects must be none, read, write, external or irreversible, not "huge"
22:5 warning config-unknown-key: unknown key "jsn" in commands.host.cmd; lobster ignores it; did you mean "json"?
23:11 error config-invalid: "1BAD" is not an environment variable name
25:13 error config-invalid: "SC20" is not a shellcheck code (SC2086 or 2086)
26:10 error config-invalid: shellcheck.shell must be sh, bash, dash or ksh, not "zsh"
27:3 warning config-unknown-key: unknown key "program" in shellcheck; lobster ignores it (the keys are enabled, exclude, shell)
`
	if got := dump(c.Diags); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
	// What is valid still applies: the host command with its good flags.
	if cmd, ok := c.Commands().Lookup("host.cmd"); !ok || cmd.Flag("s") == nil || cmd.Flag("n") != nil {
		t.Errorf("host.cmd: %+v", cmd)
	}
}

func TestParseYAMLErrors(t *testing.T) {
	c := Parse(".lobsterrc.yaml", []byte("rules:\n  a: [\n"))
	if !strings.Contains(dump(c.Diags), "2:6 error yaml-syntax: ") {
		t.Errorf("diagnostics:\n%s", dump(c.Diags))
	}
	c = Parse(".lobsterrc.yaml", []byte("- rules\n"))
	if got := dump(c.Diags); got != "1:1 error config-invalid: the configuration must be a mapping, not a list\n" {
		t.Errorf("a list: %s", got)
	}
	if c := Parse(".lobsterrc.yaml", nil); len(c.Diags) != 0 {
		t.Errorf("an empty file: %s", dump(c.Diags))
	}
}

func TestApply(t *testing.T) {
	dir := t.TempDir()
	c := Parse(filepath.Join(dir, ".lobsterrc.yaml"), []byte(example))
	d := func(code string, sev source.Severity) source.Diagnostic {
		return source.Diagnostic{Code: code, Severity: sev}
	}
	in := []source.Diagnostic{
		d("unknown-key", source.Warning), d("braced-ref", source.Warning), d("shellcheck/SC2086", source.Info),
		d("unknown-step-ref", source.Error), d("missing-id", source.Error), d("shellcheck/SC2034", source.Warning),
	}
	codes := func(diags []source.Diagnostic) string {
		var out []string
		for _, d := range diags {
			out = append(out, d.Code+":"+d.Severity.String())
		}
		return strings.Join(out, " ")
	}
	for _, tt := range []struct{ file, want string }{
		{"main.lobster", "braced-ref:error shellcheck/SC2086:hint unknown-step-ref:error missing-id:error shellcheck/SC2034:warning"},
		{"flows/a.json", "braced-ref:error shellcheck/SC2086:hint missing-id:error shellcheck/SC2034:warning"},
		{"flows/deep/a.json", "braced-ref:error shellcheck/SC2086:hint unknown-step-ref:error missing-id:error shellcheck/SC2034:warning"},
		{"legacy/x/y.lobster", "missing-id:error"},
	} {
		if got := codes(c.Apply(filepath.Join(dir, tt.file), append([]source.Diagnostic(nil), in...))); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.file, got, tt.want)
		}
	}
	// Outside the configuration's directory, ignores do not apply.
	if got := codes(c.Apply(filepath.Join(filepath.Dir(dir), "legacy", "z.lobster"), in)); !strings.Contains(got, "unknown-step-ref") {
		t.Errorf("outside: %s", got)
	}
	var none *Config
	if got := none.Apply("x.lobster", in); len(got) != len(in) {
		t.Errorf("no configuration changed the findings")
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Find(sub); got != "" && strings.HasPrefix(got, root) {
		t.Errorf("found %s in an empty tree", got)
	}
	yml := filepath.Join(root, "a", ".lobsterrc.yml")
	if err := os.WriteFile(yml, []byte("env: [A]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Find(sub); got != yml {
		t.Errorf("Find = %q, want %q", got, yml)
	}
	yaml := filepath.Join(root, "a", ".lobsterrc.yaml")
	if err := os.WriteFile(yaml, []byte("env: [B]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Find(sub); got != yaml {
		t.Errorf("Find = %q, want %q (.yaml first)", got, yaml)
	}
	fd := NewFinder()
	c := fd.For(filepath.Join(sub, "w.lobster"))
	if c == nil || c.Path != yaml || strings.Join(c.File.Env, ",") != "B" {
		t.Fatalf("For: %+v", c)
	}
	if c2 := fd.For(filepath.Join(root, "a", "x.lobster")); c2 != c {
		t.Errorf("the configuration was read twice")
	}
	if err := os.WriteFile(yaml, []byte("env: [C]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd.Forget()
	if c := fd.For(filepath.Join(sub, "w.lobster")); c == nil || strings.Join(c.File.Env, ",") != "C" {
		t.Errorf("after Forget: %+v", c)
	}
	if c := fd.For(filepath.Join(root, "w.lobster")); c != nil && strings.HasPrefix(c.Path, root) {
		t.Errorf("a configuration below the file applied: %s", c.Path)
	}
	// Not a regular file: an error on the configuration, not a hang.
	dirCfg := filepath.Join(root, "d")
	if err := os.MkdirAll(filepath.Join(dirCfg, ".lobsterrc.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Find(dirCfg); got == filepath.Join(dirCfg, ".lobsterrc.yaml") {
		t.Errorf("a directory was taken for the configuration")
	}
	if c := Load(filepath.Join(dirCfg, ".lobsterrc.yaml")); len(c.Diags) != 1 || c.Diags[0].Code != CodeInvalid {
		t.Errorf("Load of a directory: %s", dump(c.Diags))
	}
}

// TestNameNotAWorkflow: the configuration's names are no workflow names
// the tools look for (*.lobster, *.lobster.yaml, *.lobster.yml,
// *.lobster.json).
func TestNameNotAWorkflow(t *testing.T) {
	for _, n := range Names {
		for _, glob := range []string{"*.lobster", "*.lobster.yaml", "*.lobster.yml", "*.lobster.json"} {
			if ok, _ := filepath.Match(glob, n); ok {
				t.Errorf("%s matches %s", n, glob)
			}
		}
		if !IsConfigName("/x/" + n) {
			t.Errorf("IsConfigName(%s) = false", n)
		}
	}
}

// TestSchemaAgrees: a configuration the decoder takes without a finding is
// valid under the generated schema, and one it reports (beyond what only
// the decoder can know: unknown codes, built-in names, load codes) is not.
func TestSchemaAgrees(t *testing.T) {
	data, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		text  string
		valid bool
	}{
		{example, true},
		{"{}", true},
		{"rules: {unknown-key: loud}", false},
		{"rules: {unknown-key: [off]}", false},
		{"rule: {}", false},
		{"commands: {x: {flags: {n: {type: integer}}}}", false},
		{"commands: {x: {flags: {--n: {}}}}", false},
		{"commands: {'a b': {}}", false},
		{"commands: {x: {side_effects: huge}}", false},
		{"commands: {x: {args: [{required: true}]}}", false},
		{"env: [1BAD]", false},
		{"env: A", false},
		{"shellcheck: {shell: zsh}", false},
		{"shellcheck: {exclude: [SC20]}", false},
		{"shellcheck: {enabled: yes}", false},
		{"ignore: {'a/**': unknown-key}", false},
		{"temporal: {task_queue: team, routes: [{steps: ['train*', eval], task_queue: gpu}]}", true},
		{"temporal: {routes: [{steps: [], task_queue: gpu}]}", false},
		{"temporal: {routes: [{steps: [a]}]}", false},
		{"temporal: {queue: x}", false},
	} {
		doc, _, diags := parser.ParseDocument("c.yaml", []byte(tt.text))
		if len(diags) > 0 {
			t.Fatalf("%q: %s", tt.text, dump(diags))
		}
		err := rs.Validate(parser.JSONValue(doc))
		c := Parse("c.yaml", []byte(tt.text))
		if (err == nil) != tt.valid || (len(c.Diags) == 0) != tt.valid {
			t.Errorf("%q: schema says %v, decoder says:\n%s(want valid %v)", tt.text, err, dump(c.Diags), tt.valid)
		}
	}
}

// TestReadmeExample: the example of README.md's "Project configuration"
// section is a configuration without a finding, valid under the schema,
// and it says what the README says it does.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(readme), "\n## Project configuration (`.lobsterrc.yaml`)\n")
	if !ok {
		t.Fatal("README.md has no section \"Project configuration (`.lobsterrc.yaml`)\"")
	}
	_, block, ok := strings.Cut(sec, "```yaml\n")
	block, _, ok2 := strings.Cut(block, "```\n")
	if !ok || !ok2 || !strings.HasPrefix(block, "# .lobsterrc.yaml\n") {
		t.Fatalf("no example in the section")
	}
	dir := t.TempDir()
	c := Parse(filepath.Join(dir, ".lobsterrc.yaml"), []byte(block))
	if len(c.Diags) > 0 {
		t.Fatalf("the README's example has findings:\n%s", dump(c.Diags))
	}
	data, _ := Schema()
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := parser.ParseDocument("c.yaml", []byte(block))
	if err := rs.Validate(parser.JSONValue(doc)); err != nil {
		t.Errorf("the README's example is not valid under the schema: %v", err)
	}
	cmd, ok := c.Commands().Lookup("ado.pr.monitor")
	if !ok || cmd.Flag("pr") == nil || !cmd.Flag("pr").Required || cmd.Flag("state") == nil || len(cmd.Positionals) != 0 {
		t.Errorf("ado.pr.monitor: %+v", cmd)
	}
	in := []source.Diagnostic{{Code: "unknown-key", Severity: source.Warning}, {Code: "nonexistent-lobster-env", Severity: source.Error}, {Code: "braced-ref", Severity: source.Warning}}
	if got := c.Apply(filepath.Join(dir, "legacy", "a.json"), in); len(got) != 1 || got[0].Code != "braced-ref" || got[0].Severity != source.Error {
		t.Errorf("applied to legacy/a.json: %v", got)
	}
	opts := c.CheckOptions(check.Options{Shellcheck: "shellcheck"})
	if opts.ShellcheckShell != "bash" || opts.Shellcheck == "" || len(opts.Env) != 2 {
		t.Errorf("options: %+v", opts)
	}
}

// TestTemporalRoutes: routes are read in order; a route without steps or
// a task queue, or with a bad pattern, is reported and left out.
func TestTemporalRoutes(t *testing.T) {
	c := Parse(".lobsterrc.yaml", []byte(`temporal:
  task_queue: team
  routes:
    - steps: ["train*", eval]
      task_queue: gpu
    - steps: ["["]
      task_queue: bad
    - task_queue: none
    - steps: []
      task_queue: empty
    - steps: ["*"]
      task_queue: cpu
`))
	want := `6:15 error config-invalid: "[" is not a valid step id pattern
8:7 error config-invalid: temporal.routes[2] needs a "steps"
9:14 error config-invalid: a route needs at least one step id pattern
`
	if got := dump(c.Diags); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
	tq := c.File.Temporal
	if tq == nil || tq.TaskQueue != "team" || len(tq.Routes) != 2 || tq.Routes[0].TaskQueue != "gpu" || tq.Routes[1].TaskQueue != "cpu" {
		t.Errorf("temporal: %+v", tq)
	}
}

// TestTemporalHeartbeat: heartbeat_ms is read; one under two seconds is
// reported and left out, one that is no integer is reported once.
func TestTemporalHeartbeat(t *testing.T) {
	for _, tt := range []struct {
		text, diags string
		want        int
	}{
		{"temporal: {heartbeat_ms: 30000}\n", "", 30000},
		{"temporal: {heartbeat_ms: 500}\n", "1:26 error config-invalid: heartbeat_ms must be at least 2000 (2 seconds)\n", 0},
		{"temporal: {heartbeat_ms: 0}\n", "1:26 error config-invalid: heartbeat_ms must be at least 2000 (2 seconds)\n", 0},
		{"temporal: {heartbeat_ms: ten}\n", "1:26 error config-invalid: temporal.heartbeat_ms must be an integer, not a string\n", 0},
	} {
		c := Parse(".lobsterrc.yaml", []byte(tt.text))
		if got := dump(c.Diags); got != tt.diags {
			t.Errorf("%q: diagnostics:\n%s\nwant:\n%s", tt.text, got, tt.diags)
		}
		if c.File.Temporal == nil || c.File.Temporal.HeartbeatMs != tt.want {
			t.Errorf("%q: temporal %+v, want heartbeat_ms %d", tt.text, c.File.Temporal, tt.want)
		}
	}
}

// TestShellcheckDisabled: enabled: false turns shellcheck off whatever the
// command line found.
func TestShellcheckDisabled(t *testing.T) {
	c := Parse(".lobsterrc.yaml", []byte("shellcheck: {enabled: false}\n"))
	if opts := c.CheckOptions(check.Options{Shellcheck: "/usr/bin/shellcheck"}); opts.Shellcheck != "" {
		t.Errorf("shellcheck still runs: %q", opts.Shellcheck)
	}
}

// TestExamples: the documented Bad example of each configuration code is
// reported on a configuration file, and its Good example is not (the
// workflow codes are checked in lang/check).
func TestExamples(t *testing.T) {
	n := 0
	for _, a := range check.All {
		if !strings.HasPrefix(a.Name, "config-") {
			continue
		}
		n++
		count := func(text string) int {
			k := 0
			for _, d := range Parse(".lobsterrc.yaml", []byte(text)).Diags {
				if d.Code == a.Name {
					k++
				}
			}
			return k
		}
		if count(a.Bad) == 0 {
			t.Errorf("%s: the Bad example is not reported", a.Name)
		}
		if k := count(a.Good); k != 0 {
			t.Errorf("%s: the Good example is reported %d times", a.Name, k)
		}
	}
	if n != 2 {
		t.Errorf("%d configuration codes, want %s and %s", n, CodeUnknownKey, CodeInvalid)
	}
}
