package check

import (
	"sort"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
)

// This file finds where the Lobster references of a shell text stand for the
// shell: unquoted, in single or double quotes, in a heredoc body, in a
// comment. The references are substituted as raw text before the shell
// parses the script, so the place decides what a value with
// quotes, "$" or backticks does, and how a rewrite to "$LOBSTER_ARG_N" must
// be quoted. It is a linear lexical scan of POSIX sh, not a parser: command
// substitutions, backquotes, parameter expansions, arithmetic, comments and
// heredocs are followed well enough to know the quoting at each reference.

// aeQuote is the quoting at a place in shell text.
type aeQuote uint8

const (
	aeUnquoted      aeQuote = iota // a plain word (also inside $(…) and `…`)
	aeSingle                       // inside '…'
	aeDouble                       // inside "…"
	aeHeredoc                      // in the body of an unquoted heredoc: expansions happen, quotes are text
	aeHeredocQuoted                // in the body of a quoted heredoc (<<'EOF'): nothing is expanded
	aeComment                      // in a comment
)

// aeShPos is where one reference stands.
type aeShPos struct {
	Quote aeQuote
	Open  int  // decoded offset of the opening quote for aeSingle/aeDouble, else -1
	Alone bool // the reference is the whole content of its quotes: '${x}' or "${x}"
	Odd   bool // inside backquotes, a ${…} expansion or arithmetic: no rewrite is offered
	Arith bool // inside $((…))
}

// frame kinds of the lexer.
const (
	aeFrCmd   = iota // the script or a $(…) command substitution
	aeFrDq           // "…"
	aeFrBq           // `…`
	aeFrParam        // ${…}
	aeFrArith        // $((…))
)

type aeFrame struct {
	kind  int
	open  int // offset of the opening character
	depth int // parentheses inside $(…) or $((…))
}

type aeHeredocSpec struct {
	delim  string
	quoted bool
	dash   bool
}

// aeShellPositions returns the place of each reference (decoded ranges, in
// order) in a shell text.
func aeShellPositions(text string, refs []aeSpan) []aeShPos {
	out := make([]aeShPos, len(refs))
	if len(refs) == 0 {
		return out
	}
	lx := aeLexer{text: text, refs: refs, out: out}
	lx.run()
	return out
}

type aeLexer struct {
	text    string
	refs    []aeSpan
	out     []aeShPos
	k       int // next reference
	stack   []aeFrame
	pending []aeHeredocSpec
}

func (lx *aeLexer) top() *aeFrame { return &lx.stack[len(lx.stack)-1] }

// record stores the place of the references that start in [from, to) with
// quoting q (used for regions skipped in one piece: single quotes, comments,
// heredoc bodies).
func (lx *aeLexer) record(from, to int, q aeQuote, open int) {
	for lx.k < len(lx.refs) && lx.refs[lx.k].I < to {
		r := lx.refs[lx.k]
		pos := aeShPos{Quote: q, Open: open, Odd: lx.odd()}
		switch q {
		case aeSingle:
			pos.Alone = open == r.I-1 && r.J < len(lx.text) && lx.text[r.J] == '\''
		case aeHeredoc, aeHeredocQuoted:
			// A comment line of the script (or program) in the body.
			line := lx.text[strings.LastIndexByte(lx.text[:r.I], '\n')+1 : r.I]
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") {
				pos.Quote = aeComment
			}
		}
		lx.out[lx.k] = pos
		lx.k++
	}
}

// odd reports whether the current place is inside backquotes, a parameter
// expansion or arithmetic.
func (lx *aeLexer) odd() bool {
	for _, f := range lx.stack {
		if f.kind == aeFrBq || f.kind == aeFrParam || f.kind == aeFrArith {
			return true
		}
	}
	return false
}

func (lx *aeLexer) arith() bool {
	for _, f := range lx.stack {
		if f.kind == aeFrArith {
			return true
		}
	}
	return false
}

