package plan

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/render"
)

// GraphFormats are the formats of [Plan.Graph], the first being the
// reference's default.
var GraphFormats = []string{"mermaid", "dot", "ascii"}

// Graph renders the plan's steps as the reference's `lobster graph` does,
// byte for byte: one node per top-level step, and
// edges "next" (file order), "stdin", "for_each" and "when: …" (from the
// top-level steps a field references). format is "mermaid", "dot" or
// "ascii"; the text ends with a newline.
func (p *Plan) Graph(format string) (string, error) {
	nodes, edges := p.graph()
	var lines []string
	switch format {
	case "mermaid":
		lines = append(lines, "flowchart TD")
		keys := mermaidKeys(nodes)
		for _, n := range nodes {
			label := mermaidEscape(n.label())
			if n.diamond {
				lines = append(lines, "  "+keys[n.id]+"{\""+label+"\"}")
			} else {
				lines = append(lines, "  "+keys[n.id]+"[\""+label+"\"]")
			}
		}
		lines = append(lines, "")
		for _, e := range edges {
			lines = append(lines, "  "+keys[e.from]+" -->|"+mermaidEscape(e.label)+"| "+keys[e.to])
		}
	case "dot":
		lines = append(lines, "digraph workflow {", "  rankdir=TB;")
		for _, n := range nodes {
			shape := "box"
			if n.diamond {
				shape = "diamond"
			}
			lines = append(lines, "  \""+dotEscape(n.id)+"\" [shape="+shape+",label=\""+dotEscape(n.label())+"\"];")
		}
		lines = append(lines, "")
		for _, e := range edges {
			lines = append(lines, "  \""+dotEscape(e.from)+"\" -> \""+dotEscape(e.to)+"\" [label=\""+dotEscape(e.label)+"\"];")
		}
		lines = append(lines, "}")
	case "ascii":
		lines = append(lines, "Workflow Graph", "", "Nodes:")
		for _, n := range nodes {
			// The details are read back from the label, up to its next
			// literal backslash-n: details holding one (a shell's '\n')
			// are cut there, and lose their "…".
			line := "- " + n.id + " [" + n.typ + "] "
			if l := n.label(); strings.Contains(l, `\n`) {
				line += "(" + strings.SplitN(l, `\n`, 3)[1] + ")"
			}
			lines = append(lines, js.Trim(line))
		}
		lines = append(lines, "", "Edges:")
		if len(edges) == 0 {
			lines = append(lines, "- (none)")
		}
		for _, e := range edges {
			lines = append(lines, "- "+e.from+" -> "+e.to+" ("+e.label+")")
		}
	default:
		return "", fmt.Errorf("graph --format must be one of: %s", strings.Join(GraphFormats, ", "))
	}
	return strings.Join(lines, "\n") + "\n", nil
}

type graphNode struct {
	id, typ, details string
	diamond          bool
}

// label is the node's label: the id, then a literal backslash-n and the
// details.
func (n graphNode) label() string {
	if n.details == "" {
		return n.id
	}
	return n.id + `\n` + n.details
}

type graphEdge struct{ from, to, label string }

