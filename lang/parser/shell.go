package parser

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file parses the shell text of `run` and `command`.
//
// The Lobster references are found first (scanRefs). Each one is then
// overwritten, in a copy of the text, with as many 'x' bytes as it has: a
// plain shell word that parses anywhere a reference may stand (unquoted, in
// quotes, in a heredoc, in arithmetic) and keeps every offset unchanged. The
// copy is parsed with mvdan.cc/sh in POSIX mode, which is what /bin/sh -lc
// accepts, and every parameter expansion of the tree becomes an
// *ast.ShellVar:
//
//   - Name is the parameter: a variable name, a positional parameter ("1",
//     "10") or a special one ("@", "#", "?", "$"…). NameSpan covers it.
//   - Braced is true for ${…}. Range covers the whole expansion, "$NAME" or
//     "${…}".
//   - Op is the operator after the name: ":-", "-", ":=", "=", ":?", "?",
//     ":+", "+", "#", "##", "%", "%%", or "" for a bare $NAME / ${NAME}.
//     ${#NAME} (the length) has Op "#len". Forms that POSIX sh rejects never
//     get here from the parser (they are syntax errors, see below), but would
//     be "!", ":" (slice), "/" or "//" (replace), "[]" (index), or the case
//     operators.
//   - A bare name inside an arithmetic expansion, N in $((N+1)), reads the
//     variable N without a '$'. It is reported too, with Op "arith", Braced
//     false and Range equal to NameSpan, so that checks of variable reads
//     (such as nonexistent-lobster-env) see it. Callers that want only '$'
//     expansions skip Op "arith".
//
// Expansions inside single quotes and quoted heredocs are not expansions and
// are not reported; those of unquoted heredoc bodies and of command
// substitutions are. An expansion whose name starts inside a Lobster reference
// is dropped (for example $HOME in the step reference $HOME.json), and a name
// that runs into a following reference ($FOO$a.json, parsed as $FOOxxxxxxx) is
// cut where the reference starts.
//
// Bytes that are not UTF-8 are masked the same way, and an expansion that
// starts in them is dropped like one that starts in a reference: /bin/sh
// takes such bytes as literal word characters, while mvdan.cc/sh rejects them
// ("invalid UTF-8 encoding"), and the encoding is the matter of the
// invalid-utf8 rule, not a syntax error.
//
// When the text is not valid POSIX shell, Shell.Err holds the parser's error
// and its position, and the variables come from a rough lexical scan instead
// (shellLex), so that $LOBSTER_ARG_X and friends are still found.

// shellScratch is the reusable state of one parseShell call.
type shellScratch struct {
	parser *syntax.Parser
	sr     strings.Reader
	br     bytes.Reader
	masked []byte
	spans  []refSpan
	toks   []shellTok
	text   string                 // the masked text, during a walk
	visit  func(syntax.Node) bool // sc.walkNode, bound once
}

// shellPool holds shellScratch values: a POSIX parser is costly to allocate.
var shellPool = sync.Pool{New: func() any {
	sc := &shellScratch{parser: syntax.NewParser(syntax.Variant(syntax.LangPOSIX))}
	sc.visit = sc.walkNode
	return sc
}}

// shellScratchMax is the largest masked buffer kept in the pool, in bytes;
// the span and token buffers kept hold at most a sixteenth as many entries.
const shellScratchMax = 1 << 16

// shellTok is one parameter expansion in decoded byte offsets: the expansion
// is [start, end) and its name [nameStart, nameEnd).
type shellTok struct {
	start, end         int
	nameStart, nameEnd int
	braced             bool
	op                 string
}

// parseShell parses the decoded text of a run/command string scalar.
func parseShell(f *source.File, s *ast.Scalar) *ast.Shell {
	return parseShellRecord(f, s, nil)
}

