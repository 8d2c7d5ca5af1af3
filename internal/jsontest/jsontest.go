// Package jsontest holds what the JSON tests of jsvalue and the runtime share.
package jsontest

import (
	"math/rand/v2"
	"strings"
)

// RandomJSON builds a random JSON text, sometimes broken.
func RandomJSON(r *rand.Rand, depth int) string {
	switch n := r.IntN(9); {
	case n == 0 && depth < 4:
		var parts []string
		for range r.IntN(4) {
			parts = append(parts, RandomJSON(r, depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case n == 1 && depth < 4:
		var parts []string
		for range r.IntN(4) {
			parts = append(parts, `"`+[]string{"a", "b", "1", "é", ""}[r.IntN(5)]+`":`+RandomJSON(r, depth+1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case n == 2:
		return []string{"true", "false", "null", "tru", "[", "}", ","}[r.IntN(7)]
	case n == 3:
		return []string{"0", "-1.5", "2e3", "1e999", "-0.0", "00", "1.e2"}[r.IntN(7)]
	}
	chars := []string{"a", `\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, "é", "😀", `\u12`, `\x`, "\t"}
	var b strings.Builder
	for range r.IntN(5) {
		b.WriteString(chars[r.IntN(len(chars))])
	}
	return `"` + b.String() + `"`
}
