//go:build !linux

package safewrite

import "time"

// processStarted is only known on Linux; elsewhere a live pid keeps its
// temp files.
func processStarted(pid int) (time.Time, bool) { return time.Time{}, false }
