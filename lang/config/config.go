// Package config reads the project configuration of lobster, the file
// .lobsterrc.yaml (or .lobsterrc.yml), found by walking up from each
// workflow file's directory as .golangci.yml or ruff.toml are found. It
// says how the checker treats the project's files — rule severities,
// codes ignored by path, the host's pipeline commands and environment,
// shellcheck settings — and is read by lobster check, run, plan and graph
// and by the language server.
//
// The file is YAML 1.2, read by the parser's own reader (exact positions),
// into the types of types.go; its JSON Schema is generated from the same
// types (Schema). Its problems are diagnostics on the file itself:
// config-unknown-key (a warning, with the nearest key) and config-invalid
// (an error: a wrong type, an unknown code or severity, a bad glob...). The
// parts that are valid apply all the same.
package config

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// Names are the file names of the configuration, in the order they are
// looked for in each directory.
var Names = []string{".lobsterrc.yaml", ".lobsterrc.yml"}

// The codes of the configuration's own diagnostics.
const (
	CodeUnknownKey = "config-unknown-key"
	CodeInvalid    = "config-invalid"
)

// Config is a project configuration as read. A nil *Config is no
// configuration: its methods change nothing.
type Config struct {
	Path  string              // the file's path
	Dir   string              // its directory, which the ignore globs are relative to
	File  File                // what was read of it
	Src   *source.File        // its text, for showing its diagnostics
	Diags []source.Diagnostic // its problems, sorted

	rules    map[string]source.Severity // code → severity; 0 turns the rule off
	ignores  []ignore
	registry *commands.Registry // the built-in and host commands; nil: no host commands
	exclude  []string
}

// ignore is one entry of ignore:.
type ignore struct {
	glob  string
	all   bool
	codes map[string]bool
}

var (
	envName  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	scCode   = regexp.MustCompile(`^(SC)?[0-9]{4}$`)
	cmdName  = regexp.MustCompile(`^[^\s|'"$\\]+$`)
	flagName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
)

// Parse reads the configuration file at path from its text.
func Parse(path string, src []byte) *Config {
	c := &Config{Path: path, Dir: filepath.Dir(path)}
	doc, f, diags := parser.ParseDocument(path, src)
	c.Src = f
	d := &decoder{file: f, keys: map[string]*ast.Scalar{}, values: map[string]ast.Value{}}
	d.diags = diags
	if doc != nil {
		d.decode(doc, reflect.ValueOf(&c.File), "")
	}
	c.validate(d)
	c.Diags = d.diags
	source.Sort(c.Diags)
	return c
}

// Load reads the configuration file at path; a file that cannot be read is
// a config-invalid diagnostic at its start.
func Load(path string) *Config {
	src, err := bounded.ReadFile(path, bounded.DefaultLimit)
	if err != nil {
		c := Parse(path, nil)
		c.Diags = append(c.Diags, source.Diagnostic{
			File: path, Range: c.Src.Range(0, 0), Severity: source.Error, Code: CodeInvalid,
			Message: fmt.Sprintf("the configuration cannot be read: %v", err),
		})
		return c
	}
	return Parse(path, src)
}

