package prune

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/agentlock"
)

// Live finds the signs that a session is in use.
type Live struct {
	// open maps a file path to the pids that have it open
	// (/proc/<pid>/fd where readable).
	open map[string][]int
	// claude are the Claude Code session ids named by
	// <config>/sessions/<pid>.json of a live pid.
	claude map[string]int
	// Grace: a file modified more recently than this is in use.
	Grace time.Duration
	Now   time.Time
}

// NewLive reads /proc and Claude Code's sessions/ folders (configDirs).
func NewLive(claudeConfigDirs []string, grace time.Duration, now time.Time) *Live {
	l := &Live{open: map[string][]int{}, claude: map[string]int{}, Grace: grace, Now: now}
	l.scanProc()
	for _, d := range claudeConfigDirs {
		l.scanClaude(filepath.Join(d, "sessions"))
	}
	return l
}

func (l *Live) scanProc() {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == self {
			continue
		}
		fdDir := filepath.Join("/proc", p.Name(), "fd")
		fds, err := os.ReadDir(fdDir)
		if err != nil {
			continue // not ours to read
		}
		for _, fd := range fds {
			target, err := os.Readlink(filepath.Join(fdDir, fd.Name()))
			if err != nil || !strings.HasPrefix(target, "/") {
				continue
			}
			target = strings.TrimSuffix(target, " (deleted)")
			l.open[target] = append(l.open[target], pid)
		}
	}
}

// scanClaude reads Claude Code's <pid>.json files: {"pid", "sessionId", …}.
func (l *Live) scanClaude(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSuffix(name, ".json"))
		if err != nil || pid <= 0 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		var rec struct {
			PID       int    `json:"pid"`
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(b, &rec) != nil || rec.SessionID == "" {
			continue
		}
		if rec.PID > 0 {
			pid = rec.PID
		}
		if agentlock.PIDAlive(pid) {
			l.claude[rec.SessionID] = pid
		}
	}
}

// Why returns why the session (its id and files) is live, or "".
func (l *Live) Why(agent, id string, files []string) string {
	if agent == "claude" {
		if pid, ok := l.claude[id]; ok {
			return fmt.Sprintf("Claude Code process %d has it open (sessions/%d.json)", pid, pid)
		}
	}
	for _, f := range files {
		real := f
		if r, err := filepath.EvalSymlinks(f); err == nil {
			real = r
		}
		if pids := l.open[real]; len(pids) > 0 {
			return fmt.Sprintf("process %d has %s open", pids[0], f)
		}
	}
	if len(files) > 0 {
		locks, err := agentlock.Inspect(files[0])
		if err == nil {
			if live := agentlock.Live(locks); len(live) > 0 {
				return "locked by a running agent (" + live[0].String() + ")"
			}
		}
	}
	for _, f := range files {
		if st, err := os.Lstat(f); err == nil && l.Now.Sub(st.ModTime()) < l.Grace {
			return fmt.Sprintf("%s was modified %s ago, within the grace period of %s", f, l.Now.Sub(st.ModTime()).Round(time.Second), l.Grace)
		}
	}
	return ""
}
