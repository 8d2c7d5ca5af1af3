package source

import "testing"

// edit is an edit of f's bytes [s, e).
func edit(f *File, s, e int, text string) Edit {
	return Edit{Range: f.Range(s, e), NewText: text}
}

func TestPlanFixes(t *testing.T) {
	f := NewFile("f.lobster", []byte("0123456789abcdef\n"))
	diag := func(edits ...Edit) Diagnostic {
		return Diagnostic{File: "f.lobster", Fixes: []Fix{{Message: "fix", Edits: edits}, {Message: "second", Edits: []Edit{edit(f, 0, 17, "")}}}}
	}
	diags := []Diagnostic{
		diag(edit(f, 0, 2, "AB")),                         // taken
		diag(edit(f, 1, 3, "x")),                          // overlaps the first: skipped
		diag(edit(f, 0, 2, "AB")),                         // the same edit again: taken, not repeated
		diag(edit(f, 4, 4, "+")),                          // an insertion: taken
		diag(edit(f, 4, 4, "-")),                          // a second insertion at 4: skipped
		diag(edit(f, 5, 6, "F"), edit(f, 8, 9, "I")),      // two edits: taken
		diag(edit(f, 9, 10, "J"), edit(f, 8, 9, "other")), // one edit conflicts: skipped whole
		diag(Edit{Range: Range{Start: Pos{Offset: 12, Line: 1, Col: 13}, End: Pos{Offset: 40, Line: 1, Col: 41}}, NewText: "out"}), // beyond the text: skipped
		{File: "other.lobster", Fixes: []Fix{{Edits: []Edit{edit(f, 14, 15, "?")}}}},                                               // another file
		{File: "f.lobster"},      // no fix
		diag(edit(f, 2, 2, "|")), // an insertion where the first edit ends: taken
	}
	p := PlanFixes("f.lobster", f.Content, diags, true)
	if p.Applied != 5 || p.Skipped != 4 {
		t.Errorf("applied %d, skipped %d; want 5 and 4", p.Applied, p.Skipped)
	}
	out, err := ApplyEdits(f.Content, p.Edits)
	if err != nil {
		t.Fatal(err)
	}
	if want := "AB|23+4F67I9abcdef\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