// wordStart reports whether offset i starts a word for '#': after a blank,
// an operator or at the start.
func (lx *aeLexer) wordStart(i int) bool {
	if i == 0 {
		return true
	}
	switch lx.text[i-1] {
	case ' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>':
		return true
	}
	return false
}

func (lx *aeLexer) run() {
	text := lx.text
	lx.stack = append(lx.stack[:0], aeFrame{kind: aeFrCmd, open: -1})
	for i := 0; i < len(text) && lx.k < len(lx.refs); {
		// A reference is an opaque word: record its place and skip it. (A
		// reference right after a backslash was skipped with it: it is still
		// substituted, so it is recorded where the scan stands.)
		if r := lx.refs[lx.k]; r.I <= i {
			lx.out[lx.k] = lx.here(r)
			lx.k++
			i = max(r.J, i+1)
			continue
		}
		f := lx.top()
		c := text[i]
		switch f.kind {
		case aeFrDq:
			switch c {
			case '\\':
				i += 2
				continue
			case '"':
				lx.stack = lx.stack[:len(lx.stack)-1]
				i++
				continue
			case '$', '`':
				if n := lx.dollar(i); n > 0 {
					i += n
					continue
				}
			}
			i++
			continue
		case aeFrBq:
			switch c {
			case '\\':
				i += 2
				continue
			case '`':
				lx.stack = lx.stack[:len(lx.stack)-1]
				i++
				continue
			}
		case aeFrParam:
			if c == '}' {
				lx.stack = lx.stack[:len(lx.stack)-1]
				i++
				continue
			}
		case aeFrArith:
			switch c {
			case '(':
				f.depth++
			case ')':
				if f.depth == 0 {
					lx.stack = lx.stack[:len(lx.stack)-1]
					if i+1 < len(text) && text[i+1] == ')' {
						i++
					}
					i++
					continue
				}
				f.depth--
			}
		case aeFrCmd:
			switch c {
			case '#':
				if lx.wordStart(i) {
					end := strings.IndexByte(text[i:], '\n')
					if end < 0 {
						end = len(text)
					} else {
						end += i
					}
					lx.record(i, end, aeComment, -1)
					i = end
					continue
				}
			case '(':
				f.depth++
			case ')':
				if f.depth > 0 {
					f.depth--
				} else if len(lx.stack) > 1 {
					lx.stack = lx.stack[:len(lx.stack)-1]
				}
				i++
				continue
			case '<':
				if n := lx.heredocOp(i); n > 0 {
					i += n
					continue
				}
			case '\n':
				i++
				if len(lx.pending) > 0 {
					i = lx.heredocBodies(i)
				}
				continue
			}
		}
		// Common to the unquoted contexts.
		switch c {
		case '\\':
			i += 2
			continue
		case '\'':
			end := strings.IndexByte(text[i+1:], '\'')
			if end < 0 {
				end = len(text)
			} else {
				end += i + 1
			}
			lx.record(i+1, end, aeSingle, i)
			i = end + 1
			continue
		case '"':
			lx.stack = append(lx.stack, aeFrame{kind: aeFrDq, open: i})
			i++
			continue
		case '$', '`':
			if n := lx.dollar(i); n > 0 {
				i += n
				continue
			}
		}
		i++
	}
}

// here is the place of a reference that starts where the scan stands.
func (lx *aeLexer) here(r aeSpan) aeShPos {
	pos := aeShPos{Quote: aeUnquoted, Open: -1, Odd: lx.odd(), Arith: lx.arith()}
	for s := len(lx.stack) - 1; s >= 0; s-- {
		if lx.stack[s].kind == aeFrDq {
			pos.Quote, pos.Open = aeDouble, lx.stack[s].open
			break
		}
		if lx.stack[s].kind == aeFrCmd {
			break
		}
	}
	if f := lx.top(); f.kind == aeFrDq {
		pos.Alone = f.open == r.I-1 && r.J < len(lx.text) && lx.text[r.J] == '"'
	}
	return pos
}

