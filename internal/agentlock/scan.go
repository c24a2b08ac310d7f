package agentlock

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Found is a lock file found by ScanDir, with the session file it guards.
type Found struct {
	Lock
	// Target is the session file the lock belongs to.
	Target string `json:"target"`
	// TargetExists is false for an orphaned lock (its session file is gone).
	TargetExists bool `json:"target_exists"`
}

// ScanDir lists the agent lock files in dir without changing anything:
// omp ".<name>.lock" files and OpenClaw "<name>.jsonl.lock" files, each
// judged live or stale at now. (omp's Linux gate leaves no file, and its
// ".lock.os" sidecars carry no state, so neither is listed.) A `check`
// command reports the stale ones.
func ScanDir(dir string, now time.Time) ([]Found, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Found
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".lock") {
			continue
		}
		path := filepath.Join(dir, name)
		var (
			l      Lock
			ok     bool
			target string
		)
		switch {
		case strings.HasPrefix(name, ".") && len(name) > len(".x.lock"):
			target = filepath.Join(dir, strings.TrimSuffix(name[1:], ".lock"))
			l, ok, err = inspectOMPLock(path, now)
		case strings.HasSuffix(name, ".jsonl.lock"):
			target = filepath.Join(dir, strings.TrimSuffix(name, ".lock"))
			l, ok, err = inspectOpenClaw(path, now)
		default:
			continue
		}
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // vanished meanwhile
		}
		_, serr := os.Stat(target)
		out = append(out, Found{Lock: l, Target: target, TargetExists: serr == nil})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
