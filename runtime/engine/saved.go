package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// Saved is the resume state of a paused run, in the reference's file
// format plus our Digest.
type Saved struct {
	FilePath      string
	ResumeAtIndex int
	Steps         *jsvalue.Object // every result so far, in the order they were stored
	Args          *jsvalue.Object

	ApprovalStepID   string
	ApprovalIdentity Identity

	InputStepID  string
	InputKind    string // "pipeline_command" for a pipeline step that asked
	InputSchema  any    // Undefined when not stored
	InputSubject any
	// PipelineInput is how a pipeline_command input continues: the stages,
	// the stage that asked, its items and its commandInput.
	PipelineInput any

	Cost any // the spend so far (a cost summary), nil when none
	// LLMSpend are the LLM calls not billed yet, and LLMBilled those
	// billed, as the reference stores them: {cacheKey, count, stepId,
	// model, usage} each (see llmspend.go).
	LLMSpend, LLMBilled []any

	Superseded []string // keys of the states this run's earlier pauses left
	CreatedAt  string

	// Digest fingerprints the workflow file at the pause, so that a resume
	// can name what changed since; nil in states the reference wrote.
	Digest *Digest
}

// A Digest fingerprints a workflow: each step by id, everything else, and
// each sub-workflow its steps name with a fixed path.
type Digest struct {
	Steps    map[string]string
	Order    []string          // step ids in file order
	Rest     string            // every top-level field but steps
	Children map[string]string // child path as written → its fingerprint ("" when unreadable)
}

// Encode is the state file's content.
func (s *Saved) Encode() []byte {
	o := jsvalue.Obj("filePath", s.FilePath, "resumeAtIndex", float64(s.ResumeAtIndex), "steps", s.Steps, "args", s.Args)
	if s.ApprovalStepID != "" {
		o.Set("approvalStepId", s.ApprovalStepID)
		o.Set("approvalIdentity", s.ApprovalIdentity.object())
	}
	if s.InputStepID != "" {
		o.Set("inputStepId", s.InputStepID)
		if s.InputKind != "" {
			o.Set("inputKind", s.InputKind)
		}
		o.Set("inputSchema", s.InputSchema)
		o.Set("inputSubject", s.InputSubject)
		if s.PipelineInput != nil {
			o.Set("pipelineInput", s.PipelineInput)
		}
	}
	if s.Cost != nil {
		o.Set("cost", s.Cost)
	}
	if len(s.LLMSpend) > 0 {
		o.Set("llmSpend", s.LLMSpend)
	}
	if len(s.LLMBilled) > 0 {
		o.Set("llmBilled", s.LLMBilled)
	}
	superseded := make([]any, len(s.Superseded))
	for i, k := range s.Superseded {
		superseded[i] = k
	}
	o.Set("supersededResumeStateKeys", superseded)
	o.Set("createdAt", s.CreatedAt)
	if s.Digest != nil {
		steps := jsvalue.NewObject()
		for _, id := range s.Digest.Order {
			steps.Set(id, s.Digest.Steps[id])
		}
		digest := jsvalue.Obj("steps", steps, "rest", s.Digest.Rest)
		if len(s.Digest.Children) > 0 {
			children := jsvalue.NewObject()
			for _, k := range slices.Sorted(maps.Keys(s.Digest.Children)) {
				children.Set(k, s.Digest.Children[k])
			}
			digest.Set("children", children)
		}
		o.Set("workflowDigest", digest)
	}
	return []byte(jsvalue.Stringify(o, "  ") + "\n")
}

// errInvalidState is a resume state of the wrong shape.
var errInvalidState = errors.New("Invalid workflow resume state")

