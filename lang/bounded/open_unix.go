//go:build unix

package bounded

import "syscall"

// openFlags make open return at once on a FIFO (instead of waiting for a
// writer) and keep a terminal from becoming the controlling one.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
