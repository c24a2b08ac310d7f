package openclaw

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/agentlock"
	"github.com/sessctl/sessctl/internal/problem"
)

// Problem codes.
const (
	CodeIndexCorrupt      = "index-corrupt"        // sessions.json does not parse
	CodeIndexEmpty        = "index-empty"          // sessions.json is 0 bytes
	CodeIndexUnreadable   = "index-unreadable"     // sessions.json cannot be read
	CodeMissingTranscript = "missing-transcript"   // an entry names a transcript that does not exist
	CodeUnindexed         = "unindexed-transcript" // a primary transcript no entry names
	CodeArchived          = "archived-transcript"  // a reset/deleted/clear/bak archive (info)
	CodeImported          = "imported-transcript"  // moved aside by the SQLite import (info)
	CodeOutsidePath       = "session-file-outside" // sessionFile points out of the state directory
	CodeStaleLock         = "stale-lock"           // a .lock file whose holder is gone
	CodeLiveLock          = "lock-held"            // a .lock file whose holder is alive (info)
	CodeJSONLBesideSQLite = "jsonl-beside-sqlite"  // JSONL transcripts next to an agent database (info)
	CodeAgentDBUnreadable = "agent-db-unreadable"
)

// Check reports the state-level problems of every agent: the index, the
// mapping of entries to transcripts, archives and locks. now dates locks.
// Transcript contents are the pi reader's business.
func (s *State) Check(now time.Time) []problem.Problem {
	var out []problem.Problem
	for _, a := range s.Agents {
		out = append(out, a.Check(now)...)
	}
	return out
}

// Check reports one agent's problems, sorted by location.
func (a *Agent) Check(now time.Time) []problem.Problem {
	var out []problem.Problem
	storePath := filepath.Join(a.SessionsDir, "sessions.json")
	if a.IndexErr != nil {
		var ie *IndexError
		switch {
		case errors.As(a.IndexErr, &ie) && ie.Empty:
			out = append(out, problem.Problem{Code: CodeIndexEmpty, Severity: problem.Error, Scope: a.ID, Location: storePath,
				Message: "session store is empty (0 bytes): OpenClaw loads it as {} and every session key is forgotten",
				Fix:     "restore the newest sessions.json.bak.* beside it; sessctl never rewrites sessions.json"})
		case errors.As(a.IndexErr, &ie):
			out = append(out, problem.Problem{Code: CodeIndexCorrupt, Severity: problem.Error, Scope: a.ID, Location: storePath,
				Message: fmt.Sprintf("session store does not parse (%v): OpenClaw loads it as {} and overwrites it on the next save", ie.Err),
				Fix:     "stop the gateway, then restore the newest sessions.json.bak.* or fix the JSON by hand; sessctl never rewrites sessions.json"})
		default:
			out = append(out, problem.Problem{Code: CodeIndexUnreadable, Severity: problem.Error, Scope: a.ID, Location: storePath, Message: a.IndexErr.Error()})
		}
	}
	ts, err := a.Transcripts()
	if err != nil {
		out = append(out, problem.Problem{Code: CodeIndexUnreadable, Severity: problem.Error, Scope: a.ID, Location: a.SessionsDir, Message: err.Error()})
	}
	named := map[string]bool{} // entry key → satisfied
	primaries := 0
	for _, t := range ts {
		for _, e := range t.Entries {
			named[e.Key] = true
		}
		switch t.Status {
		case StatusOrphan:
			primaries++
			if a.IndexErr != nil {
				continue // the store is unreadable: reported once above
			}
			out = append(out, problem.Problem{Code: CodeUnindexed, Severity: problem.Warning, Scope: a.ID, Location: t.Path,
				Message: fmt.Sprintf("transcript %s is named by no sessions.json entry (%d bytes)", filepath.Base(t.Path), t.Size),
				Fix:     "OpenClaw cannot reach it; `openclaw doctor` offers to archive it as .deleted.<timestamp>"})
		case StatusArchived:
			out = append(out, problem.Problem{Code: CodeArchived, Severity: problem.Info, Scope: a.ID, Location: t.Path,
				Message: fmt.Sprintf("%s archive of session %s (%s)", t.Reason, t.SessionID, archivedAt(t.ArchivedAt))})
		case StatusImported:
			out = append(out, problem.Problem{Code: CodeImported, Severity: problem.Info, Scope: a.ID, Location: t.Path,
				Message: fmt.Sprintf("legacy transcript of session %s moved aside by the SQLite import", t.SessionID)})
		default:
			primaries++
		}
	}
	if a.Index != nil {
		for i := range a.Index.Entries {
			e := &a.Index.Entries[i]
			p, outside := a.Resolve(e)
			if outside {
				out = append(out, problem.Problem{Code: CodeOutsidePath, Severity: problem.Warning, Scope: a.ID, Location: filepath.Join(a.SessionsDir, "sessions.json"), ID: e.Key,
					Message: fmt.Sprintf("sessionFile %q points out of the state directory; sessctl does not follow it", e.SessionFile),
					Fix:     "an absolute path from another install or agent; OpenClaw falls back to the same file name in this sessions folder"})
			}
			if named[e.Key] || p == "" {
				continue
			}
			out = append(out, problem.Problem{Code: CodeMissingTranscript, Severity: problem.Warning, Scope: a.ID, Location: p, ID: e.Key,
				Message: fmt.Sprintf("entry %s (session %s) names a transcript that does not exist", e.Key, e.SessionID),
				Fix:     "the transcript was deleted or pruned; `openclaw sessions cleanup --fix-missing` drops such entries"})
		}
	}
	out = append(out, a.checkLocks(now)...)
	if a.DBPath != "" && primaries > 0 {
		out = append(out, problem.Problem{Code: CodeJSONLBesideSQLite, Severity: problem.Info, Scope: a.ID, Location: a.SessionsDir,
			Message: fmt.Sprintf("%d JSONL transcript(s) beside the agent database %s", primaries, filepath.Base(a.DBPath)),
			Fix:     "OpenClaw ≥ 2026.8 reads only the database; `openclaw doctor --session-sqlite import` imports legacy transcripts"})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Location < out[j].Location })
	return out
}

