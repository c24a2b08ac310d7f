// Package memtest measures what a piece of code allocates, for the tests
// that hold sessctl to "memory grows with entries, never with bytes" (a
// long line read through a bounded window must allocate far less than the
// line). It is imported by tests only.
package memtest

import "runtime"

// Allocated runs fn after a garbage collection and returns the bytes the
// process allocated while it ran (runtime.MemStats.TotalAlloc), live or not.
func Allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}
