package source

// A FixPlan is the edits that applying the fixes of one file's findings
// makes (lobster check --fix): the first fix
// of each finding, less the fixes that overlap an earlier one.
type FixPlan struct {
	Edits   []Edit
	Applied int // fixes taken
	Skipped int // fixes left out because they overlap a taken one
	Unsafe  int // unsafe fixes left out
}

// PlanFixes chooses the edits of one file's findings (in their order, which
// is by position). The first fix of each finding is taken when none of its
// edits overlaps an edit already taken; an edit equal to one already taken
// is not repeated. Findings reported in another file, and fixes whose edits
// lie outside src, are left out, and so are unsafe fixes unless unsafe is
// set.
func PlanFixes(name string, src []byte, diags []Diagnostic, unsafe bool) FixPlan {
	var p FixPlan
	for _, d := range diags {
		if d.File != name || len(d.Fixes) == 0 || len(d.Fixes[0].Edits) == 0 {
			continue
		}
		if d.Fixes[0].Unsafe && !unsafe {
			p.Unsafe++
			continue
		}
		var add []Edit
		ok := true
	edits:
		for _, e := range d.Fixes[0].Edits {
			s, t := e.Range.Start.Offset, e.Range.End.Offset
			if s < 0 || t < s || t > len(src) {
				ok = false
				break
			}
			for _, prev := range p.Edits {
				if prev.Range.Span() == e.Range.Span() && prev.NewText == e.NewText {
					continue edits // the same edit, from another finding
				}
				if editsConflict(prev, e) {
					ok = false
					break edits
				}
			}
			for _, prev := range add {
				if editsConflict(prev, e) {
					ok = false
					break edits
				}
			}
			add = append(add, e)
		}
		if !ok {
			p.Skipped++
			continue
		}
		p.Edits = append(p.Edits, add...)
		p.Applied++
	}
	return p
}

// editsConflict reports whether two edits cannot both be applied: their
// ranges overlap, or they start at the same offset (two insertions there,
// or an insertion before a replacement, have no defined order).
func editsConflict(a, b Edit) bool {
	as, ae := a.Range.Start.Offset, a.Range.End.Offset
	bs, be := b.Range.Start.Offset, b.Range.End.Offset
	return as == bs || (as < be && bs < ae)
}