// dollar opens $(…), $((…)), ${…} or `…` at i and returns the bytes
// consumed, or 0.
func (lx *aeLexer) dollar(i int) int {
	text := lx.text
	if text[i] == '`' {
		lx.stack = append(lx.stack, aeFrame{kind: aeFrBq, open: i})
		return 1
	}
	if i+1 >= len(text) {
		return 0
	}
	switch text[i+1] {
	case '(':
		if i+2 < len(text) && text[i+2] == '(' {
			lx.stack = append(lx.stack, aeFrame{kind: aeFrArith, open: i})
			return 3
		}
		lx.stack = append(lx.stack, aeFrame{kind: aeFrCmd, open: i})
		return 2
	case '{':
		lx.stack = append(lx.stack, aeFrame{kind: aeFrParam, open: i})
		return 2
	}
	return 0
}

// heredocOp reads a heredoc operator "<<[-] word" at i and queues its body;
// it returns the bytes consumed, or 0 when there is none ("<<<", "<").
func (lx *aeLexer) heredocOp(i int) int {
	text := lx.text
	if !strings.HasPrefix(text[i:], "<<") || strings.HasPrefix(text[i:], "<<<") {
		return 0
	}
	j := i + 2
	spec := aeHeredocSpec{}
	if j < len(text) && text[j] == '-' {
		spec.dash = true
		j++
	}
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	var delim strings.Builder
	for j < len(text) {
		c := text[j]
		if c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == ')' {
			break
		}
		switch c {
		case '\'', '"':
			spec.quoted = true
			end := strings.IndexByte(text[j+1:], c)
			if end < 0 {
				end = len(text) - j - 1
			}
			delim.WriteString(text[j+1 : j+1+end])
			j += end + 2
			continue
		case '\\':
			spec.quoted = true
			if j+1 < len(text) {
				delim.WriteByte(text[j+1])
			}
			j += 2
			continue
		}
		delim.WriteByte(c)
		j++
	}
	j = min(j, len(text))
	if delim.Len() == 0 {
		return j - i
	}
	spec.delim = delim.String()
	lx.pending = append(lx.pending, spec)
	return j - i
}

// heredocBodies skips the bodies of the queued heredocs, which start at i,
// recording the references in them, and returns where the script resumes.
func (lx *aeLexer) heredocBodies(i int) int {
	text := lx.text
	for _, h := range lx.pending {
		start := i
		end := len(text)
		for i < len(text) {
			nl := strings.IndexByte(text[i:], '\n')
			lineEnd := len(text)
			if nl >= 0 {
				lineEnd = i + nl
			}
			line := text[i:lineEnd]
			if h.dash {
				line = strings.TrimLeft(line, "\t")
			}
			if line == h.delim {
				end = i
				i = min(lineEnd+1, len(text))
				break
			}
			i = min(lineEnd+1, len(text))
		}
		q := aeHeredoc
		if h.quoted {
			q = aeHeredocQuoted
		}
		lx.record(start, end, q, -1)
	}
	lx.pending = lx.pending[:0]
	return i
}

// aeShellPosCache holds the places of the references of the last shell
// field asked about: reference sites come grouped by field.
type aeShellPosCache struct {
	field *ast.Field
	refs  []ast.Ref
	pos   []aeShPos
}

// at is the quoting at a reference of a run/command field.
func (c *aeShellPosCache) at(f *ast.Field, r ast.Ref) aeQuote {
	if c.field != f {
		c.field, c.refs, c.pos = f, nil, nil
		if sh, ok := f.Value.(*ast.Shell); ok && sh.Scalar != nil {
			c.refs = sh.Refs
			c.pos = aeShellPositions(sh.Scalar.Text, aeRefSpans(sh.Scalar, sh.Refs))
		}
	}
	k := sort.Search(len(c.refs), func(k int) bool { return c.refs[k].Pos() >= r.Pos() })
	if k < len(c.refs) && c.refs[k] == r {
		return c.pos[k].Quote
	}
	return aeUnquoted
}
