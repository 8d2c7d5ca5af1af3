package check

// Suggest returns the candidate closest to name by edit distance, when it is
// close enough to be a likely typo (at most 2 edits, and fewer than half the
// name's length) and no other candidate is as close; otherwise "".
func Suggest(name string, candidates []string) string {
	best, bestDist, tie := "", 3, false
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := editDistance(name, c)
		if d > 2 || 2*d >= max(len(name), len(c)) {
			continue
		}
		switch {
		case d < bestDist:
			best, bestDist, tie = c, d, false
		case d == bestDist && c != best:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance (Levenshtein with
// transpositions), case-sensitive.
func editDistance(a, b string) int {
	if a == b {
		return 0
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