// DecodeSaved reads a workflow resume state.
func DecodeSaved(data []byte) (*Saved, error) {
	v, err := jsvalue.Parse(data)
	if err != nil {
		return nil, errInvalidState
	}
	o, _ := v.(*jsvalue.Object)
	if o == nil {
		return nil, errInvalidState
	}
	s := &Saved{InputSchema: jsvalue.Undefined, InputSubject: nil}
	var ok bool
	if s.FilePath, ok = get(o, "filePath").(string); !ok || s.FilePath == "" {
		return nil, errors.New("Workflow file path required")
	}
	at, ok := get(o, "resumeAtIndex").(float64)
	if !ok || at < 0 || at != math.Trunc(at) || at > math.MaxInt32 {
		return nil, errInvalidState
	}
	s.ResumeAtIndex = int(at)
	if s.Steps, ok = get(o, "steps").(*jsvalue.Object); !ok {
		return nil, errInvalidState
	}
	for _, id := range s.Steps.Keys() {
		if _, ok := get(s.Steps, id).(*jsvalue.Object); !ok {
			return nil, errInvalidState
		}
	}
	switch args := get(o, "args").(type) {
	case *jsvalue.Object:
		s.Args = args
	default:
		if args != jsvalue.Undefined && args != nil {
			return nil, errInvalidState
		}
		s.Args = jsvalue.NewObject()
	}
	s.ApprovalStepID, _ = get(o, "approvalStepId").(string)
	s.ApprovalIdentity = identityOf(get(o, "approvalIdentity"))
	s.InputStepID, _ = get(o, "inputStepId").(string)
	s.InputKind, _ = get(o, "inputKind").(string)
	if p, ok := get(o, "pipelineInput").(*jsvalue.Object); ok {
		s.PipelineInput = p
	} else if s.InputKind == "pipeline_command" {
		return nil, errInvalidState
	}
	s.InputSchema = get(o, "inputSchema")
	if sub := get(o, "inputSubject"); sub != jsvalue.Undefined {
		s.InputSubject = sub
	}
	if c, ok := get(o, "cost").(*jsvalue.Object); ok {
		s.Cost = c
	}
	s.LLMSpend, _ = get(o, "llmSpend").([]any)
	s.LLMBilled, _ = get(o, "llmBilled").([]any)
	if list, ok := get(o, "supersededResumeStateKeys").([]any); ok {
		for _, k := range list {
			if k, ok := k.(string); ok {
				s.Superseded = append(s.Superseded, k)
			}
		}
	}
	s.CreatedAt, _ = get(o, "createdAt").(string)
	if d, ok := get(o, "workflowDigest").(*jsvalue.Object); ok {
		s.Digest = &Digest{Steps: map[string]string{}}
		s.Digest.Rest, _ = get(d, "rest").(string)
		if children, ok := get(d, "children").(*jsvalue.Object); ok {
			s.Digest.Children = map[string]string{}
			for _, k := range children.Keys() {
				s.Digest.Children[k], _ = get(children, k).(string)
			}
		}
		if steps, ok := get(d, "steps").(*jsvalue.Object); ok {
			for _, id := range steps.Keys() {
				h, _ := get(steps, id).(string)
				s.Digest.Steps[id] = h
				s.Digest.Order = append(s.Digest.Order, id)
			}
		}
	}
	return s, nil
}

// DigestOf fingerprints w, the workflow of the file at path, by meaning,
// not by text: comments, layout and quoting do not count, and a step is
// known by its id. Sub-workflows named by a fixed path count too, with the
// sub-workflows they name in turn.
func DigestOf(w *ast.Workflow, path string) *Digest {
	d := &Digest{Steps: map[string]string{}, Children: map[string]string{}}
	childDigests(w, filepath.Dir(path), d.Children, map[string]bool{path: true})
	whole, _ := Value(w).(*jsvalue.Object)
	if whole == nil {
		whole = jsvalue.NewObject()
	}
	var list *ast.StepList
	if w.Steps != nil {
		list, _ = w.Steps.Value.(*ast.StepList)
	}
	if list != nil {
		for i, step := range list.Steps() {
			id := step.IDText()
			if id == "" {
				id = fmt.Sprintf("#%d", i+1)
			}
			if _, dup := d.Steps[id]; dup {
				continue
			}
			d.Steps[id] = hash(jsvalue.Stringify(Value(step), ""))
			d.Order = append(d.Order, id)
		}
	}
	whole.Delete("steps")
	d.Rest = hash(jsvalue.Stringify(whole, ""))
	return d
}

