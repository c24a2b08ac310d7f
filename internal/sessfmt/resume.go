package sessfmt

import (
	"path/filepath"
	"strings"
)

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

// ResumeInfo is what ResumeFor needs to know about a session.
type ResumeInfo struct {
	Agent string
	ID    string
	// Path is the session file (or "<store>#<id>").
	Path string
	Cwd  string
	// Keys are the session keys an OpenClaw index gives the session.
	Keys []string
}

// ResumeFor is the command that resumes a session in its agent, and false
// when the agent has no command for it (Agent Core is a library; an
// OpenClaw transcript that no session key names; a Claude Code subagent
// transcript, which is resumed through its main session):
//
//   - claude:   cd <cwd> && claude --resume <id> (Claude Code looks the id
//     up in the project folder of the current directory)
//   - pi, omp, xcsh: cd <cwd> && <pi|omp|xcsh> --session <path> (a path,
//     so no id prefix can match another session; from the cwd, so pi does
//     not offer to fork it into another project)
//   - opencode: cd <cwd> && opencode --session <id>
//   - openclaw: openclaw tui --session <key> (sessions are keyed, not
//     found by id or path; of several keys, the agent's main key
//     agent:<id>:main, else the first)
func ResumeFor(in ResumeInfo) (ResumeCommand, bool) {
	c := ResumeCommand{Dir: in.Cwd}
	switch in.Agent {
	case "claude":
		if in.ID == "" || strings.HasPrefix(in.ID, "agent-") {
			return ResumeCommand{}, false
		}
		c.Argv = []string{"claude", "--resume", in.ID}
	case "pi", "omp", "xcsh":
		if in.Path == "" || strings.Contains(in.Path, "#") {
			return ResumeCommand{}, false
		}
		p := in.Path
		if a, err := filepath.Abs(p); err == nil {
			p = a // the command runs in another folder
		}
		c.Argv = []string{in.Agent, "--session", p}
	case "opencode":
		if in.ID == "" {
			return ResumeCommand{}, false
		}
		c.Argv = []string{"opencode", "--session", in.ID}
	case "openclaw":
		if len(in.Keys) == 0 {
			return ResumeCommand{}, false
		}
		key := in.Keys[0]
		for _, k := range in.Keys { // several keys: the agent's main one
			if strings.HasPrefix(k, "agent:") && strings.HasSuffix(k, ":main") && strings.Count(k, ":") == 2 {
				key = k
			}
		}
		c.Dir = ""
		c.Argv = []string{"openclaw", "tui", "--session", key}
	default:
		return ResumeCommand{}, false
	}
	return c, true
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
