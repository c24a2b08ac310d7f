package openclaw

import (
	"os"
	"path/filepath"
	"sync"
	"time"
)

// agentCache memoizes one agent's transcript mapping while its
// sessions.json keeps the same size and modification time.
type agentCache struct {
	size  int64
	mtime time.Time
	rows  map[string]Transcript // by path
}

var (
	lookupMu    sync.Mutex
	lookupCache = map[string]*agentCache{}
)

// Lookup returns the row of the transcript at path (a file in
// agents/<id>/sessions/), with the index entries naming it, and its agent id.
// It reads the agent's sessions.json once per change of that file, so a
// listing of many transcripts parses each index once. ok is false when path
// is not in an OpenClaw sessions folder.
func Lookup(path string) (t Transcript, ok bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Transcript{}, false
	}
	sessions := filepath.Dir(abs)
	agentDir := filepath.Dir(sessions)
	if filepath.Base(sessions) != "sessions" || filepath.Base(filepath.Dir(agentDir)) != "agents" {
		return Transcript{}, false
	}
	var size int64
	var mtime time.Time
	if fi, err := os.Stat(filepath.Join(sessions, "sessions.json")); err == nil {
		size, mtime = fi.Size(), fi.ModTime()
	}
	lookupMu.Lock()
	defer lookupMu.Unlock()
	c := lookupCache[sessions]
	if c == nil || c.size != size || !c.mtime.Equal(mtime) {
		a := openAgent(filepath.Dir(filepath.Dir(agentDir)), filepath.Base(agentDir))
		rows, err := a.Transcripts()
		if err != nil {
			return Transcript{}, false
		}
		c = &agentCache{size: size, mtime: mtime, rows: map[string]Transcript{}}
		for _, r := range rows {
			c.rows[r.Path] = r
		}
		lookupCache[sessions] = c
	}
	t, ok = c.rows[abs]
	return t, ok
}
