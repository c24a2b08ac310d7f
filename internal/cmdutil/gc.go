package cmdutil

import (
	"os"
	"runtime/debug"
)

// GCPercent sets the garbage collector's percent (GOGC) to n for the rest of
// the process, unless GOGC is set in the environment, which always wins.
// Commands set it for the heap they build (see docs/benchmarks.md).
func GCPercent(n int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(n)
	}
}