// parseShellRecord is parseShell, also filling rec (when not nil) for a
// Cache.
func parseShellRecord(f *source.File, s *ast.Scalar, rec *shellResult) *ast.Shell {
	sh := &ast.Shell{Scalar: s}
	if f == nil || s == nil {
		return sh
	}
	sh.Loc = s.Loc
	sc := shellPool.Get().(*shellScratch)
	defer sc.release()
	sc.spans = sc.spans[:0]
	sc.toks = sc.toks[:0]
	sh.Refs = shellRefSpans(f, s, &sc.spans)
	text, r := sc.maskedText(s.Text)
	file, err := sc.parser.Parse(r, "")
	if err != nil {
		sh.Err = shellSyntaxError(f, s, err)
		sc.toks = shellLex(text, sc.toks)
	} else {
		sc.text = text
		syntax.Walk(file, sc.visit)
	}
	sh.Vars = shellVars(f, s, sc.toks, sc.spans) // sorts sc.toks
	record(rec, sc.toks, err)
	return sh
}

// shellRefSpans is scanRefSpans for shell text: spans also gets the runs of
// bytes that are not UTF-8, which are masked like references. The spans stay
// sorted and disjoint (references are ASCII).
func shellRefSpans(f *source.File, s *ast.Scalar, spans *[]refSpan) []ast.Ref {
	refs := scanRefSpans(f, s, spans)
	if s != nil && !utf8.ValidString(s.Text) {
		*spans = addInvalidUTF8Spans(s.Text, *spans)
	}
	return refs
}

// addInvalidUTF8Spans merges into spans (sorted, disjoint, none holding a
// byte that is not UTF-8) the runs of text's bytes that are not UTF-8.
func addInvalidUTF8Spans(text string, spans []refSpan) []refSpan {
	var bad []refSpan
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		if r != utf8.RuneError || w != 1 {
			i += w
			continue
		}
		if n := len(bad); n > 0 && bad[n-1].j == i {
			bad[n-1].j++
		} else {
			bad = append(bad, refSpan{i, i + 1})
		}
		i++
	}
	if len(spans) == 0 {
		return append(spans, bad...)
	}
	merged := make([]refSpan, 0, len(spans)+len(bad))
	k := 0
	for _, sp := range spans {
		for k < len(bad) && bad[k].i < sp.i {
			merged = append(merged, bad[k])
			k++
		}
		merged = append(merged, sp)
	}
	return append(merged, bad[k:]...)
}

// release returns sc to the pool, dropping oversized buffers.
func (sc *shellScratch) release() {
	if cap(sc.masked) > shellScratchMax {
		sc.masked = nil
	}
	if cap(sc.spans) > shellScratchMax/16 {
		sc.spans = nil
	}
	if cap(sc.toks) > shellScratchMax/16 {
		sc.toks = nil
	}
	sc.text = ""
	sc.sr.Reset("")
	sc.br.Reset(nil)
	shellPool.Put(sc)
}

// maskedText returns the text to give the shell parser, with every reference
// span overwritten by 'x' bytes, and a reader over it. Without references
// the text is used as is.
func (sc *shellScratch) maskedText(text string) (string, io.Reader) {
	if len(sc.spans) == 0 {
		sc.sr.Reset(text)
		return text, &sc.sr
	}
	sc.masked = append(sc.masked[:0], text...)
	for _, sp := range sc.spans {
		if sp.i < 0 || sp.j > len(sc.masked) {
			continue
		}
		for k := sp.i; k < sp.j; k++ {
			sc.masked[k] = 'x'
		}
	}
	sc.br.Reset(sc.masked)
	return string(sc.masked), &sc.br
}

// shellSyntaxError converts the shell parser's error to an ast.SyntaxError
// that points at the offending character.
func shellSyntaxError(f *source.File, s *ast.Scalar, err error) *ast.SyntaxError {
	var pos syntax.Pos
	msg := err.Error()
	switch e := err.(type) {
	case syntax.ParseError:
		pos, msg = e.Pos, e.Text
	case syntax.LangError:
		pos = e.Pos
		msg = strings.TrimPrefix(msg, e.Pos.String()+": ")
	}
	o := 0
	if pos.IsValid() {
		o = int(pos.Offset())
	}
	text := s.Text
	o = min(max(o, 0), len(text))
	end := o
	if o < len(text) {
		_, w := utf8.DecodeRuneInString(text[o:])
		end = o + max(w, 1)
	}
	return &ast.SyntaxError{Span: s.Map.Span(o, end), Msg: msg}
}

