//go:build !unix

package bounded

// openFlags: no special flags where there are no FIFOs to block on.
const openFlags = 0
