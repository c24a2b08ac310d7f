package agentlock

import (
	"bytes"
	"os"
	"strconv"
)

// ProcessStartTime returns field 22 of /proc/<pid>/stat (start time in clock
// ticks since boot), which OpenClaw records to detect pid reuse.
func ProcessStartTime(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// comm (field 2) may contain spaces and parentheses: split after the
	// last ')'. Field 3 is then the first token.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	const idx = 22 - 3
	if len(f) <= idx {
		return 0, false
	}
	v, err := strconv.ParseUint(string(f[idx]), 10, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}
