package commands

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The registry of the reference: 27 names.
var referenceNames = []string{
	"approve", "ask", "clawd.invoke", "commands.list", "dedupe", "diff.last", "email.triage", "exec",
	"gog.gmail.search", "gog.gmail.send", "groupBy", "head", "json", "llm.invoke", "llm_task.invoke", "map",
	"openclaw.agent", "openclaw.invoke", "pick", "sort", "state.get", "state.set", "table", "template",
	"where", "workflows.list", "workflows.run",
}

func TestNames(t *testing.T) {
	if got := Names(); !slices.Equal(got, referenceNames) {
		t.Errorf("Names() = %v\nwant %v", got, referenceNames)
	}
	for _, n := range referenceNames {
		c, ok := Lookup(n)
		if !ok {
			t.Errorf("Lookup(%q) failed", n)
			continue
		}
		if c.Name != n && !slices.Contains(c.Aliases, n) {
			t.Errorf("Lookup(%q) = %q", n, c.Name)
		}
	}
	if _, ok := Lookup("group_by"); ok {
		t.Error("Lookup(group_by) succeeded; the reference registers only groupBy")
	}
	a, _ := Lookup("clawd.invoke")
	b, _ := Lookup("openclaw.invoke")
	if a != b {
		t.Error("clawd.invoke is not an alias of openclaw.invoke")
	}
}

func TestAllSortedAndUnique(t *testing.T) {
	all := All()
	if !sort.SliceIsSorted(all, func(i, j int) bool { return all[i].Name < all[j].Name }) {
		t.Error("All() is not sorted")
	}
	if len(all) != len(referenceNames)-1 { // clawd.invoke is an alias
		t.Errorf("All() has %d commands, want %d", len(all), len(referenceNames)-1)
	}
	seen := map[string]string{}
	for _, c := range all {
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			if prev, ok := seen[n]; ok {
				t.Errorf("name %q of %q is also a name of %q", n, c.Name, prev)
			}
			seen[n] = c.Name
		}
	}
	if again := All(); &again[0] != &all[0] {
		t.Error("All() is not stable")
	}
}

// TestWellFormed checks every entry of the table.
func TestWellFormed(t *testing.T) {
	for _, c := range All() {
		t.Run(c.Name, func(t *testing.T) { checkCommand(t, c) })
	}
}

func checkCommand(t *testing.T, c *Command) {
	if c.Summary == "" || strings.TrimSpace(c.Help) == "" || c.Emits == "" || c.Consumes == "" {
		t.Error("summary, help, consumes and emits are required")
	}
	if c.Summary != strings.ToLower(c.Summary[:1])+c.Summary[1:] || strings.HasSuffix(c.Summary, ".") {
		t.Errorf("summary %q: lower case, no trailing period", c.Summary)
	}
	if !strings.HasPrefix(c.Help, c.Name+" — ") {
		t.Errorf("help must start with %q", c.Name+" — ")
	}
	if c.Effect > Irreversible || c.Input > Items {
		t.Error("invalid effect or input")
	}
	if c.Renderer && c.Halts {
		t.Error("a renderer does not halt")
	}
	if c.RequestsInput && !c.Halts {
		t.Error("a command that requests input also halts")
	}
	if c.Effect == Irreversible && c.RetryableAfterDispatch {
		t.Error("an irreversible command is not retryable after dispatch")
	}
	if c.Shim && c.Program {
		t.Error("a shim is not a common program")
	}
	spellings := map[string]bool{}
	for _, f := range c.Flags {
		for _, n := range f.Names() {
			if n == "" || n == "_" || strings.HasPrefix(n, "-") || strings.ContainsAny(n, " =") {
				t.Errorf("flag spelling %q: not a valid flag name", n)
			}
			if spellings[n] {
				t.Errorf("flag spelling %q is listed twice", n)
			}
			spellings[n] = true
		}
		if c.Flag(f.Name) != f {
			t.Errorf("Flag(%q) does not find the flag", f.Name)
		}
		for _, a := range f.Aliases {
			if c.Flag(a) != f {
				t.Errorf("Flag(%q) does not find the alias of %q", a, f.Name)
			}
		}
		checkFlag(t, c, f)
	}
	if len(c.FlagNames()) != len(spellings) {
		t.Errorf("FlagNames() has %d spellings, want %d", len(c.FlagNames()), len(spellings))
	}
	for i, p := range c.Positionals {
		if p.Name == "" || p.Description == "" {
			t.Errorf("positional %d: name and description are required", i)
		}
		if p.Variadic && i != len(c.Positionals)-1 {
			t.Errorf("positional %q: only the last may be variadic", p.Name)
		}
		if p.Required && len(p.Unless) > 0 {
			t.Errorf("positional %q: a required positional cannot be replaced by a flag", p.Name)
		}
		for _, u := range p.Unless {
			if c.Flag(u) == nil || c.Flag(u).Name != u {
				t.Errorf("positional %q: Unless names %q, which is no canonical flag", p.Name, u)
			}
		}
		if p.Required && !requiredAlone(c, PositionalArgs) {
			t.Errorf("positional %q is required but no requirement asks for it alone", p.Name)
		}
	}
	for _, r := range c.Requires {
		if len(r.Any) == 0 || r.Error == "" {
			t.Error("a requirement needs alternatives and an error")
		}
		for _, a := range r.Any {
			if a == PositionalArgs {
				if !c.ReadsPositionals() {
					t.Errorf("requirement %q: the command reads no positional", r.Error)
				}
				continue
			}
			if f := c.Flag(a); f == nil || f.Name != a {
				t.Errorf("requirement %q: %q is no canonical flag", r.Error, a)
			}
		}
		if strings.Contains(r.Error, "{") && !strings.Contains(r.Error, "{name}") {
			t.Errorf("requirement %q: unknown placeholder", r.Error)
		}
	}
	for _, cf := range c.Conflicts {
		if len(cf.Flags) < 2 || cf.Error == "" {
			t.Error("a conflict needs two flags and an error")
		}
		for _, n := range cf.Flags {
			if f := c.Flag(n); f == nil || f.Name != n {
				t.Errorf("conflict %q: %q is no canonical flag", cf.Error, n)
			}
		}
	}
}

