package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// BracedRef reports ${a.b}: a step reference written with braces, which is
// not Lobster syntax.
var BracedRef = &Analyzer{
	Name:     "braced-ref",
	Severity: source.Error,
	Summary:  "a step reference written with braces (${a.b}) is not Lobster syntax",
	Doc: "`${name}` substitutes an arg and `$id.path` a step result; `${a.b}`, `${a.b.c}` and " +
		"`${a-b.c}` match neither pattern, so Lobster leaves the text alone. In shell text " +
		"`sh` then fails with \"bad substitution\"; in env values, stdin and workflow args the text stays " +
		"literal. Args are substituted as plain text and have no fields: read structured args from " +
		"`LOBSTER_ARGS_JSON`.\n\nInside single quotes or a quoted heredoc the shell does not expand the " +
		"text, which may be meant for the program: there only names of steps and args are reported, and " +
		"inside a backquoted string (a JavaScript template literal) only as a warning. A braced name that is neither a step nor an arg, outside shell text, is reported as a " +
		"warning: the text reaches its reader unchanged.",
	Bad:  "- id: fetch\n  run: gh api repos/o/r/pulls/1\n- id: post\n  run: ./post.sh \"${fetch.title}\"",
	Good: "- id: fetch\n  run: gh api repos/o/r/pulls/1\n- id: post\n  run: ./post.sh \"$fetch.json.title\"",
	Fix:  "when the name is a step visible there, rewrite `${a.b}` to `$a.b` if `b` is a result field, else to `$a.json.b` (check that `json` is what you meant)",
	Run:  runBracedRef,
}

func runBracedRef(p *Pass) {
	var sc refShellScan
	var scField *ast.Field
	for i := range p.Info.Refs {
		rs := &p.Info.Refs[i]
		r, ok := rs.Ref.(*ast.BracedRef)
		if !ok {
			continue
		}
		// Where the shell does not expand the text.
		literal, comment, template := false, false, false
		if rs.Context == InShell {
			s := refFieldScalar(rs.Field)
			if s == nil {
				continue
			}
			if scField != rs.Field {
				scField = rs.Field
				sc = refShellScan{text: s.Text}
			}
			if at := refDecodedOffset(s, r.Pos()); at >= 0 {
				switch sc.stateAt(at) {
				case refShComment:
					comment = true
				case refShSingle, refShQuotedHeredoc:
					literal = true
					template = refInBacktick(s.Text, at)
				}
			}
		}
		if comment {
			continue
		}
		refReportBraced(p, rs, r, literal, template)
	}
}

func refReportBraced(p *Pass, rs *RefSite, r *ast.BracedRef, literal, template bool) {
	text := p.Text(ast.SpanOf(r))
	if !strings.HasPrefix(text, "${") {
		text = ast.RefText(r)
	}
	res := p.Info.ResolveSite(rs, r.ID)
	isStep := res.Visibility != Unknown && res.Target != nil
	_, isArg := p.Info.ArgBy[r.ID]

	effect := "the text stays literal"
	switch {
	case rs.Context == InShell && !literal:
		effect = "the shell fails with \"bad substitution\""
	case rs.Context == InShell:
		effect = "in single quotes or a quoted heredoc the shell passes it on literally"
	}

	var d source.Diagnostic
	switch {
	case isStep:
		if literal && res.LoopVar {
			return // a JavaScript template literal in quotes, most likely
		}
		want, ok := refBracedRewrite(r, res.LoopVar)
		switch {
		case rs.Context == InCwd:
			d = p.Finding(ast.SpanOf(r), "%q is not a Lobster reference (%s), and cwd substitutes only ${arg}: step results cannot be used in cwd", text, effect)
		case !ok:
			d = p.Finding(ast.SpanOf(r), "%q is not a Lobster reference (%s), and a key with \"-\" cannot be reached by a reference: pass \"$%s.json\" through stdin and extract the key with jq", text, effect, r.ID)
		default:
			d = p.Finding(ast.SpanOf(r), "%q is not a Lobster reference (%s); write %q", text, effect, want)
			if v := res.Visibility; (v == Visible || v == WorkflowLevel) && !refAbsorbsAfter(rs) {
				d.Fixes = []source.Fix{{Message: fmt.Sprintf("Rewrite as %q", want), Edits: []source.Edit{p.Edit(ast.SpanOf(r), want)}}}
			}
		}
	case isArg:
		d = p.Finding(ast.SpanOf(r), "%q is not a Lobster reference (%s): args are substituted as plain text and have no fields; read structured args from LOBSTER_ARGS_JSON", text, effect)
	case literal:
		return
	case rs.Context == InShell:
		d = p.Finding(ast.SpanOf(r), "%q is not a Lobster reference and %q names no step or arg; %s", text, r.ID, effect)
	default:
		d = p.Finding(ast.SpanOf(r), "%q is not a Lobster reference and %q names no step or arg; %s", text, r.ID, effect)
		d.Severity = source.Warning
	}
	if template {
		// Unexpanded text inside a backquoted string: most likely a
		// JavaScript template literal meant for the program.
		d.Severity = source.Warning
	}
	p.Report(d)
}

// refInBacktick reports whether decoded offset at stands after an
// unmatched backquote on its line: inside a JavaScript template literal of a
// quoted script.
func refInBacktick(text string, at int) bool {
	start := strings.LastIndexByte(text[:at], '\n') + 1
	return strings.Count(text[start:at], "`")%2 == 1
}

