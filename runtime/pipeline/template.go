package pipeline

//lint:file-ignore ST1005 error messages are the reference's, word for word (capitals included)

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/source"
)

// templateCommand is template: one rendered string per item.
func templateCommand(ctx context.Context, c *Call) (Output, error) {
	text, ok := c.Args.String("text")
	if !ok || text == "" {
		if name, ok := c.Args.String("file"); ok && name != "" {
			file := name
			if !filepath.IsAbs(file) && c.Env.Dir != "" {
				file = filepath.Join(c.Env.Dir, file)
			}
			data, err := bounded.ReadFile(file, maxDataFile)
			if err != nil {
				return Output{}, nodeFileError(err, name)
			}
			text = string(source.DecodeUTF8(data)) // as the reference reads it
		} else {
			text = strings.Join(c.Args.Positional, " ")
		}
	}
	if text == "" {
		return Output{}, errors.New("template requires --text or --file (or positional text)")
	}
	return mapLazy(c.Input, func(item any) (any, error) {
		return RenderTemplate(text, item)
	}), nil
}

// RenderTemplate renders text against item: each {{ path | filter args… }}
// is replaced by the value, rendered as text.
func RenderTemplate(text string, item any) (string, error) {
	var b strings.Builder
	last := 0
	for _, m := range placeholder.FindAllStringSubmatchIndex(text, -1) {
		b.WriteString(text[last:m[0]])
		v, err := evalTemplateExpr(text[m[2]:m[3]], item)
		if err != nil {
			return "", err
		}
		b.WriteString(cellText(v))
		last = m[1]
	}
	b.WriteString(text[last:])
	return b.String(), nil
}

// evalTemplateExpr evaluates `path | filter args | …`.
func evalTemplateExpr(expr string, item any) (any, error) {
	parts := splitFilters(expr)
	v := resolvePath(item, parts[0])
	for _, p := range parts[1:] {
		name, args := parseFilter(p)
		var err error
		if v, err = applyFilter(name, args, v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// splitFilters splits expr on "|" outside quotes (a backslash inside quotes
// keeps the next character) and trims the parts.
func splitFilters(expr string) []string {
	var parts []string
	var quote byte
	start := 0
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '|':
			parts = append(parts, js.Trim(expr[start:i]))
			start = i + 1
		}
	}
	return append(parts, js.Trim(expr[start:]))
}

// parseFilter splits a filter into its name and arguments: words separated
// by spaces, or quoted with ' or " (a backslash keeps the next character;
// an unterminated quote runs to the end).
func parseFilter(s string) (string, []string) {
	var words []string
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			i++
			continue
		}
		if q := s[i]; q == '\'' || q == '"' {
			var b strings.Builder
			i++
			for i < len(s) && s[i] != q {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
				i++
			}
			i++ // the closing quote
			words = append(words, b.String())
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' {
			j++
		}
		words = append(words, s[i:j])
		i = j
	}
	if len(words) == 0 {
		return "", nil
	}
	return words[0], words[1:]
}

// arg is the i-th filter argument, or ok false.
func arg(args []string, i int) (string, bool) {
	if i < len(args) {
		return args[i], true
	}
	return "", false
}

// stringOf is String(v ?? "").
func stringOf(v any) string {
	if isNullish(v) {
		return ""
	}
	return jsString(v)
}