// Find returns the path of the configuration file that applies to files in
// dir: the first of Names in dir or, walking up, in the nearest directory
// above it that has one; "" when there is none up to the root.
func Find(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		for _, name := range Names {
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// A Finder finds and loads the configuration of files, each configuration
// file read once. It is safe for concurrent use.
type Finder struct {
	mu     sync.Mutex
	byDir  map[string]string  // directory → configuration path ("" for none)
	byPath map[string]*Config // configuration path → loaded
}

// NewFinder returns an empty Finder.
func NewFinder() *Finder {
	return &Finder{byDir: map[string]string{}, byPath: map[string]*Config{}}
}

// For returns the configuration that applies to the workflow file at path
// (a file that need not exist, such as the name given to standard input),
// or nil when none does.
func (fd *Finder) For(path string) *Config {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil
	}
	fd.mu.Lock()
	cfgPath, ok := fd.byDir[dir]
	fd.mu.Unlock()
	if !ok {
		cfgPath = Find(dir)
		fd.mu.Lock()
		fd.byDir[dir] = cfgPath
		fd.mu.Unlock()
	}
	if cfgPath == "" {
		return nil
	}
	fd.mu.Lock()
	defer fd.mu.Unlock()
	c, ok := fd.byPath[cfgPath]
	if !ok {
		c = Load(cfgPath)
		fd.byPath[cfgPath] = c
	}
	return c
}

// Loaded returns the configurations loaded so far, by path.
func (fd *Finder) Loaded() []*Config {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	var out []*Config
	for _, c := range fd.byPath {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Forget drops what the Finder knows, so that the next For reads the
// configuration files again (the language server calls it when one
// changes).
func (fd *Finder) Forget() {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	clear(fd.byDir)
	clear(fd.byPath)
}

// IsConfigName reports whether a file name is one of Names.
func IsConfigName(name string) bool {
	base := filepath.Base(name)
	for _, n := range Names {
		if base == n {
			return true
		}
	}
	return false
}

// CheckOptions returns opts with what the configuration says about the
// checker: the host's commands and environment and the shellcheck
// settings.
func (c *Config) CheckOptions(opts check.Options) check.Options {
	if c == nil {
		return opts
	}
	if c.registry != nil {
		opts.Commands = c.registry
	}
	opts.Env = append(opts.Env, c.File.Env...)
	if sc := c.File.Shellcheck; sc != nil {
		if sc.Enabled != nil && !*sc.Enabled {
			opts.Shellcheck = ""
		}
		opts.ShellcheckExclude = append(opts.ShellcheckExclude, c.exclude...)
		if sc.Shell != "" {
			opts.ShellcheckShell = sc.Shell
		}
	}
	return opts
}

// Check runs the checker's rules on a parsed workflow file as the
// configuration has it: its settings go in (CheckOptions) and its rule
// severities and ignores apply to what comes out (Apply, for the file at
// opts.Path). Every front end checks a workflow this way; c may be nil.
// It stops between rules when ctx is done, as check.RunContext does.
func (c *Config) Check(ctx context.Context, f *ast.File, parseDiags []source.Diagnostic, opts check.Options) ([]source.Diagnostic, error) {
	if c.Commands() != nil {
		opts.Info = nil // a shared Info knows the built-in commands only
	}
	diags, err := check.RunContext(ctx, f, parseDiags, check.Rules, c.CheckOptions(opts))
	return c.Apply(opts.Path, diags), err
}

// Commands is the registry of pipeline commands with the host's: nil when
// the configuration declares none (the built-in registry).
func (c *Config) Commands() *commands.Registry {
	if c == nil {
		return nil
	}
	return c.registry
}

// Apply applies the configuration's rules and ignores to the findings of
// the workflow file at path: findings of a code turned off or ignored for
// that file are dropped, others get the severity set for their code. Load
// errors (parser.IsLoadError) are kept as they are.
func (c *Config) Apply(path string, diags []source.Diagnostic) []source.Diagnostic {
	if c == nil || (len(c.rules) == 0 && len(c.ignores) == 0) {
		return diags
	}
	var ignored []*ignore
	if rel, ok := c.relative(path); ok {
		for i := range c.ignores {
			if ok, _ := doublestar.Match(c.ignores[i].glob, rel); ok {
				ignored = append(ignored, &c.ignores[i])
			}
		}
	}
	out := diags[:0:0]
	for _, d := range diags {
		if parser.IsLoadError(d) {
			out = append(out, d)
			continue
		}
		drop := false
		for _, ig := range ignored {
			if ig.all || ig.codes[d.Code] || strings.HasPrefix(d.Code, "shellcheck/") && ig.codes["shellcheck"] {
				drop = true
			}
		}
		if drop {
			continue
		}
		sev, set := c.rules[d.Code]
		if !set && strings.HasPrefix(d.Code, "shellcheck/") {
			sev, set = c.rules["shellcheck"]
		}
		if set {
			if sev == 0 {
				continue
			}
			d.Severity = sev
		}
		out = append(out, d)
	}
	return out
}

// relative is path relative to the configuration's directory, with
// forward slashes; false when it is not below it.
func (c *Config) relative(path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	dir, err := filepath.Abs(c.Dir)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// codeProblem says what is wrong with a code named in the configuration, or
// "".
func codeProblem(code string) string {
	switch {
	case !check.KnownCode(code):
		msg := fmt.Sprintf("unknown code %q", code)
		if near := check.Suggest(code, check.Codes()); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		return msg
	case parser.IsLoadCode(code):
		return fmt.Sprintf("%q is a load error: the reference rejects such a file whatever the configuration says, so it cannot be changed or ignored", code)
	}
	return ""
}

// validate checks what the decoder read and builds what Apply and
// CheckOptions use.
func (c *Config) validate(d *decoder) {
	f := &c.File
	node := func(path string) ast.Node {
		if v, ok := d.values[path]; ok {
			return v
		}
		if k, ok := d.keys[path]; ok {
			return k
		}
		return &ast.Scalar{}
	}
	key := func(path string) ast.Node {
		if k, ok := d.keys[path]; ok {
			return k
		}
		return node(path)
	}

	for _, code := range sortedKeys(f.Rules) {
		p := join("rules", code)
		if msg := codeProblem(code); msg != "" {
			d.invalid(key(p), "%s", msg)
			continue
		}
		level := f.Rules[code]
		if level == "off" {
			c.setRule(code, 0)
			continue
		}
		sev, ok := source.ParseSeverity(level)
		if !ok {
			if s, isString := d.values[p].(*ast.Scalar); isString && s.Kind == ast.String {
				d.invalid(node(p), "the severity of %s must be error, warning, info, hint or off, not %q", code, level)
			}
			continue
		}
		c.setRule(code, sev)
	}

	for _, glob := range sortedKeys(f.Ignore) {
		p := join("ignore", glob)
		if !doublestar.ValidatePattern(glob) {
			d.invalid(key(p), "%q is not a valid glob", glob)
			continue
		}
		ig := ignore{glob: strings.TrimPrefix(glob, "./"), codes: map[string]bool{}}
		for i, code := range f.Ignore[glob] {
			cp := fmt.Sprintf("%s[%d]", p, i)
			if code == "*" {
				ig.all = true
				continue
			}
			if msg := codeProblem(code); msg != "" {
				d.invalid(node(cp), "%s", msg)
				continue
			}
			ig.codes[code] = true
		}
		c.ignores = append(c.ignores, ig)
	}

	var host []*commands.Command
	for _, name := range sortedKeys(f.Commands) {
		p := join("commands", name)
		if cmd := c.command(d, name, f.Commands[name], p, node, key); cmd != nil {
			host = append(host, cmd)
		}
	}
	if len(host) > 0 {
		c.registry = commands.Builtin().With(host...)
	}

	for i, name := range f.Env {
		if !envName.MatchString(name) {
			d.invalid(node(fmt.Sprintf("env[%d]", i)), "%q is not an environment variable name", name)
		}
	}

	if t := f.Temporal; t != nil {
		valid := t.Routes[:0]
		for i, r := range t.Routes {
			p := fmt.Sprintf("temporal.routes[%d]", i)
			// A missing key is the decoder's finding; an empty one ours.
			ok := r != nil && len(r.Steps) > 0 && r.TaskQueue != ""
			if _, present := d.values[p+".steps"]; present && r != nil && len(r.Steps) == 0 {
				d.invalid(node(p+".steps"), "a route needs at least one step id pattern")
			}
			if _, present := d.values[p+".task_queue"]; present && r != nil && r.TaskQueue == "" {
				d.invalid(node(p+".task_queue"), "a route's task_queue cannot be empty")
			}
			if r != nil {
				for j, pattern := range r.Steps {
					if _, err := path.Match(pattern, ""); err != nil {
						d.invalid(node(fmt.Sprintf("%s.steps[%d]", p, j)), "%q is not a valid step id pattern", pattern)
						ok = false
					}
				}
			}
			if ok {
				valid = append(valid, r)
			}
		}
		t.Routes = valid
		// A value that is no integer is the decoder's finding.
		if v, ok := d.values["temporal.heartbeat_ms"].(*ast.Scalar); ok && v.Kind == ast.Int && t.HeartbeatMs < minHeartbeatMs {
			d.invalid(node("temporal.heartbeat_ms"), "heartbeat_ms must be at least %d (2 seconds)", minHeartbeatMs)
			t.HeartbeatMs = 0
		}
	}

	if sc := f.Shellcheck; sc != nil {
		for i, code := range sc.Exclude {
			if !scCode.MatchString(code) {
				d.invalid(node(fmt.Sprintf("shellcheck.exclude[%d]", i)), "%q is not a shellcheck code (SC2086 or 2086)", code)
				continue
			}
			c.exclude = append(c.exclude, code)
		}
		switch sc.Shell {
		case "", "sh", "bash", "dash", "ksh":
		default:
			d.invalid(node("shellcheck.shell"), "shellcheck.shell must be sh, bash, dash or ksh, not %q", sc.Shell)
			sc.Shell = ""
		}
	}
}

func (c *Config) setRule(code string, sev source.Severity) {
	if c.rules == nil {
		c.rules = map[string]source.Severity{}
	}
	c.rules[code] = sev
}

// command turns one declared host command into the registry's form, or
// reports why it cannot.
func (c *Config) command(d *decoder, name string, decl *Command, p string, node, key func(string) ast.Node) *commands.Command {
	if decl == nil {
		decl = &Command{}
	}
	if !cmdName.MatchString(name) {
		d.invalid(key(p), "%q cannot be a pipeline command name (no spaces, quotes, | or $)", name)
		return nil
	}
	if b, ok := commands.Lookup(name); ok {
		d.invalid(key(p), "%q is a built-in command (%s); the configuration cannot redefine it", name, b.Summary)
		return nil
	}
	cmd := &commands.Command{
		Name: name, Host: true, Summary: decl.Description,
		Help:  name + " — a command of the host (declared in " + filepath.Base(c.Path) + ")",
		Input: commands.Items, Consumes: "items", Emits: "lines of text",
	}
	if decl.Description != "" {
		cmd.Help += "\n\n" + decl.Description
	}
	if decl.JSON {
		cmd.Emits = "JSON values"
	}
	effects := map[string]commands.Effect{"none": commands.None, "read": commands.Read, "write": commands.Write, "external": commands.External, "irreversible": commands.Irreversible, "": commands.External}
	eff, ok := effects[decl.SideEffects]
	if !ok {
		d.invalid(node(join(p, "side_effects")), "side_effects must be none, read, write, external or irreversible, not %q", decl.SideEffects)
		eff = commands.External
	}
	cmd.Effect = eff
	cmd.RetryableAfterDispatch = eff < commands.Irreversible
	types := map[string]commands.Type{"": commands.String, "string": commands.String, "bool": commands.Bool, "int": commands.Int, "number": commands.Number, "json": commands.JSON, "enum": commands.Enum}
	for _, fname := range sortedKeys(decl.Flags) {
		fp := join(join(p, "flags"), fname)
		fl := decl.Flags[fname]
		if fl == nil {
			fl = &Flag{}
		}
		name := fname
		if !flagName.MatchString(name) {
			d.invalid(key(fp), "%q is not a flag name (write it without the dashes)", fname)
			continue
		}
		t, ok := types[fl.Type]
		if !ok {
			d.invalid(node(join(fp, "type")), "the type of --%s must be string, bool, int, number, json or enum, not %q", name, fl.Type)
			continue
		}
		switch {
		case t == commands.Enum && len(fl.Values) == 0:
			d.invalid(key(fp), "--%s is an enum: list its values", name)
			continue
		case t != commands.Enum && len(fl.Values) > 0:
			d.invalid(node(join(fp, "values")), "values are for enum flags; --%s is %s", name, t)
		}
		cf := &commands.Flag{Name: name, Type: t, Required: fl.Required, Description: fl.Description}
		if t == commands.Enum {
			cf.Values = fl.Values
		}
		cmd.Flags = append(cmd.Flags, cf)
		if fl.Required {
			cmd.Requires = append(cmd.Requires, commands.Requirement{Any: []string{name}, Error: name + " requires --" + name})
		}
	}
	if _, declared := d.values[join(p, "args")]; !declared {
		cmd.Positionals = []*commands.Positional{{Name: "args", Variadic: true, Description: "arguments (not declared)"}}
	}
	for i, a := range decl.Args {
		if a == nil {
			continue
		}
		if a.Variadic && i != len(decl.Args)-1 {
			d.invalid(node(fmt.Sprintf("%s[%d]", join(p, "args"), i)), "only the last argument can be variadic")
		}
		cmd.Positionals = append(cmd.Positionals, &commands.Positional{Name: a.Name, Required: a.Required, Variadic: a.Variadic, Description: a.Description})
		if a.Required {
			cmd.Requires = append(cmd.Requires, commands.Requirement{Any: []string{commands.PositionalArgs}, Error: name + " requires " + a.Name})
		}
	}
	return cmd
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// minHeartbeatMs is the least temporal.heartbeat_ms: a worker reports four
// times within it, and the service's own clocks are coarser than a second.
const minHeartbeatMs = 2000
