package safewrite

import (
	"bytes"
	"os"
	"strconv"
	"time"

	"github.com/sessctl/sessctl/internal/agentlock"
)

// processStarted returns when process pid started (Linux: its start time in
// clock ticks after boot, /proc/<pid>/stat, plus the boot time, /proc/stat
// btime). USER_HZ is 100 on every Linux ABI Go supports.
func processStarted(pid int) (time.Time, bool) {
	ticks, ok := agentlock.ProcessStartTime(pid)
	if !ok {
		return time.Time{}, false
	}
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}, false
	}
	for _, l := range bytes.Split(b, []byte("\n")) {
		if v, found := bytes.CutPrefix(l, []byte("btime ")); found {
			boot, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				return time.Time{}, false
			}
			const hz = 100
			return time.Unix(boot, 0).Add(time.Duration(ticks) * time.Second / hz), true
		}
	}
	return time.Time{}, false
}
