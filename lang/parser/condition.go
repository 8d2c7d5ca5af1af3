package parser

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file parses the condition language of `when` and `condition` strings:
//
//	expr      = or ;
//	or        = and , { "||" , and } ;
//	and       = cmp , { "&&" , cmp } ;
//	cmp       = unary_l , [ cmpop , unary_r ] ;   (* at most one comparison *)
//	unary_l   = "!" , unary_l | primary_l ;
//	unary_r   = "!" , unary_r | primary_r ;
//	primary_l = "(" , expr , ")" | stepref | string | number | "true" | "false" | "null" ;
//	primary_r = primary_l | ident ;                 (* a bare word, right side only *)
//
// The parser works on the decoded text of the scalar and maps every decoded
// offset back to the source through the scalar's TextMap.

// parseCondition parses the decoded text s.Text of a `when`/`condition` string scalar.
func parseCondition(f *source.File, s *ast.Scalar) *ast.Condition {
	c := &ast.Condition{Scalar: s}
	if s == nil {
		return c
	}
	c.Span = s.Span
	lo, hi := condTrimBounds(s.Text, 0, len(s.Text))
	if lo == hi {
		c.Err = &ast.SyntaxError{Span: s.Span, Msg: "empty condition"}
		return c
	}
	p := newCondParser(f, s, lo, hi)
	expr := p.parseExpr()
	if p.err == nil {
		if t := p.peek(); t.kind != ctEOF {
			p.unexpected(t)
		}
	}
	if p.err != nil {
		c.Err = &ast.SyntaxError{Span: p.rng(p.err.start, p.err.end), Msg: p.err.msg}
		return c
	}
	c.Expr = expr
	return c
}

// condTokKind is the kind of a condition token.
type condTokKind int

// Condition token kinds.
const (
	ctEOF    condTokKind = iota // end of the condition
	ctOp                        // an operator or a parenthesis; text is its spelling
	ctRef                       // a step reference $id.path
	ctString                    // a quoted string
	ctNumber                    // a number
	ctIdent                     // a bare word, including true, false and null
)

// condToken is one token of a condition, at decoded offsets [start, end).
type condToken struct {
	kind       condTokKind
	text       string // the token as written in the decoded text
	val        string // the decoded value of a string token
	start, end int
}

// condErr is a syntax error at decoded offsets [start, end).
type condErr struct {
	start, end int
	msg        string
}

// condLexer splits the decoded text src[pos:end] into tokens.
type condLexer struct {
	src      string
	pos, end int
}

// condLex tokenizes src[lo:hi]. It returns the tokens before the first
// lexical error and that error, or nil.
func condLex(src string, lo, hi int) ([]condToken, *condErr) {
	lx := &condLexer{src: src, pos: lo, end: hi}
	var toks []condToken
	for {
		lx.skipSpace()
		if lx.pos >= lx.end {
			return toks, nil
		}
		t, err := lx.next()
		if err != nil {
			return toks, err
		}
		toks = append(toks, t)
	}
}

// skipSpace skips JavaScript whitespace.
func (lx *condLexer) skipSpace() {
	for lx.pos < lx.end {
		r, w := utf8.DecodeRuneInString(lx.src[lx.pos:lx.end])
		if !js.IsSpace(r) {
			return
		}
		lx.pos += w
	}
}

// at is the byte at offset i, or 0 past the end.
func (lx *condLexer) at(i int) byte {
	if i < 0 || i >= lx.end {
		return 0
	}
	return lx.src[i]
}

// token builds a token spanning [lx.pos, end) and advances past it.
func (lx *condLexer) token(kind condTokKind, end int) condToken {
	t := condToken{kind: kind, text: lx.src[lx.pos:end], start: lx.pos, end: end}
	lx.pos = end
	return t
}

// next scans the token at lx.pos, which is not whitespace.
func (lx *condLexer) next() (condToken, *condErr) {
	i := lx.pos
	c := lx.src[i]
	switch {
	case c == '$':
		return lx.stepRef()
	case c == '"' || c == '\'':
		return lx.str()
	case c == '-' || condDigit(c):
		return lx.number()
	case condIdentStart(c):
		j := i + 1
		for j < lx.end && condIDChar(lx.src[j]) {
			j++
		}
		return lx.token(ctIdent, j), nil
	}
	if op := condOperator(lx.src[i:lx.end]); op != "" {
		return lx.token(ctOp, i+len(op)), nil
	}
	return condToken{}, lx.badChar()
}

// condOperators lists the operators, two-character ones first.
var condOperators = []string{"==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")"}