// walkNode appends to sc.toks a shellTok for every parameter expansion of
// the tree, and for every bare variable name of an arithmetic expansion.
func (sc *shellScratch) walkNode(n syntax.Node) bool {
	text := sc.text
	switch n := n.(type) {
	case *syntax.ParamExp:
		if t, ok := shellParamTok(n, text); ok {
			sc.toks = append(sc.toks, t)
		}
	case *syntax.ArithmExp:
		sc.toks = appendShellArithName(sc.toks, n.X, text)
	case *syntax.BinaryArithm:
		sc.toks = appendShellArithName(sc.toks, n.X, text)
		sc.toks = appendShellArithName(sc.toks, n.Y, text)
	case *syntax.UnaryArithm:
		sc.toks = appendShellArithName(sc.toks, n.X, text)
	case *syntax.ParenArithm:
		sc.toks = appendShellArithName(sc.toks, n.X, text)
	}
	return true
}

// shellParamTok converts a parameter expansion. It fails for a position that
// does not spell the name in text, which the parser never produces.
func shellParamTok(pe *syntax.ParamExp, text string) (shellTok, bool) {
	if pe.Param == nil || !pe.Param.ValuePos.IsValid() || pe.Param.Value == "" {
		return shellTok{}, false
	}
	ns := int(pe.Param.ValuePos.Offset())
	ne := ns + len(pe.Param.Value)
	if ne > len(text) || text[ns:ne] != pe.Param.Value {
		return shellTok{}, false
	}
	t := shellTok{start: ns, end: ne, nameStart: ns, nameEnd: ne, braced: !pe.Short, op: shellParamOp(pe)}
	if pe.Dollar.IsValid() {
		t.start = int(pe.Dollar.Offset())
	}
	if !pe.Short && pe.Rbrace.IsValid() {
		t.end = int(pe.Rbrace.Offset()) + 1
	}
	if t.start > ns || t.end < ne || t.end > len(text) {
		return shellTok{}, false
	}
	return t, true
}

// shellParamOp is the ShellVar.Op of a parameter expansion.
func shellParamOp(pe *syntax.ParamExp) string {
	switch {
	case pe.Length:
		return "#len"
	case pe.Excl:
		return "!"
	case pe.Exp != nil:
		return pe.Exp.Op.String()
	case pe.Slice != nil:
		return ":"
	case pe.Repl != nil && pe.Repl.All:
		return "//"
	case pe.Repl != nil:
		return "/"
	case pe.Index != nil:
		return "[]"
	}
	return ""
}

