package opencode

import "github.com/sessctl/sessctl/internal/sessfmt"

// ResumeAgents is opencode.
func (Format) ResumeAgents() []string { return []string{"opencode"} }

// ResumeCommand is "cd <cwd> && opencode --session <id>".
func (Format) ResumeCommand(in sessfmt.ResumeInfo) (sessfmt.ResumeCommand, bool) {
	if in.ID == "" {
		return sessfmt.ResumeCommand{}, false
	}
	return sessfmt.ResumeCommand{Dir: in.Cwd, Argv: []string{"opencode", "--session", in.ID}}, true
}