// requiredAlone reports whether a requirement of c has exactly the one
// alternative name.
func requiredAlone(c *Command, name string) bool {
	for _, r := range c.Requires {
		if len(r.Any) == 1 && r.Any[0] == name {
			return true
		}
	}
	return false
}

func checkFlag(t *testing.T, c *Command, f *Flag) {
	t.Helper()
	if f.Type < String || f.Type > Enum {
		t.Errorf("--%s: invalid type", f.Name)
	}
	if f.Description == "" {
		t.Errorf("--%s: no description", f.Name)
	}
	if f.Required {
		if f.HasDefault {
			t.Errorf("--%s: a required flag has no default", f.Name)
		}
		if !requiredAlone(c, f.Name) {
			t.Errorf("--%s is required but no requirement asks for it alone", f.Name)
		}
	}
	if f.Default != "" && !f.HasDefault {
		t.Errorf("--%s: Default without HasDefault", f.Name)
	}
	if f.Type == Enum && len(f.Values) == 0 {
		t.Errorf("--%s: an enum needs values", f.Name)
	}
	if f.Type != Enum && (len(f.Values) > 0 || f.FoldCase || f.Trim) {
		t.Errorf("--%s: Values, FoldCase and Trim are for enums", f.Name)
	}
	if f.Type == Bool && f.IgnoresBare {
		t.Errorf("--%s: a bare boolean is true", f.Name)
	}
	if f.Type != Bool && (f.Truth != Truthy || f.Standalone) {
		t.Errorf("--%s: Truth and Standalone are for booleans", f.Name)
	}
	if f.Type != JSON && (f.Shape != AnyJSON || f.ShapeIf != "" || f.InvalidShape != "") {
		t.Errorf("--%s: Shape, ShapeIf and InvalidShape are for JSON flags", f.Name)
	}
	if f.Type == JSON && f.Shape != AnyJSON && f.InvalidShape == "" {
		t.Errorf("--%s: a JSON shape needs its error", f.Name)
	}
	if f.ShapeIf != "" {
		if g := c.Flag(f.ShapeIf); g == nil || g.Name != f.ShapeIf {
			t.Errorf("--%s: ShapeIf %q is no canonical flag", f.Name, f.ShapeIf)
		}
	}
	if f.NonNegative && f.Type != Int && f.Type != Number {
		t.Errorf("--%s: NonNegative is for numbers", f.Name)
	}
	if f.Format != "" && (f.Type != String || f.Format != "http-url") {
		t.Errorf("--%s: unknown format %q", f.Name, f.Format)
	}
	if f.Repeatable {
		t.Errorf("--%s: no built-in flag is repeatable (the last value wins)", f.Name)
	}
	for _, msg := range []string{f.Invalid, f.InvalidShape} {
		rest := strings.NewReplacer("{name}", "", "{value}", "").Replace(msg)
		if strings.ContainsAny(rest, "{}") && f.Type != JSON {
			t.Errorf("--%s: unknown placeholder in %q", f.Name, msg)
		}
	}
	if f.HasDefault {
		checkDefault(t, f)
	}
}

