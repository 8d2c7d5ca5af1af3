package source

import (
	"fmt"
	"sort"
)

// ApplyEdits returns src with the edits applied. Edits are byte ranges of
// src; they must not overlap (two insertions at one offset apply in the
// given order).
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	sorted := append([]Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Range.Start.Offset < sorted[j].Range.Start.Offset })
	out := make([]byte, 0, len(src))
	last := 0
	for _, e := range sorted {
		s, t := e.Range.Start.Offset, e.Range.End.Offset
		if s < last || t < s || t > len(src) {
			return nil, fmt.Errorf("edit at %s overlaps another or lies outside the text", e.Range)
		}
		out = append(out, src[last:s]...)
		out = append(out, e.NewText...)
		last = t
	}
	return append(out, src[last:]...), nil
}
