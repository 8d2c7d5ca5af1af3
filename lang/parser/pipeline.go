package parser

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file parses the pipeline DSL of `pipeline` strings in three phases:
// split on `|` outside quotes, tokenize each stage into shell-style words,
// and sort the words after the stage name into flags and positionals.
//
// Empty quotes follow release 2026.9.13: a word written with quotes is kept
// even when its text is empty (`a ''` has one positional ""), so a stage is
// empty only when its text is blank.

// Pipeline error messages, as the reference spells them.
const (
	pipeErrUnclosedQuote = "Unclosed quote"
	pipeErrEmptyPipeline = "Empty pipeline"
	pipeErrEmptyStage    = "Empty command stage"
)

// parsePipeline parses the decoded text s.Text of a `pipeline` string
// scalar. Leave Pipeline.Refs nil (the caller fills it).
func parsePipeline(f *source.File, s *ast.Scalar) *ast.Pipeline {
	p := &ast.Pipeline{Scalar: s}
	if s == nil {
		return p
	}
	p.Span = s.Span
	pp := &pipeParser{f: f, s: s, text: s.Text}
	stages, err := pp.parse()
	if err != nil {
		p.Err = err
		return p
	}
	p.Stages = stages
	return p
}

// pipeParser holds the state shared by the phases of a pipeline parse.
type pipeParser struct {
	f    *source.File
	s    *ast.Scalar
	text string
}

// pipeSegment is the text of one stage as split in phase 1, at decoded
// offsets [start, end), with the offset of the `|` that ends it (-1 for the
// last segment).
type pipeSegment struct {
	start, end int
	bar        int
}

// rng maps the decoded range [i, j) to the source.
func (pp *pipeParser) rng(i, j int) source.Span {
	return pp.s.Map.Span(i, j)
}

// errAt builds a syntax error at the decoded range [i, j).
func (pp *pipeParser) errAt(i, j int, msg string) *ast.SyntaxError {
	return &ast.SyntaxError{Span: pp.rng(i, j), Msg: msg}
}

// parse runs the three phases and returns the stages or the first error.
func (pp *pipeParser) parse() ([]*ast.Stage, *ast.SyntaxError) {
	segs, err := pp.split()
	if err != nil {
		return nil, err
	}
	stages := make([]*ast.Stage, 0, len(segs))
	for _, seg := range segs {
		st, err := pp.stage(seg)
		if err != nil {
			return nil, err
		}
		stages = append(stages, st)
	}
	return stages, nil
}

// split is phase 1: it splits the text on `|` outside quotes. Inside quotes
// a backslash and the character after it are opaque, so neither closes the
// quote.
func (pp *pipeParser) split() ([]pipeSegment, *ast.SyntaxError) {
	text := pp.text
	var segs []pipeSegment
	var quote byte
	quoteAt, start := 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0 && c == '\\':
			i++ // skip the escaped character, if any
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote, quoteAt = c, i
		case c == '|':
			segs = append(segs, pipeSegment{start: start, end: i, bar: i})
			start = i + 1
		}
	}
	if quote != 0 {
		return nil, pp.errAt(quoteAt, len(text), pipeErrUnclosedQuote)
	}
	if lo, hi := condTrimBounds(text, start, len(text)); lo < hi {
		segs = append(segs, pipeSegment{start: start, end: len(text), bar: -1})
	}
	if len(segs) == 0 {
		return nil, &ast.SyntaxError{Span: pp.s.Span, Msg: pipeErrEmptyPipeline}
	}
	return segs, nil
}

// stage parses one segment (phases 2 and 3).
func (pp *pipeParser) stage(seg pipeSegment) (*ast.Stage, *ast.SyntaxError) {
	lo, hi := condTrimBounds(pp.text, seg.start, seg.end)
	if lo == hi {
		bar := seg.bar
		if bar < 0 {
			bar = seg.end
		}
		return nil, pp.errAt(bar, min(bar+1, len(pp.text)), pipeErrEmptyStage)
	}
	words, err := pp.words(lo, hi)
	if err != nil {
		return nil, err
	}
	if len(words) == 0 {
		return nil, pp.errAt(lo, hi, pipeErrEmptyStage)
	}
	st := &ast.Stage{Loc: ast.Loc{Span: pp.rng(lo, hi)}, Name: pp.word(words[0])}
	st.Args = pp.args(words[1:])
	return st, nil
}

// pipeWord is a word of a stage as tokenized in phase 2.
type pipeWord struct {
	start, end int    // decoded offsets of the word as written, quotes included
	text       []byte // the text after quote removal
	// from and to are, for each byte of text, the decoded offsets of the
	// characters that spell it (an escape spells one byte with two).
	from, to []int
	quoted   bool // the word has a quoted piece, so it exists even when empty
}

// add appends the byte c spelled by the decoded range [i, j).
func (w *pipeWord) add(c byte, i, j int) {
	w.text = append(w.text, c)
	w.from = append(w.from, i)
	w.to = append(w.to, j)
}

