package opencode

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"github.com/sessctl/sessctl/internal/problem"
	"path/filepath"
	"sort"
	"strings"
)

const hintToolUnfinished = "if OpenCode is not running this session, the call was interrupted: OpenCode replays it to the model as \"[Tool execution was interrupted]\" but the stored status stays stale"

// Check inspects every generation and returns its problems, sorted by
// location. It never writes.
func (s *Store) Check() []problem.Problem {
	probs := append([]problem.Problem(nil), s.OpenProblems...)
	all, readProbs := s.Sessions()
	// Sessions() repeats OpenProblems; keep only the read problems.
	probs = append(probs, readProbs[len(s.OpenProblems):]...)
	if s.JSON != nil {
		probs = append(probs, s.checkJSON()...)
	}
	for _, d := range s.DBs {
		probs = append(probs, d.check()...)
	}
	probs = append(probs, checkSessions(all)...)
	probs = append(probs, s.checkReverts(all)...)
	sort.SliceStable(probs, func(i, j int) bool {
		if probs[i].Location != probs[j].Location {
			return probs[i].Location < probs[j].Location
		}
		return probs[i].Code < probs[j].Code
	})
	return dedupe(probs)
}

func dedupe(ps []problem.Problem) []problem.Problem {
	out := ps[:0]
	for i, p := range ps {
		if i > 0 && p == ps[i-1] {
			continue
		}
		out = append(out, p)
	}
	return out
}

// checkSessions reports children whose parent session exists nowhere.
func checkSessions(all []Session) []problem.Problem {
	ids := make(map[string]bool, len(all))
	for _, s := range all {
		ids[s.ID] = true
	}
	var out []problem.Problem
	for _, s := range all {
		if s.ParentID != "" && !ids[s.ParentID] {
			out = append(out, problem.Problem{Code: CodeParentMissing, Severity: SevWarning, Location: s.Location, ID: s.ID,
				Message: fmt.Sprintf("child session %q names parent %s, which exists in no generation", s.Title, s.ParentID),
				Fix:     "the parent was deleted without its children (parent_id has no foreign key); OpenCode lists it nowhere because child sessions are hidden from the session list"})
		}
	}
	return out
}

// checkReverts reports pending reverts: a hidden tail that OpenCode removes
// on the next prompt (or restores on unrevert).
func (s *Store) checkReverts(all []Session) []problem.Problem {
	var out []problem.Problem
	for _, ss := range all {
		if ss.Revert == nil {
			continue
		}
		t, err := s.Load(ss.ID)
		if err != nil {
			continue
		}
		hidden := MarkReverted(t)
		if hidden == 0 {
			out = append(out, problem.Problem{Code: CodeRevertTargetGone, Severity: SevWarning, Location: ss.Location, ID: ss.ID,
				Message: fmt.Sprintf("revert marker names message %s, which is not in the session", ss.Revert.MessageID),
				Fix:     "the revert can never be applied or undone; OpenCode clears the marker on the next prompt"})
			continue
		}
		out = append(out, problem.Problem{Code: CodeRevertPending, Severity: SevInfo, Location: ss.Location, ID: ss.ID,
			Message: fmt.Sprintf("revert to %s was never applied: %d message(s) are hidden but still stored", ss.Revert.MessageID, hidden),
			Fix:     "OpenCode deletes the hidden tail on the next prompt in this session, or restores it with /redo (unrevert)"})
	}
	return out
}