// applyFilter applies one template filter.
func applyFilter(name string, args []string, v any) (any, error) {
	switch name {
	case "upper":
		return js.ToUpper(stringOf(v)), nil
	case "lower":
		return js.ToLower(stringOf(v)), nil
	case "trim":
		return js.Trim(stringOf(v)), nil
	case "truncate":
		n := 80.0
		if a, ok := arg(args, 0); ok {
			if f, ok := parseIntJS(a); ok {
				n = f
			}
		}
		s := stringOf(v)
		if l := float64(utf16Len(s)); l > n {
			if n < 0 {
				n = max(0, l+n) // slice(0, -k) drops the last k units
			}
			return utf16Slice(s, int(n)) + "...", nil
		}
		return s, nil
	case "replace":
		from, _ := arg(args, 0)
		to, _ := arg(args, 1)
		return replaceAllJS(stringOf(v), from, to), nil
	case "split":
		sep, ok := arg(args, 0)
		if !ok {
			sep = ","
		}
		var out []any
		s := stringOf(v)
		if sep == "" {
			for _, r := range s {
				for _, u := range units(r) {
					out = append(out, string(rune(u)))
				}
			}
			if out == nil {
				out = []any{}
			}
			return out, nil
		}
		for p := range strings.SplitSeq(s, sep) {
			out = append(out, p)
		}
		return out, nil
	case "first", "last":
		arr, ok := v.([]any)
		if !ok {
			return v, nil
		}
		if len(arr) == 0 {
			return undefined, nil
		}
		if name == "first" {
			return arr[0], nil
		}
		return arr[len(arr)-1], nil
	case "length":
		switch v := v.(type) {
		case []any:
			return float64(len(v)), nil
		case string:
			return float64(utf16Len(v)), nil
		}
		return 0.0, nil
	case "join":
		sep, ok := arg(args, 0)
		if !ok {
			sep = ", "
		}
		arr, isArr := v.([]any)
		if !isArr {
			return stringOf(v), nil
		}
		parts := make([]string, len(arr))
		for i, e := range arr {
			parts[i] = stringOf(e)
		}
		return strings.Join(parts, sep), nil
	case "json":
		if v == jsvalue.Undefined {
			return undefined, nil
		}
		return pretty(v), nil
	case "string":
		return stringOf(v), nil
	case "default":
		if isNullish(v) || v == "" {
			if a, ok := arg(args, 0); ok {
				return a, nil
			}
			return undefined, nil
		}
		return v, nil
	case "round":
		f := toNumber(v)
		if math.IsNaN(f) {
			return v, nil
		}
		digits := 0.0
		if a, ok := arg(args, 0); ok {
			if d, ok := parseIntJS(a); ok {
				digits = d
			}
		}
		if digits < 0 || digits > 100 {
			return nil, errors.New("toFixed() digits argument must be between 0 and 100")
		}
		// Number(v.toFixed(digits)): a number again.
		r, _ := strconv.ParseFloat(toFixed(f, int(digits)), 64)
		if math.IsInf(f, 0) || math.Abs(f) >= 1e21 {
			r = f
		}
		return r, nil
	case "date":
		return dateFilter(v, args), nil
	}
	return nil, fmt.Errorf("Unknown template filter: %s", name)
}

// replaceAllJS is String.prototype.replaceAll with a string pattern (an
// empty pattern inserts between UTF-16 units, which for text without
// surrogate pairs is between characters).
func replaceAllJS(s, from, to string) string {
	if from == "" {
		var b strings.Builder
		b.WriteString(to)
		for _, r := range s {
			b.WriteRune(r)
			b.WriteString(to)
		}
		return b.String()
	}
	return strings.ReplaceAll(s, from, to)
}

