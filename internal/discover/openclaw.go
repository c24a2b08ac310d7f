package discover

import (
	"os"
	"path/filepath"

	"github.com/sessctl/sessctl/internal/format/openclaw"
)

// OpenClaw (formerly Clawdbot, Moltbot): per agent
// <state>/agents/<agentId>/sessions/ holds pi-format transcripts and the
// sessions.json index (internal/format/openclaw). Rows are the live
// transcripts (primary, topic, pi-named forks); archives are for check.

// OpenClawInfo is what sessions.json says about a transcript.
type OpenClawInfo struct {
	AgentID      string   `json:"agentId"`
	Keys         []string `json:"keys"`
	Status       string   `json:"status"` // active (indexed) or orphan
	Kind         string   `json:"kind"`   // transcript, topic, fork
	Channel      string   `json:"channel,omitempty"`
	Label        string   `json:"label,omitempty"`
	DisplayName  string   `json:"displayName,omitempty"`
	InputTokens  *int64   `json:"inputTokens,omitempty"`
	OutputTokens *int64   `json:"outputTokens,omitempty"`
	TotalTokens  *int64   `json:"totalTokens,omitempty"`
}

// openClawRoots: $OPENCLAW_STATE_DIR (or legacy $CLAWDBOT_STATE_DIR), else
// ~/.openclaw, plus the legacy ~/.clawdbot, ~/.moltbot and ~/.moldbot when
// they exist (OpenClaw leaves them as symlinks to the new folder, which
// the scan lists once).
func openClawRoots(env Env) []Root {
	for _, v := range []string{"OPENCLAW_STATE_DIR", "CLAWDBOT_STATE_DIR"} {
		if d := env.Get(v); d != "" {
			return []Root{{Agent: "openclaw", Path: filepath.Join(env.ExpandHome(d), "agents"), Source: "$" + v}}
		}
	}
	h := env.Home()
	if h == "" {
		return nil
	}
	out := []Root{{Agent: "openclaw", Path: filepath.Join(h, ".openclaw", "agents"), Source: "default"}}
	for _, legacy := range []string{".clawdbot", ".moltbot", ".moldbot"} {
		p := filepath.Join(h, legacy, "agents")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			out = append(out, Root{Agent: "openclaw", Path: p, Source: "legacy"})
		}
	}
	return out
}

// openClawFiles lists agents/<id>/sessions/ transcripts.
func openClawFiles(root string, warn func(string, error)) []string {
	var out []string
	agents, err := os.ReadDir(root)
	if err != nil {
		warn(root, err)
		return nil
	}
	for _, a := range agents {
		dir := filepath.Join(root, a.Name(), "sessions")
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		for _, p := range walkJSONL(dir, 0, warn) {
			switch openclaw.Classify(filepath.Base(p)).Kind {
			case openclaw.KindTranscript, openclaw.KindTopic, openclaw.KindFork:
				out = append(out, p)
			}
		}
	}
	return out
}

func openClawInfo(path string, st os.FileInfo) (*Session, error) {
	s, err := piInfo("openclaw")(path, st)
	if err != nil {
		return nil, err
	}
	row, ok := openclaw.Lookup(path)
	if !ok {
		return s, nil
	}
	oi := &OpenClawInfo{AgentID: row.AgentID, Keys: row.Keys(), Status: row.Status, Kind: string(row.Kind)}
	if oi.Keys == nil {
		oi.Keys = []string{}
	}
	if len(row.Entries) > 0 {
		e := row.Entries[0]
		for _, x := range row.Entries { // the most recently updated entry speaks for the file
			if x.UpdatedAt.After(e.UpdatedAt) {
				e = x
			}
		}
		oi.Channel, oi.Label, oi.DisplayName = e.Channel, e.Label, e.DisplayName
		oi.InputTokens, oi.OutputTokens, oi.TotalTokens = e.InputTokens, e.OutputTokens, e.TotalTokens
		if n := e.Name(); n != "" {
			s.Title, s.TitleSource = n, "openclaw-label"
		} else {
			s.Title, s.TitleSource = e.Key, "openclaw-key"
		}
	}
	// A fork of an archived (.reset/.deleted) transcript that no entry
	// names is not a live session (issue 15.4): list shows it only with
	// --all.
	if row.Kind == openclaw.KindFork && len(row.Entries) == 0 && s.ParentSession != nil &&
		openclaw.Classify(filepath.Base(*s.ParentSession)).Kind == openclaw.KindArchive {
		oi.Status = openclaw.StatusArchived
	}
	s.OpenClaw = oi
	return s, nil
}
