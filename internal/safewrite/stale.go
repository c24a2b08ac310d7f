package safewrite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sessctl/sessctl/internal/agentlock"
)

// LegacyTempAge is how long a temp file named without a pid (sessctl
// before temp names carried one) must be untouched to count as stale.
const LegacyTempAge = time.Hour

// StaleTemp is a temp file left by a sessctl write that never finished
// (the process was killed): inert, but it can be as big as the session.
type StaleTemp struct {
	// Path is the temp file.
	Path string `json:"path"`
	// Target is the file the interrupted write was for.
	Target string `json:"target"`
	// PID is the writer's process id, 0 for an older name without one.
	PID     int       `json:"pid,omitempty"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
}

// parseTemp recognises sessctl's temp names ".<name>.sessctl-<pid>-<hex>.tmp"
// and the older ".<name>.sessctl-<16 hex>.tmp". It returns the target name,
// the pid (0 for the older form) and whether name is one.
func parseTemp(name string) (target string, pid int, ok bool) {
	if !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".tmp") {
		return "", 0, false
	}
	i := strings.LastIndex(name, ".sessctl-")
	if i <= 1 {
		return "", 0, false
	}
	target = name[1:i]
	rest := strings.TrimSuffix(name[i+len(".sessctl-"):], ".tmp")
	if p, h, found := strings.Cut(rest, "-"); found {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || p[0] == '0' || !isHex(h) {
			return "", 0, false
		}
		return target, n, true
	}
	if len(rest) == 16 && isHex(rest) {
		return target, 0, true
	}
	return "", 0, false
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// StaleTemps lists the temp files in dir left by sessctl writes whose
// process is gone: the pid in the name is dead (this process's own are
// live) or belongs to a process started after the file was last written
// (the pid was reused; Linux), or, for an older name without a pid, the file is untouched for
// LegacyTempAge. Only regular files are listed (a link named like a temp
// is not sessctl's). `check` reports them; the next write to dir removes
// them.
func StaleTemps(dir string) ([]StaleTemp, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []StaleTemp
	for _, e := range entries {
		target, pid, ok := parseTemp(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if pid > 0 && agentlock.PIDAlive(pid) && !reused(pid, fi.ModTime()) {
			continue
		}
		if pid == 0 && time.Since(fi.ModTime()) < LegacyTempAge {
			continue
		}
		out = append(out, StaleTemp{Path: p, Target: filepath.Join(dir, target), PID: pid, Size: fi.Size(), ModTime: fi.ModTime()})
	}
	return out, nil
}

// PIDReused says whether the live process pid started after a file that
// process pid would have written was last modified at mtime (plus a second
// of clock slack): then it cannot be that file's writer, whose pid was
// reused (after a reboot, say). Always false for this process's own pid
// and where start times are unknown (not Linux).
func PIDReused(pid int, mtime time.Time) bool { return reused(pid, mtime) }

// reused says whether the live process pid started after the temp file
// was last written (plus a second of clock slack): then it cannot be the
// writer, whose pid was reused.
func reused(pid int, mtime time.Time) bool {
	if pid == os.Getpid() {
		return false
	}
	started, ok := processStarted(pid)
	return ok && started.After(mtime.Add(time.Second))
}

// swept holds the folders whose stale temps this process removed already:
// once per folder is enough (a batch repair of ten thousand files in one
// folder would otherwise read it ten thousand times).
var swept struct {
	sync.Mutex
	dirs map[string]bool
}

// removeStaleTemps deletes StaleTemps(dir), once per folder and process,
// and returns what it removed. Failures are not errors: the write goes on,
// the leftovers stay reported.
func removeStaleTemps(dir string) []string {
	swept.Lock()
	done := swept.dirs[dir]
	if swept.dirs == nil {
		swept.dirs = map[string]bool{}
	}
	swept.dirs[dir] = true
	swept.Unlock()
	if done {
		return nil
	}
	list, err := StaleTemps(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, st := range list {
		// unlink never follows a link; re-check the name is still a file.
		if fi, err := os.Lstat(st.Path); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if err := os.Remove(st.Path); err == nil || errors.Is(err, fs.ErrNotExist) {
			removed = append(removed, st.Path)
		}
	}
	return removed
}
