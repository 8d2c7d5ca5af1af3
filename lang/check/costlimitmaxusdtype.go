package check

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// CostLimitMaxUSDType reports a cost_limit.max_usd that passes the load-time
// check only through Number() coercion.
var CostLimitMaxUSDType = &Analyzer{
	Name:     "cost-limit-max-usd-type",
	Severity: source.Error,
	Summary:  "cost_limit.max_usd is not a number (a string, null, a boolean or a list)",
	Doc: "The loader checks `Number(max_usd)`, so `\"5\"`, `\"\"` and `null` (0), `true` (1) and `[5]` pass, " +
		"but the raw value is used when the limit is exceeded: formatting it with `toFixed` " +
		"crashes the run with a TypeError instead of warning or stopping. " +
		"`null` and `\"\"` mean a limit of 0, which the first recorded cost exceeds. Values that " +
		"`Number()` rejects are reported by the parser (invalid-value).",
	Bad:  "cost_limit:\n  max_usd: \"5\"\n  action: stop",
	Good: "cost_limit:\n  max_usd: 5\n  action: stop",
	Fix:  "unquote a numeric string",
	Run:  runCostLimitMaxUSDType,
}

// polPlainNumber is a number YAML reads as a number when unquoted.
var polPlainNumber = lazyRE(`^[0-9]+(\.[0-9]+)?$`)

// polJSNumber is JavaScript's Number() of a YAML value, as the loader
// applies it to max_usd; ok is false when the result is NaN.
func polJSNumber(v ast.Value) (float64, bool) {
	switch v := ast.Resolve(v).(type) {
	case *ast.Scalar:
		switch v.Kind {
		case ast.Null:
			return 0, true
		case ast.Bool:
			if v.Bool {
				return 1, true
			}
			return 0, true
		case ast.Int, ast.Float:
			return v.Num, true
		}
		t := strings.TrimSpace(v.Text)
		if t == "" {
			return 0, true
		}
		if len(t) > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o') {
			base := 8
			if t[1] == 'x' {
				base = 16
			}
			n, err := strconv.ParseUint(t[2:], base, 64)
			return float64(n), err == nil
		}
		if strings.ContainsAny(t, "_xXpP") || strings.EqualFold(strings.TrimLeft(t, "+-"), "inf") || strings.EqualFold(t, "nan") {
			return 0, false
		}
		n, err := strconv.ParseFloat(t, 64)
		return n, err == nil
	case *ast.Sequence:
		switch len(v.Items) {
		case 0:
			return 0, true
		case 1:
			return polJSNumber(v.Items[0])
		}
	}
	return 0, false
}

func runCostLimitMaxUSDType(p *Pass) {
	c := polCostLimit(p.File)
	if c == nil || c.MaxUSD == nil {
		return
	}
	v := ast.Resolve(c.MaxUSD.Value)
	if s, ok := v.(*ast.Scalar); ok && (s.Kind == ast.Int || s.Kind == ast.Float) {
		return
	}
	n, ok := polJSNumber(v)
	if !ok || math.IsInf(n, 0) || n < 0 {
		return // invalid-value, from the parser
	}
	at := ast.SpanOf(c.MaxUSD.Value)
	var what string
	var fix *source.Fix
	switch v := v.(type) {
	case *ast.Scalar:
		switch v.Kind {
		case ast.Null:
			what = "null, which the loader reads as 0"
		case ast.Bool:
			what = fmt.Sprintf("the boolean %s, which the loader reads as %v", v.Text, n)
		default:
			t := strings.TrimSpace(v.Text)
			if t == "" {
				what = "an empty string, which the loader reads as 0"
				break
			}
			what = fmt.Sprintf("the string %q", v.Text)
			if polPlainNumber().MatchString(t) && v.Tag() == "" && c.MaxUSD.Value == ast.Value(v) {
				fix = &source.Fix{Message: fmt.Sprintf("Unquote %s", t), Edits: []source.Edit{p.Edit(at, t)}}
			}
		}
	default:
		what = fmt.Sprintf("a list, which the loader reads as %v", n)
	}
	d := p.Finding(at, "cost_limit.max_usd must be a number, got %s: it passes the load-time check, but the run crashes with a TypeError once the cost exceeds the limit", what)
	if fix != nil {
		d.Message += fmt.Sprintf("; write max_usd: %s", strings.TrimSpace(v.(*ast.Scalar).Text))
		d.Fixes = []source.Fix{*fix}
	}
	p.Report(d)
}
