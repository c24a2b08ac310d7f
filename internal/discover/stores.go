package discover

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/format/openclaw"
	"github.com/sessctl/sessctl/internal/format/opencode"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Stores are agents that keep many sessions in one database or index
// rather than one file per session: OpenCode (opencode*.db and storage/)
// and OpenClaw's SQLite era (agents/<id>/agent/openclaw-agent.sqlite).
// ListStores lists their sessions; each row's Path is "<store>#<id>",
// which show, tree and compact-view accept.

// OpenCodeInfo is what OpenCode stores about a session beyond the common fields.
type OpenCodeInfo struct {
	ProjectID string          `json:"projectId"`
	ParentID  string          `json:"parentId,omitempty"`
	Sources   []string        `json:"sources"`
	Cost      float64         `json:"cost"`
	Tokens    opencode.Tokens `json:"tokens"`
}

func wants(agents []string, agent string) bool {
	if len(agents) == 0 {
		return true
	}
	for _, a := range agents {
		if strings.EqualFold(a, agent) {
			return true
		}
	}
	return false
}

// ListStores lists the sessions of database-backed stores selected by
// opts.Agents: OpenCode data directories ($XDG_DATA_HOME/opencode and
// --root opencode=PATH) and OpenClaw agent databases.
func ListStores(opts Options) ([]*Session, []Warning) {
	var out []*Session
	var warns []Warning
	if wants(opts.Agents, "opencode") {
		dirs := []string{opencode.DataDirFrom(opts.Env.Get)}
		for _, r := range opts.Extra {
			if r.Agent == "opencode" {
				dirs = append(dirs, r.Path)
			}
		}
		seen := map[string]bool{}
		for i, d := range dirs {
			if seen[d] {
				continue
			}
			seen[d] = true
			if _, err := os.Stat(d); err != nil {
				if i > 0 {
					warns = append(warns, Warning{Path: d, Err: err})
				}
				continue
			}
			ss, ws := openCodeSessions(d)
			out = append(out, ss...)
			warns = append(warns, ws...)
		}
	}
	if wants(opts.Agents, "openclaw") {
		var reg *sessfmt.Registry
		for _, r := range DefaultRoots(opts.Env, []string{"openclaw"}, opts.Extra) {
			if reg == nil {
				reg = newRegistry(opts.Env)
			}
			ss, ws := openClawDBSessions(r.Path, reg)
			out = append(out, ss...)
			warns = append(warns, ws...)
		}
	}
	for _, s := range out {
		s.clampTimes()
	}
	return out, warns
}

func openCodeSessions(dir string) ([]*Session, []Warning) {
	st, err := opencode.Open(dir)
	if err != nil {
		return nil, []Warning{{Path: dir, Err: err}}
	}
	defer st.Close()
	all, probs := st.Sessions()
	var warns []Warning
	for _, p := range probs {
		warns = append(warns, Warning{Path: p.Location, Err: errString(p.Message)})
	}
	out := make([]*Session, 0, len(all))
	for i := range all {
		s := &all[i]
		loc := s.Location
		if strings.HasSuffix(loc, ".json") { // JSON storage: name the data directory
			loc = dir
		}
		row := &Session{
			Agent: "opencode", Format: "opencode", ID: s.ID, Path: loc + "#" + s.ID, Root: dir,
			Cwd: s.Directory, Title: s.Title, TitleSource: "title", Messages: s.Messages, Entries: s.Messages,
			Modified: s.Updated, MTime: s.Updated,
			OpenCode: &OpenCodeInfo{ProjectID: s.ProjectID, ParentID: s.ParentID, Sources: s.Sources, Cost: s.Cost, Tokens: s.Tokens},
		}
		if !s.Created.IsZero() {
			c := s.Created
			row.Created = &c
		}
		if row.Modified.IsZero() {
			row.Modified = time.Unix(0, 0).UTC()
			row.MTime = row.Modified
		}
		if s.ParentID != "" {
			row.SubagentOf = loc + "#" + s.ParentID
		}
		out = append(out, row)
	}
	return out, warns
}

// openClawDBSessions lists the transcript generations of every agent
// database below an OpenClaw agents/ folder. Each row's problems and
// message count are the verdict of the session as show and check open it
// (applyVerdict), not the database's event count: one verdict.
func openClawDBSessions(agentsDir string, reg *sessfmt.Registry) ([]*Session, []Warning) {
	dbs, _ := filepath.Glob(filepath.Join(agentsDir, "*", "agent", "openclaw-agent.sqlite"))
	var out []*Session
	var warns []Warning
	for _, p := range dbs {
		d, err := openclaw.OpenAgentDB(p)
		if err != nil {
			warns = append(warns, Warning{Path: p, Err: err})
			continue
		}
		ss, err := d.Sessions()
		var arch []openclaw.ArchivedSession
		if err == nil {
			arch, err = d.ArchivedSessions() // deleted/reset sessions (OpenClaw 2026.9)
		}
		d.Close()
		if err != nil {
			warns = append(warns, Warning{Path: p, Err: err})
			continue
		}
		agent := filepath.Base(filepath.Dir(filepath.Dir(p)))
		for _, a := range arch {
			li := a.Info
			row := &Session{
				Agent: "openclaw", Format: "openclaw-sqlite", ID: a.SessionID, Path: p + "#" + a.SessionID, Root: agentsDir,
				Cwd: li.Cwd, FirstMessage: li.FirstMessage, Messages: li.Messages, Entries: li.Entries, Modified: li.Modified, MTime: a.Created,
				Problems: li.ProblemCount(), ProblemCodes: li.Problems,
				OpenClaw: &OpenClawInfo{AgentID: agent, Keys: []string{a.Key}, Status: "archived", Kind: a.Reason},
			}
			row.Title, row.TitleSource = sessfmt.Title(li.Name, "name", li.FirstMessage)
			if !li.Created.IsZero() {
				c := li.Created
				row.Created = &c
			}
			applyVerdict(reg, row)
			out = append(out, row)
		}
		for _, s := range ss {
			row := &Session{
				Agent: "openclaw", Format: "openclaw-sqlite", ID: s.SessionID, Path: p + "#" + s.SessionID, Root: agentsDir,
				Messages: s.Events, Entries: s.Events, Modified: s.Updated, MTime: s.Updated,
				OpenClaw: &OpenClawInfo{AgentID: agent, Keys: []string{s.Key}, Status: "sqlite", Kind: s.Reason, Channel: s.Channel, Label: s.Label, DisplayName: s.DisplayName},
			}
			switch {
			case s.Label != "":
				row.Title, row.TitleSource = s.Label, "openclaw-label"
			case s.DisplayName != "":
				row.Title, row.TitleSource = s.DisplayName, "openclaw-label"
			default:
				row.Title, row.TitleSource = s.Key, "openclaw-key"
			}
			if !s.Created.IsZero() {
				c := s.Created
				row.Created = &c
			}
			applyVerdict(reg, row)
			out = append(out, row)
		}
	}
	return out, warns
}

type errString string

func (e errString) Error() string { return string(e) }