// appendShellArithName appends a token for x when it is a bare variable name.
func appendShellArithName(toks []shellTok, x syntax.ArithmExpr, text string) []shellTok {
	w, ok := x.(*syntax.Word)
	if !ok || w == nil || len(w.Parts) != 1 {
		return toks
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || !isShellName(lit.Value) || !lit.ValuePos.IsValid() {
		return toks
	}
	ns := int(lit.ValuePos.Offset())
	ne := ns + len(lit.Value)
	if ne > len(text) || text[ns:ne] != lit.Value {
		return toks
	}
	return append(toks, shellTok{start: ns, end: ne, nameStart: ns, nameEnd: ne, op: "arith"})
}

// isShellName reports whether v is a shell variable name: [A-Za-z_][A-Za-z0-9_]*.
func isShellName(v string) bool {
	if v == "" || !IsShellNameStart(v[0]) {
		return false
	}
	for i := 1; i < len(v); i++ {
		if refClass[v[i]]&refSeg == 0 {
			return false
		}
	}
	return true
}

// IsShellNameStart reports whether c may start a shell variable name.
func IsShellNameStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// shellVars converts the tokens to nodes in source order, dropping those whose
// expansion or name starts inside a reference span and cutting names that run
// into one. Spans are sorted and disjoint; tokens are sorted here, so a span
// that ends before one token starts ends before all later ones too.
func shellVars(f *source.File, s *ast.Scalar, toks []shellTok, spans []refSpan) []*ast.ShellVar {
	if len(toks) == 0 {
		return nil
	}
	return shellVarsIn(f, s, toks, spans, make([]ast.ShellVar, len(toks)), make([]*ast.ShellVar, len(toks)))
}

// shellVarsIn is shellVars building the nodes in store and the result in
// ptrs, both of len(toks) (a group of texts cuts them from one block).
func shellVarsIn(f *source.File, s *ast.Scalar, toks []shellTok, spans []refSpan, store []ast.ShellVar, ptrs []*ast.ShellVar) []*ast.ShellVar {
	if len(toks) == 0 {
		return nil
	}
	slices.SortStableFunc(toks, func(a, b shellTok) int { return a.start - b.start })
	vars := ptrs[:0:len(toks)]
	next := 0 // the first span that ends after the current token starts
	for _, t := range toks {
		for next < len(spans) && spans[next].j <= t.start {
			next++
		}
		t, ok := clipShellTok(t, spans[next:])
		if !ok || t.end > len(s.Text) {
			continue
		}
		rg := newSpanRanger(f, s, t.start, t.end)
		v := &store[len(vars)]
		v.Loc = ast.Loc{Span: rg.rng(t.start, t.end)}
		v.Name = s.Text[t.nameStart:t.nameEnd]
		v.NameSpan = rg.rng(t.nameStart, t.nameEnd)
		v.Braced = t.braced
		v.Op = t.op
		vars = append(vars, v)
	}
	if len(vars) == 0 {
		return nil
	}
	return vars
}

// clipShellTok drops a token that starts inside a reference span and cuts a
// name that runs into one. Spans are sorted and disjoint, and none ends at or
// before the token's start.
func clipShellTok(t shellTok, spans []refSpan) (shellTok, bool) {
	if t.start < 0 || t.nameStart < t.start || t.nameEnd < t.nameStart || t.end < t.nameEnd {
		return t, false
	}
	for _, sp := range spans {
		if sp.i >= t.nameEnd {
			break // only the expansion's start and its name matter
		}
		if inRefSpan(t.start, sp) || inRefSpan(t.nameStart, sp) {
			return t, false
		}
		if t.nameStart < sp.i && sp.i < t.nameEnd {
			t.nameEnd = sp.i
			if !t.braced {
				t.end = sp.i
			}
		}
	}
	return t, true
}

// inRefSpan reports whether the decoded offset o lies in the span.
func inRefSpan(o int, sp refSpan) bool { return sp.i <= o && o < sp.j }

// shellLexer is the rough lexical scan used when the text is not valid shell.
// It knows single and double quotes, backslash escapes, comments, command
// and arithmetic substitutions (only to reset the quoting inside them) and
// heredocs (quoted bodies are skipped, unquoted ones scanned without quote
// tracking). Bare names in arithmetic are not reported.
type shellLexer struct {
	text    string
	quote   byte            // 0, '\'' or '"'
	frames  []shellLexFrame // open $( or $(( substitutions
	pending []shellHeredoc  // heredocs whose body starts at the next newline
	toks    []shellTok
	braces  []shellBracePair // matching braces of ${…}, computed on first use
	braced  bool             // braces is computed
}

// shellBracePair is the offset of the '{' of a "${" and the offset after the
// '}' that closes it.
type shellBracePair struct{ open, end int }

// shellLexFrame is an open substitution: the quoting outside it and the depth of
// plain parentheses inside it.
type shellLexFrame struct {
	quote byte
	depth int
	arith bool // $(( … )): "<<" is a shift, not a heredoc
}

// shellHeredoc is a heredoc operator waiting for its body.
type shellHeredoc struct {
	delim  string
	strip  bool // <<- strips leading tabs
	quoted bool // a quoted delimiter: the body is literal
}

// shellLex appends the parameter expansions that a rough scan of text finds.
func shellLex(text string, toks []shellTok) []shellTok {
	lx := shellLexer{text: text, toks: toks}
	for i := 0; i < len(text); {
		i = lx.step(i)
	}
	return lx.toks
}

// step scans from i and returns where to continue, always after i.
func (lx *shellLexer) step(i int) int {
	t := lx.text
	c := t[i]
	if lx.quote == '\'' {
		if c == '\'' {
			lx.quote = 0
		}
		return i + 1
	}
	switch c {
	case '\\':
		return i + 2
	case '\'':
		if lx.quote == 0 {
			lx.quote = '\''
		}
	case '"':
		if lx.quote == 0 {
			lx.quote = '"'
		} else {
			lx.quote = 0
		}
	case '$':
		return lx.dollar(i)
	case '#':
		if lx.quote == 0 && shellWordStart(t, i) {
			return shellLineEnd(t, i)
		}
	case '<':
		if lx.quote == 0 && !lx.inArith() && strings.HasPrefix(t[i:], "<<") && !strings.HasPrefix(t[i:], "<<<") {
			return lx.heredocOp(i + 2)
		}
	case '\n':
		if lx.quote == 0 && len(lx.pending) > 0 {
			return lx.heredocBodies(i + 1)
		}
	case '(':
		if lx.quote == 0 && len(lx.frames) > 0 {
			lx.frames[len(lx.frames)-1].depth++
		}
	case ')':
		lx.closeParen()
	}
	return i + 1
}

// closeParen handles an unquoted ')': it closes a plain parenthesis or the
// innermost substitution.
func (lx *shellLexer) closeParen() {
	n := len(lx.frames)
	if lx.quote != 0 || n == 0 {
		return
	}
	if lx.frames[n-1].depth > 0 {
		lx.frames[n-1].depth--
		return
	}
	lx.quote = lx.frames[n-1].quote
	lx.frames = lx.frames[:n-1]
}

// inArith reports whether the scan is inside an arithmetic expansion.
func (lx *shellLexer) inArith() bool {
	n := len(lx.frames)
	return n > 0 && lx.frames[n-1].arith
}

// dollar handles the '$' at i.
func (lx *shellLexer) dollar(i int) int {
	if i+1 < len(lx.text) && lx.text[i+1] == '(' {
		arith := i+2 < len(lx.text) && lx.text[i+2] == '('
		lx.frames = append(lx.frames, shellLexFrame{quote: lx.quote, arith: arith})
		lx.quote = 0
		return i + 2
	}
	tok, next, ok := lx.lexVar(i, len(lx.text))
	if !ok {
		return i + 1
	}
	lx.toks = append(lx.toks, tok)
	return next
}

// lexVar reads the expansion that starts with the '$' at i; a short name
// ends at lim at the latest. For ${…} it returns the offset after the
// operator as next, so that the scan goes on into the word (${A:-$B}).
func (lx *shellLexer) lexVar(i, lim int) (tok shellTok, next int, ok bool) {
	t := lx.text[:lim]
	j := i + 1
	if j >= len(t) {
		return tok, 0, false
	}
	if t[j] != '{' {
		ne := shellLexName(t, j)
		if ne == j {
			return tok, 0, false
		}
		return shellTok{start: i, end: ne, nameStart: j, nameEnd: ne}, ne, true
	}
	return lx.lexBraced(t, i)
}

// lexBraced reads ${…} that starts with the '$' at i.
func (lx *shellLexer) lexBraced(t string, i int) (tok shellTok, next int, ok bool) {
	j := i + 2
	length := false
	if j+1 < len(t) && t[j] == '#' && t[j+1] != '}' {
		length = true
		j++
	}
	ne := shellLexName(t, j)
	if ne == j {
		return tok, 0, false
	}
	tok = shellTok{start: i, nameStart: j, nameEnd: ne, braced: true}
	opEnd := ne
	if length {
		tok.op = "#len"
	} else {
		tok.op = shellLexOp(t, ne)
		opEnd += len(tok.op)
	}
	tok.end = max(lx.braceEnd(i+1), opEnd)
	return tok, opEnd, true
}

// shellLexName returns the end of the parameter name at j: a variable name, a
// single digit outside braces or digits inside them, or one special
// character.
func shellLexName(t string, j int) int {
	if j >= len(t) {
		return j
	}
	c := t[j]
	switch {
	case IsShellNameStart(c):
		return refScanWhile(t, j+1, refSeg)
	case '0' <= c && c <= '9':
		if j > 0 && t[j-1] == '{' {
			for j < len(t) && '0' <= t[j] && t[j] <= '9' {
				j++
			}
			return j
		}
		return j + 1
	case strings.IndexByte("@*#?-$!", c) >= 0:
		return j + 1
	}
	return j
}

// shellOps are the POSIX expansion operators, longest first.
var shellOps = [...]string{":-", ":=", ":?", ":+", "##", "%%", "-", "=", "?", "+", "#", "%"}

// shellLexOp returns the operator at j, or "".
func shellLexOp(t string, j int) string {
	for _, op := range shellOps {
		if strings.HasPrefix(t[j:], op) {
			return op
		}
	}
	return ""
}

// braceEnd returns the offset after the '}' that closes the '{' at open,
// or the end of the text when none does.
func (lx *shellLexer) braceEnd(open int) int {
	if !lx.braced {
		lx.braces = shellBracePairs(lx.text)
		lx.braced = true
	}
	k, found := slices.BinarySearchFunc(lx.braces, open, func(p shellBracePair, o int) int { return p.open - o })
	if !found {
		return len(lx.text)
	}
	return lx.braces[k].end
}

// shellBracePairs matches, in one pass, the '{' of every "${" with the next
// '}' at the same depth, skipping backslash escapes, and returns the pairs
// sorted by their '{'.
func shellBracePairs(t string) []shellBracePair {
	var stack []int
	var pairs []shellBracePair
	for j := 0; j < len(t); j++ {
		switch t[j] {
		case '\\':
			j++
		case '$':
			if j+1 < len(t) && t[j+1] == '{' {
				j++
				stack = append(stack, j)
			}
		case '}':
			if n := len(stack); n > 0 {
				pairs = append(pairs, shellBracePair{open: stack[n-1], end: j + 1})
				stack = stack[:n-1]
			}
		}
	}
	slices.SortFunc(pairs, func(a, b shellBracePair) int { return a.open - b.open })
	return pairs
}

// heredocOp reads the delimiter word of a heredoc operator whose "<<" ends
// at j, and queues the heredoc.
func (lx *shellLexer) heredocOp(j int) int {
	t := lx.text
	h := shellHeredoc{}
	if j < len(t) && t[j] == '-' {
		h.strip = true
		j++
	}
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++
	}
	var delim strings.Builder
	for ; j < len(t) && strings.IndexByte(" \t\n;&|<>()", t[j]) < 0; j++ {
		switch c := t[j]; c {
		case '\'', '"', '\\':
			h.quoted = true
		default:
			delim.WriteByte(c)
		}
	}
	if delim.Len() > 0 {
		h.delim = delim.String()
		lx.pending = append(lx.pending, h)
	}
	return j
}