// refBracedRewrite is the step reference a braced one stands for: $a.b when b
// is a result field (json or stdout for a loop variable), else $a.json.b. It
// fails when a segment holds a "-", which a path cannot.
func refBracedRewrite(r *ast.BracedRef, loopVar bool) (string, bool) {
	var b strings.Builder
	b.WriteString("$" + r.ID)
	first := r.Path[0].Name
	if loopVar && !refIsLoopVarField(first) || !loopVar && !IsResultField(first) {
		b.WriteString(".json")
	}
	for _, s := range r.Path {
		if strings.IndexByte(s.Name, '-') >= 0 {
			return "", false
		}
		b.WriteString("." + s.Name)
	}
	return b.String(), true
}

// refAbsorbsAfter reports whether the text right after a reference would be
// read into an unbraced reference path ("${a.b}.txt", "${a.b}x").
func refAbsorbsAfter(rs *RefSite) bool {
	_, rest, _, ok := refTextAfter(rs)
	if !ok {
		return true
	}
	return len(rest) > 0 && parser.IsWordByte(rest[0]) || len(rest) > 1 && rest[0] == '.' && parser.IsWordByte(rest[1])
}

// Shell quoting states.
const (
	refShNormal = iota
	refShSingle
	refShDouble
	refShComment
	refShQuotedHeredoc   // the body of <<'EOF': literal
	refShExpandedHeredoc // the body of <<EOF: expanded like double quotes
)

// refShellScan tells, for increasing offsets of a shell text, whether the
// text there is unquoted, in single or double quotes, in a comment, or in a
// heredoc body. It is a lexical approximation of POSIX sh (command
// substitutions are not nested), enough to tell literal text from expanded
// text.
type refShellScan struct {
	text    string
	i       int
	state   int
	pending []refHeredoc // heredocs whose body starts at the next newline
	cur     refHeredoc
	bol     bool // at the start of a heredoc body line
}

type refHeredoc struct {
	word   string
	quoted bool
	strip  bool // <<-: leading tabs are stripped
}

// stateAt advances to offset off (not before the previous call's) and
// returns the state there.
func (sc *refShellScan) stateAt(off int) int {
	for sc.i < off && sc.i < len(sc.text) {
		sc.step()
	}
	return sc.state
}

func (sc *refShellScan) step() {
	t := sc.text
	c := t[sc.i]
	switch sc.state {
	case refShSingle:
		if c == '\'' {
			sc.state = refShNormal
		}
		sc.i++
	case refShDouble:
		switch c {
		case '\\':
			sc.i += 2
			return
		case '"':
			sc.state = refShNormal
		}
		sc.i++
	case refShComment:
		if c == '\n' {
			sc.newline()
			return
		}
		sc.i++
	case refShQuotedHeredoc, refShExpandedHeredoc:
		if sc.bol {
			sc.bol = false
			end := strings.IndexByte(t[sc.i:], '\n')
			if end < 0 {
				end = len(t)
			} else {
				end += sc.i
			}
			line := t[sc.i:end]
			if sc.cur.strip {
				line = strings.TrimLeft(line, "\t")
			}
			if line == sc.cur.word {
				// The delimiter line ends the body.
				sc.i = end
				sc.state = refShNormal
				if sc.i < len(t) {
					sc.newline()
				}
				return
			}
		}
		if c == '\n' {
			sc.bol = true
		}
		sc.i++
	default:
		switch c {
		case '\\':
			sc.i += 2
			return
		case '\'':
			sc.state = refShSingle
		case '"':
			sc.state = refShDouble
		case '#':
			if sc.i == 0 || strings.IndexByte(" \t\n;&|()", t[sc.i-1]) >= 0 {
				sc.state = refShComment
			}
		case '\n':
			sc.newline()
			return
		case '<':
			if strings.HasPrefix(t[sc.i:], "<<") && !strings.HasPrefix(t[sc.i:], "<<<") {
				sc.i += 2
				sc.heredocWord()
				return
			}
		}
		sc.i++
	}
}

// newline handles the newline at sc.i: pending heredoc bodies start after it.
func (sc *refShellScan) newline() {
	sc.i++
	sc.state = refShNormal
	if len(sc.pending) > 0 {
		sc.cur = sc.pending[0]
		sc.pending = sc.pending[1:]
		sc.state = refShExpandedHeredoc
		if sc.cur.quoted {
			sc.state = refShQuotedHeredoc
		}
		sc.bol = true
	}
}

// heredocWord reads the delimiter after "<<" (or "<<-").
func (sc *refShellScan) heredocWord() {
	t := sc.text
	h := refHeredoc{}
	if sc.i < len(t) && t[sc.i] == '-' {
		h.strip = true
		sc.i++
	}
	for sc.i < len(t) && (t[sc.i] == ' ' || t[sc.i] == '\t') {
		sc.i++
	}
	var w strings.Builder
	for sc.i < len(t) && strings.IndexByte(" \t\n;&|<>()", t[sc.i]) < 0 {
		switch c := t[sc.i]; c {
		case '\'', '"':
			h.quoted = true
			end := strings.IndexByte(t[sc.i+1:], c)
			if end < 0 {
				sc.i = len(t)
				break
			}
			w.WriteString(t[sc.i+1 : sc.i+1+end])
			sc.i += end + 2
		case '\\':
			h.quoted = true
			if sc.i+1 < len(t) {
				w.WriteByte(t[sc.i+1])
			}
			sc.i += 2
		default:
			w.WriteByte(c)
			sc.i++
		}
	}
	h.word = w.String()
	if h.word != "" {
		sc.pending = append(sc.pending, h)
	}
}