// childDigests fingerprints the sub-workflows w names with a fixed path,
// relative to dir, into children (keyed by the path as written, nested
// ones by "parent>child"), each file once.
func childDigests(w *ast.Workflow, dir string, children map[string]string, seen map[string]bool) {
	if w == nil || w.Steps == nil {
		return
	}
	list, _ := w.Steps.Value.(*ast.StepList)
	if list == nil {
		return
	}
	for _, step := range list.Steps() {
		if step.Workflow == nil {
			continue
		}
		s := ast.ScalarOf(step.Workflow.Value)
		if s == nil || s.Kind != ast.String || strings.Contains(s.Text, "$") {
			continue // no child, or one named at run time
		}
		full := s.Text
		if !filepath.IsAbs(full) {
			full = filepath.Join(dir, full)
		}
		if seen[full] {
			continue
		}
		seen[full] = true
		src, err := parser.ReadFile(full)
		if err != nil {
			children[s.Text] = ""
			continue
		}
		child, _ := parser.Parse(full, source.DecodeUTF8(src)) // as it runs
		children[s.Text] = hash(jsvalue.Stringify(Value(child.Doc), ""))
		nested := map[string]string{}
		childDigests(child.Workflow, filepath.Dir(full), nested, seen)
		for k, v := range nested {
			children[s.Text+">"+k] = v
		}
	}
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

// ChangedError is a resume refused because the workflow changed since the
// pause; it names what changed. --allow-changed resumes anyway.
type ChangedError struct {
	Changed, Added, Removed []string
	Children                []string // sub-workflow files that changed
	Rest                    bool     // a top-level field other than steps changed
	Order                   bool     // the same steps in another order
}

func (e *ChangedError) Error() string {
	var parts []string
	for _, p := range []struct {
		what string
		ids  []string
	}{{"steps changed", e.Changed}, {"steps added", e.Added}, {"steps removed", e.Removed}, {"sub-workflows changed", e.Children}} {
		if len(p.ids) > 0 {
			parts = append(parts, p.what+": "+strings.Join(p.ids, ", "))
		}
	}
	if e.Order {
		parts = append(parts, "steps reordered")
	}
	if e.Rest {
		parts = append(parts, "top-level fields (args, env, cwd, …) changed")
	}
	return "Workflow file changed since the pause (" + strings.Join(parts, "; ") +
		"); resume with --allow-changed to continue with the file as it is now"
}

// Compare says how now differs from the digest at the pause, or nil.
func (d *Digest) Compare(now *Digest) error {
	e := &ChangedError{Rest: d.Rest != now.Rest}
	for _, id := range d.Order {
		h, ok := now.Steps[id]
		switch {
		case !ok:
			e.Removed = append(e.Removed, id)
		case h != d.Steps[id]:
			e.Changed = append(e.Changed, id)
		}
	}
	for _, id := range now.Order {
		if _, ok := d.Steps[id]; !ok {
			e.Added = append(e.Added, id)
		}
	}
	if e.Changed == nil && e.Added == nil && e.Removed == nil && !slices.Equal(d.Order, now.Order) {
		e.Order = true
	}
	for _, k := range slices.Sorted(maps.Keys(d.Children)) {
		if h, ok := now.Children[k]; ok && h != d.Children[k] {
			e.Children = append(e.Children, k)
		}
	}
	if e.Changed == nil && e.Added == nil && e.Removed == nil && e.Children == nil && !e.Rest && !e.Order {
		return nil
	}
	return e
}
