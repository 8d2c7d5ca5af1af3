package pipeline

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/js"
)

// whereCommand is where: keep the items for which the predicate
// holds, with JavaScript's loose comparison.
func whereCommand(ctx context.Context, c *Call) (Output, error) {
	if len(c.Args.Positional) == 0 || c.Args.Positional[0] == "" {
		return Output{}, errors.New("where requires an expression (e.g. field=value)")
	}
	p, err := ParsePredicate(c.Args.Positional[0])
	if err != nil {
		return Output{}, err
	}
	return filterLazy(c.Input, p.Match), nil
}

// A Predicate is a parsed where expression: path op value.
type Predicate struct {
	Path  string
	Op    string // == != < <= > >= ("=" is read as "==")
	Value any    // the literal: true, false, null, a number or the text
}

// whereOps are the operators in the order the reference's pattern tries
// them.
var whereOps = []string{"==", "=", "!=", "<=", ">=", "<", ">"}

// ParsePredicate parses a where expression as the reference's anchored
// pattern `^([a-zA-Z0-9_.]+)\s*(==|=|!=|<=|>=|<|>)\s*(.+)$` reads it,
// backtracking included (so `x==` is x = "=", and `a===1` is a == "=1").
func ParsePredicate(expr string) (*Predicate, error) {
	invalid := errors.New("Invalid where expression: " + expr)
	i := 0
	for i < len(expr) && pathByte(expr[i]) {
		i++
	}
	if i == 0 {
		return nil, invalid
	}
	path := expr[:i]
	rest := strings.TrimLeftFunc(expr[i:], js.IsSpace)
	for _, op := range whereOps {
		if !strings.HasPrefix(rest, op) {
			continue
		}
		if value, ok := whereValue(rest[len(op):]); ok {
			if op == "=" {
				op = "=="
			}
			return &Predicate{Path: path, Op: op, Value: whereLiteral(value)}, nil
		}
	}
	return nil, invalid
}

func pathByte(c byte) bool {
	return c == '_' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// whereValue matches `\s*(.+)$` against r: the longest match of the
// white space leaves at least one character, and the value has no line
// terminator.
func whereValue(r string) (string, bool) {
	// Offsets where the value may start: after each leading space,
	// longest first.
	starts := []int{0}
	for i, c := range r {
		if !js.IsSpace(c) {
			break
		}
		starts = append(starts, i+utf8.RuneLen(c))
	}
	for k := len(starts) - 1; k >= 0; k-- {
		v := r[starts[k]:]
		if v != "" && !strings.ContainsAny(v, "\n\r\u2028\u2029") {
			return v, true
		}
	}
	return "", false
}

// whereLiteral reads the value: true, false and null exactly; a number
// when Number() reads it and it is not blank; else the text.
func whereLiteral(s string) any {
	switch s {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	}
	if js.Trim(s) != "" {
		if f, ok := js.Number(s); ok {
			return f
		}
	}
	return s
}

// Match reports whether the item satisfies the predicate.
func (p *Predicate) Match(item any) bool {
	v := lookupWhere(item, p.Path)
	switch p.Op {
	case "==":
		return looseEqual(v, p.Value)
	case "!=":
		return !looseEqual(v, p.Value)
	}
	return compareLoose(v, p.Op, p.Value)
}