// checkJSON walks the storage/ tree: unreadable files, orphans, unfinished
// tool parts, sessions without project and sessions no database imported.
func (s *Store) checkJSON() []problem.Problem {
	j := s.JSON
	var out []problem.Problem
	sessionIDs := map[string]string{} // id → file
	sessionProject := map[string]string{}
	projectIDs := map[string]bool{}

	pnames, _ := jsonNames(filepath.Join(j.Dir, "project"))
	for _, n := range pnames {
		path := filepath.Join(j.Dir, "project", n)
		var v json.RawMessage
		if fp := decodeFile(path, &v); fp != nil {
			out = append(out, fp.problem("project"))
		}
		projectIDs[strings.TrimSuffix(n, ".json")] = true
	}
	projDirs, _ := subdirs(filepath.Join(j.Dir, "session"))
	unreadable := map[string]bool{}
	fileIDs := map[string]bool{} // ids inside session files that differ from their names
	for _, pid := range projDirs {
		names, _ := jsonNames(filepath.Join(j.Dir, "session", pid))
		for _, n := range names {
			id := strings.TrimSuffix(n, ".json")
			path := filepath.Join(j.Dir, "session", pid, n)
			sessionIDs[id] = path
			sessionProject[id] = pid
			// Its health is reported by Sessions() (read problems).
			var v struct {
				ID string `json:"id"`
			}
			if decodeFile(path, &v) != nil {
				unreadable[id] = true
			} else if v.ID != "" && v.ID != id {
				// Its messages may be filed under the id inside it
				// (JSONStore.messageFolder reads them from there).
				fileIDs[v.ID] = true
			}
		}
	}

	messageIDs := map[string]bool{}
	msgDirs, _ := subdirs(filepath.Join(j.Dir, "message"))
	for _, sid := range msgDirs {
		dir := filepath.Join(j.Dir, "message", sid)
		names, _ := jsonNames(dir)
		for _, n := range names {
			messageIDs[strings.TrimSuffix(n, ".json")] = true
			var v json.RawMessage
			if fp := decodeFile(filepath.Join(dir, n), &v); fp == nil {
				if inner := innerID(v); inner != "" {
					messageIDs[inner] = true // parts may be filed under it
				}
			} else {
				p := fp.problem("message")
				p.ID = sid
				out = append(out, p)
			}
		}
		if _, ok := sessionIDs[sid]; !ok && !fileIDs[sid] && len(names) > 0 {
			out = append(out, problem.Problem{Code: CodeOrphanMessage, Severity: SevWarning, Location: dir, ID: sid,
				Message: fmt.Sprintf("%d message file(s) for session %s, which has no session file", len(names), sid),
				Fix:     "left behind by an interrupted delete; OpenCode's importer skips them"})
		}
	}

	partDirs, _ := subdirs(filepath.Join(j.Dir, "part"))
	for _, mid := range partDirs {
		dir := filepath.Join(j.Dir, "part", mid)
		names, _ := jsonNames(dir)
		for _, n := range names {
			path := filepath.Join(dir, n)
			var p struct {
				Type      string `json:"type"`
				SessionID string `json:"sessionID"`
				Tool      string `json:"tool"`
				State     *struct {
					Status string `json:"status"`
				} `json:"state"`
			}
			if fp := decodeFile(path, &p); fp != nil {
				out = append(out, fp.problem("part"))
				continue
			}
			if p.Type == "tool" && p.State != nil && (p.State.Status == "pending" || p.State.Status == "running") {
				out = append(out, problem.Problem{Code: CodeToolUnfinished, Severity: SevWarning, Location: path, ID: p.SessionID,
					Message: fmt.Sprintf("tool part %s (%s) was left %s", strings.TrimSuffix(n, ".json"), p.Tool, p.State.Status),
					Fix:     hintToolUnfinished})
			}
		}
		if !messageIDs[mid] && len(names) > 0 {
			out = append(out, problem.Problem{Code: CodeOrphanPart, Severity: SevWarning, Location: dir,
				Message: fmt.Sprintf("%d part file(s) for message %s, which has no message file", len(names), mid),
				Fix:     "left behind by an interrupted delete; OpenCode's importer skips them (\"part missing message session\")"})
		}
	}

	for id, file := range sessionIDs {
		pid := sessionProject[id]
		if !projectIDs[pid] {
			out = append(out, problem.Problem{Code: CodeProjectMissing, Severity: SevWarning, Location: file, ID: id,
				Message: fmt.Sprintf("session is filed under project %s, which has no storage/project/%s.json", pid, pid),
				Fix:     "OpenCode's JSON→SQLite import skips sessions whose project file is missing"})
		}
	}

	// JSON sessions that no database holds (the lost-migration bug).
	if len(s.DBs) > 0 {
		inDB := map[string]bool{}
		for _, d := range s.DBs {
			for _, t := range []string{"session", "session_v2"} {
				if !d.HasTable(t) {
					continue
				}
				rows, err := d.db.Query("SELECT id FROM `" + t + "`")
				if err != nil {
					continue
				}
				for rows.Next() {
					var id string
					if rows.Scan(&id) == nil {
						inDB[id] = true
					}
				}
				rows.Close()
			}
		}
		for id, file := range sessionIDs {
			if inDB[id] || unreadable[id] {
				continue
			}
			out = append(out, problem.Problem{Code: CodeNotImported, Severity: SevWarning, Location: file, ID: id,
				Message: "JSON session is in no database: OpenCode ≥ 1.2 does not show it",
				Fix:     "the one-time JSON→SQLite import was skipped (it only runs when opencode.db does not exist yet); `opencode db migrate` re-runs it"})
		}
	}
	return out
}

