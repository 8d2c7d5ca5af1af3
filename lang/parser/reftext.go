package parser

import "iter"

// A TextRef is a Lobster reference found in plain text by ScanText.
type TextRef struct {
	Kind       TextRefKind
	Start, End int    // byte range of the whole reference
	Name       string // the arg name, or the step id
	Path       string // the dotted path without its leading '.'; "" for an arg
}

// TextRefKind is the form of a TextRef.
type TextRefKind uint8

// The forms of references (see the grammar in refs.go).
const (
	ArgText    TextRefKind = iota + 1 // ${name}
	BracedText                        // ${id.seg…}, not Lobster syntax
	StepText                          // $id.path
)

// ScanText yields the references of text in order, with the grammar of
// template strings. The runtime uses it on text it builds (arg values
// substituted into a template), which has no position in a file.
func ScanText(text string) iter.Seq[TextRef] {
	return func(yield func(TextRef) bool) {
		for i := 0; i < len(text); i++ {
			if text[i] != '$' {
				continue
			}
			m := matchRef(text, i)
			var r TextRef
			switch m.kind {
			case refNone:
				continue
			case refArg:
				r = TextRef{Kind: ArgText, Name: text[i+2 : m.idEnd]}
			case refBraced:
				r = TextRef{Kind: BracedText, Name: text[i+2 : m.idEnd], Path: text[m.idEnd+1 : m.end-1]}
			case refStep:
				r = TextRef{Kind: StepText, Name: text[i+1 : m.idEnd], Path: text[m.idEnd+1 : m.end]}
			}
			r.Start, r.End = i, m.end
			if !yield(r) {
				return
			}
			i = m.end - 1
		}
	}
}
