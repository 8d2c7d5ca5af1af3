//go:build !linux

package main

// prefaultHeap does nothing outside Linux.
func prefaultHeap(int64) {}