// parseIntJS is parseInt(s, 10); ok is false for NaN.
func parseIntJS(s string) (float64, bool) {
	s = js.Trim(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	f, n := 0.0, 0
	for ; n < len(s) && '0' <= s[n] && s[n] <= '9'; n++ {
		f = f*10 + float64(s[n]-'0')
	}
	if n == 0 {
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}

// toFixed is Number.prototype.toFixed(digits): the exact value of f
// rounded half away from zero (the larger n on a tie), or String(f) from
// 1e21 up.
func toFixed(f float64, digits int) string {
	if math.IsInf(f, 0) || math.Abs(f) >= 1e21 {
		return jsString(f)
	}
	neg := f < 0
	exact := new(big.Float).SetPrec(0).SetFloat64(math.Abs(f)).Text('f', 1100)
	intPart, frac, _ := strings.Cut(exact, ".")
	frac += strings.Repeat("0", digits+1)
	digitsText := intPart + frac[:digits]
	rest := frac[digits:]
	n := new(big.Int)
	n.SetString(digitsText, 10)
	if rest[0] >= '5' {
		n.Add(n, big.NewInt(1))
	}
	s := n.String()
	if len(s) <= digits {
		s = strings.Repeat("0", digits-len(s)+1) + s
	}
	if digits > 0 {
		s = s[:len(s)-digits] + "." + s[len(s)-digits:]
	}
	if neg && strings.Trim(s, "0.") != "" {
		s = "-" + s
	}
	return s
}

// dateFilter is the date filter: epoch milliseconds (a number or a string
// of digits) or a date string, formatted in UTC.
func dateFilter(v any, args []string) any {
	var t time.Time
	ok := false
	switch x := v.(type) {
	case float64:
		t, ok = fromMillis(x)
	case string:
		if x != "" && strings.Trim(x, "0123456789") == "" {
			f, _ := strconv.ParseFloat(x, 64)
			t, ok = fromMillis(f)
		} else {
			t, ok = parseDate(x)
		}
	}
	if !ok {
		return jsString(v)
	}
	t = t.UTC()
	format, has := arg(args, 0)
	if !has || format == "" {
		return isoString(t)
	}
	for _, r := range []struct{ tok, val string }{
		{"YYYY", fmt.Sprintf("%04d", t.Year())},
		{"MM", fmt.Sprintf("%02d", int(t.Month()))},
		{"DD", fmt.Sprintf("%02d", t.Day())},
		{"HH", fmt.Sprintf("%02d", t.Hour())},
		{"mm", fmt.Sprintf("%02d", t.Minute())},
		{"ss", fmt.Sprintf("%02d", t.Second())},
	} {
		format = strings.Replace(format, r.tok, r.val, 1)
	}
	return format
}

// maxDateMillis is the largest time value JavaScript's Date holds.
const maxDateMillis = 8.64e15

func fromMillis(ms float64) (time.Time, bool) {
	if math.IsNaN(ms) || math.Abs(ms) > maxDateMillis {
		return time.Time{}, false
	}
	ms = math.Trunc(ms)
	return time.UnixMilli(int64(ms)), true
}

// isoString is Date.prototype.toISOString.
func isoString(t time.Time) string {
	y := t.Year()
	year := fmt.Sprintf("%04d", y)
	if y < 0 || y > 9999 {
		year = fmt.Sprintf("%+07d", y)
	}
	return year + t.Format("-01-02T15:04:05.000Z")
}

// parseDate reads the date strings JavaScript's Date reads most often:
// ISO 8601 forms (date-only forms are UTC, date-times without a zone are
// local time) and RFC 1123/2822 forms.
func parseDate(s string) (time.Time, bool) {
	s = js.Trim(s)
	for _, l := range []string{"2006-01-02", "2006-01", "2006"} {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t, true
		}
	}
	for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	for _, l := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(l, s, time.Local); err == nil {
			return t, true
		}
	}
	for _, l := range []string{time.RFC1123, time.RFC1123Z, time.RFC850, time.ANSIC, "Mon, 2 Jan 2006 15:04:05 MST", "Mon, 2 Jan 2006 15:04:05 -0700", "2 Jan 2006 15:04:05 -0700", "Jan 2, 2006", "January 2, 2006"} {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// nodeFileError words a file read error as Node's fs does.
func nodeFileError(err error, path string) error {
	switch {
	case errors.Is(err, syscall.ENOENT):
		return fmt.Errorf("ENOENT: no such file or directory, open '%s'", path)
	case errors.Is(err, syscall.EISDIR):
		return errors.New("EISDIR: illegal operation on a directory, read")
	case errors.Is(err, syscall.EACCES):
		return fmt.Errorf("EACCES: permission denied, open '%s'", path)
	}
	return err
}