// pipeSpace reports whether c separates words: space, TAB, LF or CR.
func pipeSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// pipeTokenizer is the state of phase 2 over one stage's text.
type pipeTokenizer struct {
	text    string
	end     int
	words   []*pipeWord
	cur     *pipeWord // the word being built, or nil
	quote   byte      // the open quote, or 0
	quoteAt int       // offset of the open quote
}

// words is phase 2: it splits the stage text text[lo:hi] into words.
func (pp *pipeParser) words(lo, hi int) ([]*pipeWord, *ast.SyntaxError) {
	t := &pipeTokenizer{text: pp.text, end: hi}
	for i := lo; i < hi; {
		switch t.quote {
		case 0:
			i = t.bare(i)
		case '\'':
			i = t.single(i)
		default:
			i = t.double(i)
		}
	}
	if t.quote != 0 {
		return nil, pp.errAt(t.quoteAt, hi, pipeErrUnclosedQuote)
	}
	t.flush(hi)
	return t.words, nil
}

// word returns the word being built, starting one at offset i if needed.
func (t *pipeTokenizer) word(i int) *pipeWord {
	if t.cur == nil {
		t.cur = &pipeWord{start: i}
	}
	return t.cur
}

// flush ends the word being built at offset end. A word is kept when it has
// text or a quoted piece.
func (t *pipeTokenizer) flush(end int) {
	if t.cur == nil {
		return
	}
	if len(t.cur.text) > 0 || t.cur.quoted {
		t.cur.end = end
		t.words = append(t.words, t.cur)
	}
	t.cur = nil
}

// bare scans the character at i outside quotes and returns the next offset.
func (t *pipeTokenizer) bare(i int) int {
	c := t.text[i]
	switch {
	case pipeSpace(c):
		t.flush(i)
	case c == '\'' || c == '"':
		t.word(i).quoted = true
		t.quote, t.quoteAt = c, i
	default:
		t.word(i).add(c, i, i+1)
	}
	return i + 1
}

// single scans inside single quotes: only \' is an escape.
func (t *pipeTokenizer) single(i int) int {
	c := t.text[i]
	switch {
	case c == '\\' && i+1 < t.end && t.text[i+1] == '\'':
		t.cur.add('\'', i, i+2)
		return i + 2
	case c == '\'':
		t.quote = 0
	default:
		t.cur.add(c, i, i+1)
	}
	return i + 1
}

// double scans inside double quotes: \" \\ \$ \` give the second character,
// backslash-newline is removed, and any other backslash is literal.
func (t *pipeTokenizer) double(i int) int {
	c := t.text[i]
	if c == '\\' && i+1 < t.end {
		switch n := t.text[i+1]; n {
		case '"', '\\', '$', '`':
			t.cur.add(n, i, i+2)
			return i + 2
		case '\n':
			return i + 2
		}
	}
	if c == '"' {
		t.quote = 0
	} else {
		t.cur.add(c, i, i+1)
	}
	return i + 1
}

// word builds the node of a whole word.
func (pp *pipeParser) word(w *pipeWord) *ast.Word {
	return &ast.Word{Loc: ast.Loc{Span: pp.rng(w.start, w.end)}, Text: string(w.text)}
}

// args is phase 3: it sorts the words after the stage name into flags and
// positionals. A word whose text starts with "--" is a flag; `--k` takes the
// next word as its value unless that word is a flag too.
func (pp *pipeParser) args(words []*pipeWord) []ast.Arg {
	var args []ast.Arg
	for k := 0; k < len(words); k++ {
		w := words[k]
		if !strings.HasPrefix(string(w.text), "--") {
			args = append(args, pp.word(w))
			continue
		}
		var next *pipeWord
		if k+1 < len(words) && !strings.HasPrefix(string(words[k+1].text), "--") {
			next = words[k+1]
		}
		fl := pp.flag(w, next)
		if !fl.Eq && fl.Value != nil {
			k++
		}
		args = append(args, fl)
	}
	return args
}

// flag builds the flag node of the word w; next is the following word when
// it may be the flag's value.
func (pp *pipeParser) flag(w, next *pipeWord) *ast.Flag {
	text := string(w.text)
	fl := &ast.Flag{Loc: ast.Loc{Span: pp.rng(w.start, w.end)}}
	nameEnd := len(text)
	if eq := strings.IndexByte(text, '='); eq >= 0 {
		nameEnd = eq
		fl.Eq = true
		fl.Value = &ast.Word{Loc: ast.Loc{Span: pp.rng(w.to[eq], w.end)}, Text: text[eq+1:]}
	} else if next != nil {
		fl.Value = pp.word(next)
		fl.Span = pp.rng(w.start, next.end)
	}
	fl.Name = text[2:nameEnd]
	if nameEnd > 2 {
		fl.NameSpan = pp.rng(w.from[2], w.to[nameEnd-1])
	} else {
		fl.NameSpan = pp.rng(w.to[1], w.to[1])
	}
	return fl
}