// check runs the per-database checks of the session/message/part tables.
func (d *DB) check() []problem.Problem {
	var out []problem.Problem
	loc := func(table, id string) string { return d.Path + ":" + table + "/" + id }
	query := func(q string, f func(*sql.Rows) error) {
		rows, err := d.db.Query(q)
		if err != nil {
			out = append(out, problem.Problem{Code: CodeReadError, Severity: SevError, Location: d.Path, Message: err.Error()})
			return
		}
		defer rows.Close()
		for rows.Next() {
			if err := f(rows); err != nil {
				out = append(out, problem.Problem{Code: CodeReadError, Severity: SevError, Location: d.Path, Message: err.Error()})
				return
			}
		}
	}
	if d.HasTable("message") && d.HasTable("session") {
		query(`SELECT m.session_id, COUNT(*) FROM message m LEFT JOIN session s ON s.id = m.session_id WHERE s.id IS NULL GROUP BY m.session_id`, func(r *sql.Rows) error {
			var sid string
			var n int
			if err := r.Scan(&sid, &n); err != nil {
				return err
			}
			out = append(out, problem.Problem{Code: CodeOrphanMessage, Severity: SevWarning, Location: loc("message", "?session_id="+sid), ID: sid,
				Message: fmt.Sprintf("%d message row(s) for session %s, which has no session row", n, sid),
				Fix:     "written while foreign keys were off or by a partial delete; OpenCode never shows them"})
			return nil
		})
	}
	if d.HasTable("part") && d.HasTable("message") {
		query(`SELECT p.message_id, COUNT(*), MIN(p.session_id) FROM part p LEFT JOIN message m ON m.id = p.message_id WHERE m.id IS NULL GROUP BY p.message_id`, func(r *sql.Rows) error {
			var mid string
			var sid sql.NullString
			var n int
			if err := r.Scan(&mid, &n, &sid); err != nil {
				return err
			}
			out = append(out, problem.Problem{Code: CodeOrphanPart, Severity: SevWarning, Location: loc("part", "?message_id="+mid), ID: sid.String,
				Message: fmt.Sprintf("%d part row(s) for message %s, which has no message row", n, mid),
				Fix:     "written while foreign keys were off or by a partial delete; OpenCode never shows them"})
			return nil
		})
		query(`SELECT p.id, p.session_id, m.session_id FROM part p JOIN message m ON m.id = p.message_id WHERE p.session_id <> m.session_id`, func(r *sql.Rows) error {
			var pid, ps, ms string
			if err := r.Scan(&pid, &ps, &ms); err != nil {
				return err
			}
			out = append(out, problem.Problem{Code: CodePartSession, Severity: SevWarning, Location: loc("part", pid), ID: ms,
				Message: fmt.Sprintf("part's session_id %s differs from its message's session %s", ps, ms),
				Fix:     "part.session_id has no foreign key; OpenCode loads parts by message, so the part shows under " + ms})
			return nil
		})
		// The LIKE prefilter keeps JSON parsing to candidate rows.
		query(`SELECT id, session_id, json_extract(data, '$.tool'), json_extract(data, '$.state.status') FROM part
			WHERE (data LIKE '%"pending"%' OR data LIKE '%"running"%')
			AND json_valid(data) AND json_extract(data, '$.type') = 'tool'
			AND json_extract(data, '$.state.status') IN ('pending', 'running')`, func(r *sql.Rows) error {
			var pid, sid string
			var tool, status sql.NullString
			if err := r.Scan(&pid, &sid, &tool, &status); err != nil {
				return err
			}
			out = append(out, problem.Problem{Code: CodeToolUnfinished, Severity: SevWarning, Location: loc("part", pid), ID: sid,
				Message: fmt.Sprintf("tool part (%s) was left %s", tool.String, status.String),
				Fix:     hintToolUnfinished})
			return nil
		})
	}
	for _, t := range []string{"session", "session_v2"} {
		if !d.HasTable(t) || !d.HasTable("project") || !d.cols[t]["project_id"] {
			continue
		}
		query("SELECT s.id, s.project_id FROM `"+t+"` s LEFT JOIN project p ON p.id = s.project_id WHERE p.id IS NULL", func(r *sql.Rows) error {
			var sid string
			var pid sql.NullString
			if err := r.Scan(&sid, &pid); err != nil {
				return err
			}
			out = append(out, problem.Problem{Code: CodeProjectMissing, Severity: SevWarning, Location: loc(t, sid), ID: sid,
				Message: fmt.Sprintf("session's project_id %q matches no project row", pid.String),
				Fix:     "OpenCode lists sessions by project, so this one is hidden; re-point it with UPDATE session SET project_id=… (sessctl does not write databases yet)"})
			return nil
		})
	}
	return out
}
