package check

import (
	"regexp"
	"sync"
)

// lazyRE compiles a regular expression the first time it is used: most
// rules never need theirs on a given file, and compiling every one when the
// program starts costs a millisecond of every `lobster check`.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