// graph computes the nodes and the deduplicated edges.
func (p *Plan) graph() ([]graphNode, []graphEdge) {
	args, _ := jsvalue.Parse(p.Args)
	argObj, _ := args.(*jsvalue.Object)
	if argObj == nil {
		argObj = jsvalue.NewObject()
	}
	ids := map[string]bool{}
	for _, st := range p.Steps {
		ids[st.ID] = true
	}
	var nodes []graphNode
	var edges []graphEdge
	seen := map[graphEdge]bool{}
	edge := func(e graphEdge) {
		if !seen[e] {
			seen[e] = true
			edges = append(edges, e)
		}
	}
	refs := func(text, to, label string) {
		for r := range parser.ScanText(text) {
			if r.Kind == parser.StepText && ids[r.Name] {
				edge(graphEdge{r.Name, to, label})
			}
		}
	}
	for i, st := range p.Steps {
		n := graphNode{id: st.ID, diamond: st.Approval != nil}
		switch {
		case st.Kind == Parallel:
			n.typ = "parallel"
			wait := "all"
			if st.Parallel != nil {
				wait = st.Parallel.Wait
			}
			n.details = "parallel (" + wait + ")"
		case st.Kind == ForEach:
			n.typ = "for_each"
			if st.Loop != nil {
				n.details = "for_each: " + render.Args(st.Loop.Expr, argObj)
			}
		case st.Kind == Workflow:
			n.typ = "workflow"
			n.details = "workflow: " + st.Workflow.Path
		case st.Kind == Pipeline:
			n.typ = "pipeline"
			n.details = "pipeline: " + st.Command
		case st.Kind == Shell || st.shellField:
			n.typ = "run"
			if strings.TrimSpace(st.Command) != "" {
				n.details = "run: " + st.Command
			}
		case st.Approval != nil:
			n.typ, n.details = "approval", "approval gate"
		case st.Kind == Input:
			n.typ, n.details = "input", "input request"
		default:
			n.typ = "step"
		}
		n.details = truncate(n.details, 80)
		nodes = append(nodes, n)

		if i > 0 {
			edge(graphEdge{p.Steps[i-1].ID, st.ID, "next"})
		}
		if st.Stdin != nil {
			if st.Stdin.Value == nil {
				refs(st.Stdin.Text, st.ID, "stdin")
			} else if v, err := jsvalue.Parse(st.Stdin.Value); err == nil {
				walkStrings(v, func(s string) { refs(s, st.ID, "stdin") })
			}
		}
		if st.Loop != nil {
			refs(st.Loop.Expr, st.ID, "for_each")
		}
		if st.When != nil && st.When.Expr != "" {
			refs(st.When.Expr, st.ID, truncate("when: "+st.When.Expr, 70))
		}
	}
	return nodes, edges
}

// walkStrings calls f on every string inside v.
func walkStrings(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case []any:
		for _, e := range v {
			walkStrings(e, f)
		}
	case *jsvalue.Object:
		for _, k := range v.Keys() {
			e, _ := v.Get(k)
			walkStrings(e, f)
		}
	}
}

// truncate cuts s to max UTF-16 code units, the last being "…", as
// JavaScript's slice does: a surrogate pair cut in half leaves a lone
// surrogate, which is written as U+FFFD.
func truncate(s string, max int) string {
	units := 0
	for _, r := range s {
		units += utf16.RuneLen(r)
	}
	if units <= max {
		return s
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		w := utf16.RuneLen(r)
		if n+w > max-1 {
			if n < max-1 { // half a surrogate pair fits
				b.WriteRune(utf8.RuneError)
			}
			break
		}
		b.WriteRune(r)
		n += w
	}
	b.WriteString("…")
	return b.String()
}

// mermaidKeys gives each node a mermaid node key: the id with every UTF-16
// code unit outside [A-Za-z0-9_] replaced by "_" ("step" when empty),
// prefixed with "s_" when it starts with a digit; a key already taken gets
// "_2", "_3"… after the unprefixed form.
func mermaidKeys(nodes []graphNode) map[string]string {
	keys := map[string]string{}
	used := map[string]bool{}
	for _, n := range nodes {
		if _, done := keys[n.id]; done {
			continue
		}
		var b strings.Builder
		for _, r := range n.id {
			if r < utf8.RuneSelf && isKeyByte(byte(r)) {
				b.WriteRune(r)
			} else {
				b.WriteString(strings.Repeat("_", utf16.RuneLen(r)))
			}
		}
		base := b.String()
		if base == "" {
			base = "step"
		}
		key := base
		if base[0] >= '0' && base[0] <= '9' {
			key = "s_" + base
		}
		for i := 2; used[key]; i++ {
			key = fmt.Sprintf("%s_%d", base, i)
		}
		used[key] = true
		keys[n.id] = key
	}
	return keys
}

func isKeyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

var mermaidReplacer = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;", "|", "&#124;")

func mermaidEscape(s string) string { return mermaidReplacer.Replace(s) }

var dotReplacer = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

func dotEscape(s string) string { return dotReplacer.Replace(s) }
