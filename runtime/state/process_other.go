//go:build !linux

package state

// processAlive cannot tell outside Linux: staleness falls back to the age of
// the owner file.
func processAlive(int) (alive, known bool) { return false, false }

// processStart is unknown outside Linux.
func processStart(int) string { return "" }
