package claude

import (
	"strings"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// ResumeAgents is claude: the Claude Code sessions this format resumes.
func (Format) ResumeAgents() []string { return []string{"claude"} }

// ResumeCommand is "cd <cwd> && claude --resume <id>": Claude Code looks
// the id up in the project folder of the current directory. A subagent
// transcript (id agent-…) has none; it is resumed through its main
// session.
func (Format) ResumeCommand(in sessfmt.ResumeInfo) (sessfmt.ResumeCommand, bool) {
	if in.ID == "" || strings.HasPrefix(in.ID, "agent-") {
		return sessfmt.ResumeCommand{}, false
	}
	return sessfmt.ResumeCommand{Dir: in.Cwd, Argv: []string{"claude", "--resume", in.ID}}, true
}
