package sessfmt

import "strings"

// ResumeCommand is how to resume a session in the agent that wrote it: the
// program and its arguments, run in Dir.
type ResumeCommand struct {
	// Dir is the folder to run it in (the session's cwd; "" when the
	// command works from anywhere or the cwd is unknown).
	Dir string `json:"dir,omitempty"`
	// Argv is the program and its arguments, unquoted.
	Argv []string `json:"argv"`
}

// String is the command as one shell line: "cd <dir> && <argv>", every
// word quoted for a POSIX shell where it needs to be.
func (c ResumeCommand) String() string {
	var b strings.Builder
	if c.Dir != "" {
		b.WriteString("cd ")
		b.WriteString(ShellQuote(c.Dir))
		b.WriteString(" && ")
	}
	for i, a := range c.Argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ShellQuote(a))
	}
	return b.String()
}

// ResumeInfo is what a Resumer needs to know about a session.
type ResumeInfo struct {
	Agent string
	ID    string
	// Path is the session file (or "<store>#<id>").
	Path string
	Cwd  string
	// Keys are the session keys an OpenClaw index gives the session; nil
	// when the caller has not looked them up (the OpenClaw format then
	// looks them up itself), empty when there are none.
	Keys []string
}

// Resumer is a Format that knows the command resuming its agents'
// sessions in the agent that wrote them (sessctl resume, list --json's
// resume, show's header). It is asked through Registry.ResumeFor.
type Resumer interface {
	// ResumeAgents are the agents (Meta.Agent) whose sessions it resumes.
	// An agent is named by one format only.
	ResumeAgents() []string
	// ResumeCommand is the command that resumes the session in, and false
	// when the agent has no command for it.
	ResumeCommand(in ResumeInfo) (ResumeCommand, bool)
}

// ResumeFor is the command that resumes a session in its agent, asked of
// the registered format whose Resumer names in.Agent; false when none
// does (Agent Core is a library with no command) or that format has no
// command for the session (a Claude Code subagent transcript, resumed
// through its main session; an OpenClaw transcript that no session key
// names). A nil registry has no command for any session.
func (r *Registry) ResumeFor(in ResumeInfo) (ResumeCommand, bool) {
	if r == nil {
		return ResumeCommand{}, false
	}
	for _, f := range r.formats {
		rs, ok := f.(Resumer)
		if !ok {
			continue
		}
		for _, a := range rs.ResumeAgents() {
			if a == in.Agent {
				return rs.ResumeCommand(in)
			}
		}
	}
	return ResumeCommand{}, false
}

// ShellQuote quotes s for a POSIX shell: as it is when it holds only
// characters no shell treats specially, else in single quotes, a single
// quote inside becoming quote, backslash, quote, quote.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./:=@%+,", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