func archivedAt(t time.Time) string {
	if t.IsZero() {
		return "time unknown"
	}
	return "archived " + t.Format(time.RFC3339)
}

// checkLocks inspects every *.lock of the sessions folder with the shared
// agentlock rules (dead or recycled pid, or older than 30 minutes).
func (a *Agent) checkLocks(now time.Time) []problem.Problem {
	ents, err := os.ReadDir(a.SessionsDir)
	if err != nil {
		return nil
	}
	var out []problem.Problem
	for _, de := range ents {
		if de.IsDir() || !strings.HasSuffix(de.Name(), ".lock") {
			continue
		}
		lockPath := filepath.Join(a.SessionsDir, de.Name())
		file := strings.TrimSuffix(lockPath, ".lock")
		locks, err := agentlock.InspectAt(file, now)
		if err != nil {
			out = append(out, problem.Problem{Code: CodeStaleLock, Severity: problem.Warning, Scope: a.ID, Location: lockPath,
				Message: "lock file cannot be inspected: " + err.Error()})
			continue
		}
		for _, l := range locks {
			if l.Kind != agentlock.OpenClawLockFile {
				continue
			}
			if l.Live {
				out = append(out, problem.Problem{Code: CodeLiveLock, Severity: problem.Info, Scope: a.ID, Location: lockPath,
					Message: fmt.Sprintf("held by live pid %d: an agent run is writing %s", l.PID, filepath.Base(file))})
				continue
			}
			out = append(out, problem.Problem{Code: CodeStaleLock, Severity: problem.Warning, Scope: a.ID, Location: lockPath,
				Message: fmt.Sprintf("stale lock on %s (%s)", filepath.Base(file), strings.Join(l.Reasons, ", ")),
				Fix:     "its holder is gone; OpenClaw reclaims it on the next write, `openclaw doctor` removes it"})
		}
	}
	return out
}