// heredocBodies scans the bodies of the queued heredocs, which start at i,
// and returns the offset after the last delimiter line.
func (lx *shellLexer) heredocBodies(i int) int {
	for _, h := range lx.pending {
		i = lx.heredocBody(i, h)
	}
	lx.pending = lx.pending[:0]
	return i
}

// heredocBody scans one heredoc body that starts at i.
func (lx *shellLexer) heredocBody(i int, h shellHeredoc) int {
	t := lx.text
	for i < len(t) {
		end := shellLineEnd(t, i)
		line := t[i:end]
		if h.strip {
			line = strings.TrimLeft(line, "\t")
		}
		next := min(end+1, len(t))
		if line == h.delim {
			return next
		}
		if !h.quoted {
			lx.lineVars(i, end)
		}
		i = next
	}
	return i
}

// lineVars appends the expansions of the heredoc line [i, end).
func (lx *shellLexer) lineVars(i, end int) {
	t := lx.text[:end]
	for i < end {
		switch t[i] {
		case '\\':
			i += 2
		case '$':
			tok, next, ok := lx.lexVar(i, end)
			if !ok {
				i++
				continue
			}
			lx.toks = append(lx.toks, tok)
			i = next
		default:
			i++
		}
	}
}

// shellWordStart reports whether the byte at i starts a shell word.
func shellWordStart(t string, i int) bool {
	return i == 0 || strings.IndexByte(" \t\n;&|()<>", t[i-1]) >= 0
}

// shellLineEnd returns the offset of the newline at or after i, or the end of t.
func shellLineEnd(t string, i int) int {
	if k := strings.IndexByte(t[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(t)
}
