package pi

import (
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// ResumeAgents are pi, omp and xcsh: the agents of the pi family whose
// session files this format resumes (an OpenClaw transcript, a pi-format
// file too, is resumed by the openclaw format, by its session key).
func (Format) ResumeAgents() []string { return []string{"pi", "omp", "xcsh"} }

// ResumeCommand is "cd <cwd> && <pi|omp|xcsh> --session <path>": a path,
// so no id prefix can match another session, made absolute since the
// command runs in another folder; from the cwd, so pi does not offer to
// fork it into another project. A store ref ("<db>#<id>") has none.
func (Format) ResumeCommand(in sessfmt.ResumeInfo) (sessfmt.ResumeCommand, bool) {
	if in.Path == "" || strings.Contains(in.Path, "#") {
		return sessfmt.ResumeCommand{}, false
	}
	p := in.Path
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	return sessfmt.ResumeCommand{Dir: in.Cwd, Argv: []string{in.Agent, "--session", p}}, true
}