// condOperator returns the operator that starts s, or "".
func condOperator(s string) string {
	for _, op := range condOperators {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

// badChar reports the character at lx.pos, which starts no token.
func (lx *condLexer) badChar() *condErr {
	i := lx.pos
	switch c := lx.src[i]; c {
	case '=':
		return &condErr{i, i + 1, `unexpected "=" (use "==")`}
	case '&':
		return &condErr{i, i + 1, `unexpected "&" (use "&&")`}
	case '|':
		return &condErr{i, i + 1, `unexpected "|" (use "||")`}
	case '.':
		if condDigit(lx.at(i + 1)) {
			return &condErr{i, i + 1, `numbers need a digit before "."`}
		}
	}
	_, w := utf8.DecodeRuneInString(lx.src[i:lx.end])
	return &condErr{i, i + w, fmt.Sprintf("unexpected %q", lx.src[i:i+w])}
}

// stepRef scans `$id.seg{.seg}` at lx.pos.
func (lx *condLexer) stepRef() (condToken, *condErr) {
	i := lx.pos
	if lx.at(i+1) == '{' {
		return condToken{}, lx.braceErr()
	}
	j := i + 1
	for j < lx.end && condIDChar(lx.src[j]) {
		j++
	}
	if j == i+1 {
		return condToken{}, &condErr{i, i + 1, `unexpected "$": a step reference is written $id.path`}
	}
	end := j
	for lx.at(end) == '.' && condSegChar(lx.at(end+1)) {
		end += 2
		for end < lx.end && condSegChar(lx.src[end]) {
			end++
		}
	}
	if end == j {
		bad := j
		if lx.at(j) == '.' {
			bad++
		}
		ref := lx.src[i:j]
		return condToken{}, &condErr{i, bad, fmt.Sprintf("step reference %q has no path: expected %s.<field>", ref, ref)}
	}
	return lx.token(ctRef, end), nil
}

// braceErr reports `${…}` at lx.pos: args cannot be used in conditions. The
// range covers the braces when they close before any whitespace.
func (lx *condLexer) braceErr() *condErr {
	i := lx.pos
	end := i + 2
	for j := i + 2; j < lx.end; j++ {
		c := lx.src[j]
		if c == '}' {
			end = j + 1
			break
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '$' {
			break
		}
	}
	return &condErr{i, end, `"${" is not allowed in a condition: args cannot be used in conditions`}
}

// str scans a quoted string at lx.pos; a backslash takes the next character
// literally.
func (lx *condLexer) str() (condToken, *condErr) {
	i := lx.pos
	q := lx.src[i]
	var b strings.Builder
	j := i + 1
	for j < lx.end {
		c := lx.src[j]
		switch {
		case c == q:
			t := lx.token(ctString, j+1)
			t.val = b.String()
			return t, nil
		case c == '\\' && j+1 < lx.end:
			_, w := utf8.DecodeRuneInString(lx.src[j+1 : lx.end])
			b.WriteString(lx.src[j+1 : j+1+w])
			j += 1 + w
		default:
			b.WriteByte(c)
			j++
		}
	}
	return condToken{}, &condErr{i, lx.end, "unterminated string"}
}

// number scans `-?digits(.digits)?` at lx.pos.
func (lx *condLexer) number() (condToken, *condErr) {
	i := lx.pos
	j := i
	if lx.at(j) == '-' {
		j++
	}
	if !condDigit(lx.at(j)) {
		return condToken{}, &condErr{i, i + 1, `unexpected "-"`}
	}
	j = lx.digits(j)
	if lx.at(j) == '.' {
		if !condDigit(lx.at(j + 1)) {
			return condToken{}, &condErr{i, j + 1, fmt.Sprintf("number %q needs digits after \".\"", lx.src[i:j+1])}
		}
		j = lx.digits(j + 1)
	}
	if e := lx.exponent(j); e > j {
		return condToken{}, &condErr{i, e, "numbers have no exponent"}
	}
	return lx.token(ctNumber, j), nil
}

// digits returns the offset after the run of digits at j.
func (lx *condLexer) digits(j int) int {
	for j < lx.end && condDigit(lx.src[j]) {
		j++
	}
	return j
}

// exponent returns the end of an exponent `e[+-]digits` at j, or j if there
// is none.
func (lx *condLexer) exponent(j int) int {
	if c := lx.at(j); c != 'e' && c != 'E' {
		return j
	}
	k := j + 1
	if c := lx.at(k); c == '+' || c == '-' {
		k++
	}
	if !condDigit(lx.at(k)) {
		return j
	}
	return lx.digits(k)
}

// condParser is a recursive-descent parser over the tokens of a condition.
type condParser struct {
	f      *source.File
	s      *ast.Scalar
	toks   []condToken
	lexErr *condErr // the lexical error after the last token, if any
	i      int      // index of the next token
	end    int      // decoded offset of the end of the trimmed text
	err    *condErr // the first error
}

// newCondParser tokenizes s.Text[lo:hi] and returns a parser over it.
func newCondParser(f *source.File, s *ast.Scalar, lo, hi int) *condParser {
	toks, lexErr := condLex(s.Text, lo, hi)
	return &condParser{f: f, s: s, toks: toks, lexErr: lexErr, end: hi}
}

// rng maps the decoded range [i, j) to the source.
func (p *condParser) rng(i, j int) source.Span {
	return p.s.Map.Span(i, j)
}

// fail records the first error.
func (p *condParser) fail(i, j int, msg string) {
	if p.err == nil {
		p.err = &condErr{i, j, msg}
	}
}

// peekAt returns the token k places ahead without side effects; past the
// last token it returns an EOF token at the end of the text.
func (p *condParser) peekAt(k int) condToken {
	if n := p.i + k; n >= 0 && n < len(p.toks) {
		return p.toks[n]
	}
	return condToken{kind: ctEOF, start: p.end, end: p.end}
}

// peek returns the next token. Reaching a lexical error records it: the
// grammar never accepts the bad character, so it is the error to report.
func (p *condParser) peek() condToken {
	if p.i >= len(p.toks) && p.lexErr != nil && p.err == nil {
		p.err = p.lexErr
	}
	return p.peekAt(0)
}

// advance consumes and returns the next token.
func (p *condParser) advance() condToken {
	t := p.peek()
	if p.i < len(p.toks) {
		p.i++
	}
	return t
}

// isOp reports whether t is the operator op.
func (t condToken) isOp(op string) bool { return t.kind == ctOp && t.text == op }

// isCmpOp reports whether t is a comparison operator.
func (t condToken) isCmpOp() bool {
	if t.kind != ctOp {
		return false
	}
	switch t.text {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// unexpected reports the token t where the grammar does not allow it.
func (p *condParser) unexpected(t condToken) {
	if t.kind == ctEOF {
		p.fail(t.start, t.end, "unexpected end of condition")
		return
	}
	p.fail(t.start, t.end, fmt.Sprintf("unexpected %q", t.text))
}

// parseExpr parses `or`.
func (p *condParser) parseExpr() ast.Expr {
	return p.parseBinary("||", p.parseAnd)
}

// parseAnd parses `and`.
func (p *condParser) parseAnd() ast.Expr {
	return p.parseBinary("&&", p.parseCmp)
}

// parseBinary parses `operand { op operand }`, left associative.
func (p *condParser) parseBinary(op string, operand func() ast.Expr) ast.Expr {
	x := operand()
	for p.err == nil && p.peek().isOp(op) {
		t := p.advance()
		y := operand()
		if p.err != nil {
			return nil
		}
		x = p.binary(x, t, y)
	}
	if p.err != nil {
		return nil
	}
	return x
}

// binary builds the node `x op y`.
func (p *condParser) binary(x ast.Expr, op condToken, y ast.Expr) *ast.BinaryExpr {
	return &ast.BinaryExpr{
		Loc:    ast.Loc{Span: source.Span{Start: x.Pos(), End: y.End()}},
		X:      x,
		Op:     op.text,
		OpSpan: p.rng(op.start, op.end),
		Y:      y,
	}
}

// parseCmp parses `cmp`: an operand and at most one comparison.
func (p *condParser) parseCmp() ast.Expr {
	x := p.parseUnary(true)
	if p.err != nil || !p.peek().isCmpOp() {
		return x
	}
	op := p.advance()
	y := p.parseUnary(false)
	if p.err != nil {
		return nil
	}
	if t := p.peek(); t.isCmpOp() {
		p.fail(t.start, t.end, "only one comparison per operand: use && to combine comparisons")
		return nil
	}
	return p.binary(x, op, y)
}

// parseUnary parses `unary_l` (left) or `unary_r`.
func (p *condParser) parseUnary(left bool) ast.Expr {
	if !p.peek().isOp("!") {
		return p.parsePrimary(left)
	}
	t := p.advance()
	x := p.parseUnary(left)
	if p.err != nil {
		return nil
	}
	r := p.rng(t.start, t.end)
	return &ast.UnaryExpr{Loc: ast.Loc{Span: source.Span{Start: r.Start, End: x.End()}}, Op: "!", X: x}
}

// parsePrimary parses `primary_l` (left) or `primary_r`.
func (p *condParser) parsePrimary(left bool) ast.Expr {
	t := p.peek()
	if p.err != nil {
		return nil
	}
	switch t.kind {
	case ctRef:
		p.advance()
		return p.stepRef(t)
	case ctString:
		p.advance()
		return p.literal(t, ast.LitString, t.val)
	case ctNumber:
		p.advance()
		return p.literal(t, ast.LitNumber, t.text)
	case ctIdent:
		return p.parseWord(t, left)
	case ctOp:
		if t.isOp("(") {
			return p.parseParen()
		}
	}
	p.unexpected(t)
	return nil
}

// parseWord parses a bare word: true, false, null, or a string literal on the
// right of a comparison.
func (p *condParser) parseWord(t condToken, left bool) ast.Expr {
	switch t.text {
	case "true":
		p.advance()
		return p.literal(t, ast.LitTrue, t.text)
	case "false":
		p.advance()
		return p.literal(t, ast.LitFalse, t.text)
	case "null":
		p.advance()
		return p.literal(t, ast.LitNull, t.text)
	}
	if !left {
		p.advance()
		return p.literal(t, ast.LitWord, t.text)
	}
	if p.peekAt(1).isCmpOp() {
		p.fail(t.start, t.end, fmt.Sprintf("bare word %q on the left of a comparison", t.text))
	} else {
		p.fail(t.start, t.end, fmt.Sprintf("bare word %q is not a condition: only the right side of a comparison may be a bare word", t.text))
	}
	return nil
}

// parseParen parses `( expr )`.
func (p *condParser) parseParen() ast.Expr {
	open := p.advance()
	x := p.parseExpr()
	if p.err != nil {
		return nil
	}
	t := p.peek()
	if p.err != nil {
		return nil
	}
	switch {
	case t.isOp(")"):
		p.advance()
	case t.kind == ctEOF:
		p.fail(open.start, open.end, `unclosed "("`)
		return nil
	default:
		p.fail(t.start, t.end, fmt.Sprintf("unexpected %q: expected \")\"", t.text))
		return nil
	}
	return &ast.ParenExpr{Loc: ast.Loc{Span: p.rng(open.start, t.end)}, X: x}
}

// literal builds a literal node for the token t.
func (p *condParser) literal(t condToken, kind ast.LiteralKind, val string) *ast.Literal {
	return &ast.Literal{Loc: ast.Loc{Span: p.rng(t.start, t.end)}, Kind: kind, Value: val}
}

// stepRef builds a step reference node for the token t (`$id.seg{.seg}`).
func (p *condParser) stepRef(t condToken) *ast.StepRef {
	ref := &ast.StepRef{Loc: ast.Loc{Span: p.rng(t.start, t.end)}}
	dot := strings.IndexByte(t.text, '.')
	if dot < 0 {
		dot = len(t.text)
	}
	ref.ID = t.text[1:dot]
	ref.IDSpan = p.rng(t.start+1, t.start+dot)
	off := t.start + dot
	for _, seg := range strings.Split(t.text[min(dot+1, len(t.text)):], ".") {
		start := off + 1
		ref.Path = append(ref.Path, &ast.Ident{Loc: ast.Loc{Span: p.rng(start, start+len(seg))}, Name: seg})
		off = start + len(seg)
	}
	return ref
}

// condDigit reports whether c is an ASCII digit.
func condDigit(c byte) bool { return '0' <= c && c <= '9' }

// condLetter reports whether c is an ASCII letter.
func condLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// condSegChar reports whether c may appear in a path segment: [A-Za-z0-9_].
func condSegChar(c byte) bool { return condLetter(c) || condDigit(c) || c == '_' }

// condIDChar reports whether c may appear in a step id: [A-Za-z0-9_-].
func condIDChar(c byte) bool { return condSegChar(c) || c == '-' }

// condIdentStart reports whether c may start a bare word: [A-Za-z_].
func condIdentStart(c byte) bool { return condLetter(c) || c == '_' }

// condTrimBounds returns the bounds of s[lo:hi] with JavaScript whitespace
// trimmed from both ends, as offsets into s.
func condTrimBounds(s string, lo, hi int) (int, int) {
	for lo < hi {
		r, w := utf8.DecodeRuneInString(s[lo:hi])
		if !js.IsSpace(r) {
			break
		}
		lo += w
	}
	for hi > lo {
		r, w := utf8.DecodeLastRuneInString(s[lo:hi])
		if !js.IsSpace(r) {
			break
		}
		hi -= w
	}
	return lo, hi
}
