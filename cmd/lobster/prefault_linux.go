package main

import (
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// Linux madvise advice values.
const (
	madvHugepage      = 14 // MADV_HUGEPAGE
	madvPopulateWrite = 23 // MADV_POPULATE_WRITE (Linux 5.14+)
)

// hugePage is the size of a transparent huge page on amd64 and arm64 (with
// 4 KiB base pages).
const hugePage = 2 << 20

// prefaultHeap readies the memory a check of n input bytes will use. A check
// allocates about 38 bytes per input byte, and on virtual machines each first
// touch of a 4 KiB page costs a trap of several microseconds: for a large file
// that is a third of the run. The block is asked for transparent huge pages
// (where the system allows them only on request) and populated with one
// madvise call per CPU; it is then freed so that the parser's allocations
// reuse its pages. Huge pages make both the populating and the parser's
// later writes cheaper (fewer pages to zero and map, fewer TLB misses).
// Any failure just leaves the heap as it was.
func prefaultHeap(n int64) {
	const perInputByte, minInput, maxBytes = 38, 64 << 10, 256 << 20
	if n < minInput {
		return
	}
	// Whole huge pages, aligned: a block one huge page larger than needed
	// holds them.
	length := uintptr(min(n*perInputByte, maxBytes)+hugePage-1) &^ (hugePage - 1)
	block := make([]byte, length+hugePage)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	start := (base + hugePage - 1) &^ (hugePage - 1)
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, length, madvHugepage)
	// The kernel populates disjoint ranges in parallel: one part per CPU,
	// cut at huge page boundaries. The first part also takes the small
	// pages before the aligned ones, which the allocator hands out first.
	parts := min(uintptr(runtime.GOMAXPROCS(0)), length/hugePage)
	step := (length / parts) &^ (hugePage - 1)
	var wg sync.WaitGroup
	for i := range parts {
		from, to := start+i*step, start+(i+1)*step
		if i == 0 {
			from = (base + 4095) &^ 4095
		}
		if i == parts-1 {
			to = start + length
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, from, to-from, madvPopulateWrite)
		}()
	}
	wg.Wait()
	runtime.KeepAlive(block)
	block = nil
	// The collection that frees the block has almost nothing to mark: on one
	// P it needs no other thread to stop or to wake, which is most of its
	// cost on a busy machine.
	procs := runtime.GOMAXPROCS(1)
	runtime.GC()
	runtime.GOMAXPROCS(procs)
}
