package engine

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/render"
)

// BaseEnv is what every step of a run starts from:
// the whole process environment, then LOBSTER_ARGS_JSON and one
// LOBSTER_ARG_<NAME> per arg. Args do not change during a run, so a run
// builds it once.
func BaseEnv(process []string, args *jsvalue.Object) []string {
	var env envList
	for _, kv := range process {
		name, value, _ := strings.Cut(kv, "=")
		env.set(name, value)
	}
	env.set("LOBSTER_ARGS_JSON", jsvalue.Stringify(args, ""))
	for _, name := range args.Keys() {
		if envName := check.ArgEnvName(name); envName != "" {
			v, _ := args.Get(name)
			env.set("LOBSTER_ARG_"+envName, render.String(v))
		}
	}
	return env.list()
}

// Env is the environment of a step: base (see BaseEnv), then each env
// layer (the workflow's env, the step's, a branch's or sub-step's) in
// order, each string value templated against the args and the results so
// far, non-string values dropped, later entries over earlier ones. Values
// are not shell-expanded.
func Env(base []string, args *jsvalue.Object, results render.Results, layers ...*ast.Field) []string {
	var env envList
	for _, layer := range layers {
		if layer == nil {
			continue
		}
		o := ast.ObjectOf(layer.Value)
		if o == nil {
			continue
		}
		for _, f := range o.Fields {
			if t, ok := f.Value.(*ast.Template); ok && t.Scalar != nil {
				env.set(f.Key.Text, render.Template(t.Scalar.Text, args, results))
			}
		}
	}
	if len(env.names) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(env.names))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, overridden := env.values[name]; !overridden {
			out = append(out, kv)
		}
	}
	return append(out, env.list()...)
}

// envList is an environment with set-in-place semantics and stable order.
type envList struct {
	names  []string
	values map[string]string
}

func (e *envList) set(name, value string) {
	if e.values == nil {
		e.values = map[string]string{}
	}
	if _, ok := e.values[name]; !ok {
		e.names = append(e.names, name)
	}
	e.values[name] = value
}

func (e *envList) list() []string {
	out := make([]string, len(e.names))
	for i, n := range e.names {
		out[i] = n + "=" + e.values[n]
	}
	return out
}

// Getenv reads a variable of an environment list, for the settings the
// runtime reads from a step's merged env (LOBSTER_SHELL, ComSpec).
func Getenv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if n, v, _ := strings.Cut(env[i], "="); n == name {
			return v
		}
	}
	return ""
}
