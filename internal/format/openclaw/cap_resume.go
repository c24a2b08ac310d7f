package openclaw

import (
	"strings"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// ResumeAgents is openclaw: its sessions in an agent database and its
// transcript files (pi-format files, opened by the pi format) alike.
func (Format) ResumeAgents() []string { return []string{"openclaw"} }

// ResumeCommand is "openclaw tui --session <key>", from any folder:
// OpenClaw keys sessions; it does not find them by id or path. Of several
// keys it is the agent's main key (agent:<id>:main), else the first. When
// in.Keys is nil they are looked up here: a transcript file's from its
// agent's sessions.json, a "<db>#<id>" session's from the database. A
// session no key names has no command.
func (Format) ResumeCommand(in sessfmt.ResumeInfo) (sessfmt.ResumeCommand, bool) {
	keys := in.Keys
	if keys == nil {
		keys = resumeKeys(in.Path)
	}
	if len(keys) == 0 {
		return sessfmt.ResumeCommand{}, false
	}
	key := keys[0]
	for _, k := range keys { // several keys: the agent's main one
		if strings.HasPrefix(k, "agent:") && strings.HasSuffix(k, ":main") && strings.Count(k, ":") == 2 {
			key = k
		}
	}
	return sessfmt.ResumeCommand{Argv: []string{"openclaw", "tui", "--session", key}}, true
}

// resumeKeys are the session keys OpenClaw gives the session at path (a
// transcript file, or "<openclaw-agent.sqlite>#<session id>"), as list
// shows them: for a database session, its archived generation's key (a
// deleted or reset session) before its live one's.
func resumeKeys(path string) []string {
	db, id, ok := ParseDBRef(path)
	if !ok {
		if t, ok := Lookup(path); ok {
			return t.Keys()
		}
		return nil
	}
	d, err := OpenAgentDB(db)
	if err != nil {
		return nil
	}
	defer d.Close()
	if arch, err := d.ArchivedSessions(); err == nil {
		for _, a := range arch {
			if a.SessionID == id {
				return []string{a.Key}
			}
		}
	}
	if ss, err := d.Sessions(); err == nil {
		for _, s := range ss {
			if s.SessionID == id {
				return []string{s.Key}
			}
		}
	}
	return nil
}