// checkDefault checks that a default is a valid value of its flag's type.
func checkDefault(t *testing.T, f *Flag) {
	t.Helper()
	d := f.Default
	switch f.Type {
	case String:
		if d == "" {
			t.Errorf("--%s: an empty string default is no default", f.Name)
		}
	case Bool:
		if d != "true" && d != "false" {
			t.Errorf("--%s: bool default %q", f.Name, d)
		}
	case Int:
		n, err := strconv.Atoi(d)
		if err != nil || f.NonNegative && n < 0 {
			t.Errorf("--%s: int default %q", f.Name, d)
		}
	case Number:
		n, err := strconv.ParseFloat(d, 64)
		if err != nil || math.IsInf(n, 0) || f.NonNegative && n < 0 {
			t.Errorf("--%s: number default %q", f.Name, d)
		}
	case JSON:
		if !json.Valid([]byte(d)) {
			t.Errorf("--%s: JSON default %q", f.Name, d)
		}
	case Enum:
		if !slices.Contains(f.Values, d) {
			t.Errorf("--%s: default %q is not one of %v", f.Name, d, f.Values)
		}
	}
}

// TestReferenceFacts pins facts of the reference the checker relies on.
func TestReferenceFacts(t *testing.T) {
	exec, _ := Lookup("exec")
	if f := exec.Flag("json"); f == nil || !f.Standalone || f.Type != Bool {
		t.Error("exec --json is a standalone boolean since 2026.9.13")
	}
	for _, name := range Names() {
		c, _ := Lookup(name)
		for _, f := range c.Flags {
			if f.Standalone && name != "exec" {
				t.Errorf("%s --%s: only exec --json is standalone in 2026.9.13", name, f.Name)
			}
		}
	}
	head, _ := Lookup("head")
	if head.ReadsPositionals() || head.Flag("n").Default != "10" {
		t.Error("head reads only --n (default 10)")
	}
	for name, halts := range map[string]bool{"approve": true, "ask": true, "exec": false, "json": false} {
		if c, _ := Lookup(name); c.Halts != halts {
			t.Errorf("%s: Halts = %v", name, c.Halts)
		}
	}
	for name, ok := range map[string]bool{"openclaw.invoke": false, "openclaw.agent": false, "gog.gmail.send": false, "exec": true, "llm.invoke": true} {
		if c, _ := Lookup(name); c.RetryableAfterDispatch != ok {
			t.Errorf("%s: RetryableAfterDispatch = %v", name, c.RetryableAfterDispatch)
		}
	}
	for _, name := range []string{"json", "table"} {
		if c, _ := Lookup(name); !c.Renderer {
			t.Errorf("%s is a renderer", name)
		}
	}
	llm, _ := Lookup("llm.invoke")
	task, _ := Lookup("llm_task.invoke")
	if llm.Flag("provider").HasDefault || task.Flag("provider").Default != "openclaw" {
		t.Error("llm_task.invoke defaults the provider to openclaw; llm.invoke has no default")
	}
	if llm.Flag("refresh").Truth != Parsed {
		t.Error("llm.invoke reads its switches with the false/0/no parser")
	}
}

func TestRegistryWith(t *testing.T) {
	host := &Command{Name: "ado.pr.monitor", Host: true, Flags: []*Flag{{Name: "pr", Type: Int, Required: true}}}
	clash := &Command{Name: "exec", Host: true}
	r := Builtin().With(host, clash)
	if c, ok := r.Lookup("ado.pr.monitor"); !ok || c != host {
		t.Errorf("host command not found: %v %v", c, ok)
	}
	if c, _ := r.Lookup("exec"); c == clash || c.Host {
		t.Errorf("a host command redefined a built-in one")
	}
	if _, ok := Lookup("ado.pr.monitor"); ok {
		t.Errorf("With changed the built-in registry")
	}
	if len(r.Names()) != len(Names())+1 || len(r.All()) != len(All())+1 {
		t.Errorf("names %d (built-in %d), all %d (built-in %d)", len(r.Names()), len(Names()), len(r.All()), len(All()))
	}
	var none *Registry
	if c, ok := none.Lookup("exec"); !ok || c.Name != "exec" {
		t.Errorf("a nil registry is not the built-in one")
	}
}
