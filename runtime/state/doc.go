// Package state is the runtime's local state store: the directory where
// resume states, approval indexes and state.set values live.
//
// It keeps the reference's file layout so that
// both implementations can share a directory, and it is built so that no
// crash or concurrent writer ever leaves a torn file: every write goes to a
// temporary file that is synced and renamed over the target, and every
// read-modify-write happens under a per-file lock that a crashed holder
// cannot keep forever.
package state
