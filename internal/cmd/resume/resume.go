// Package resume implements `sessctl resume`: the command that resumes a
// session in the agent that wrote it, printed or run.
package resume

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of resume.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool
	Session string
	Exec    bool
	// ExecFunc replaces the process with argv run in dir (syscall.Exec
	// after a chdir outside tests); it returns only on failure.
	ExecFunc func(dir string, argv []string) error
}

// NewCmd builds the resume command. runF replaces the run function in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f, ExecFunc: execIn}
	cmd := &cobra.Command{
		Use:   "resume <session>",
		Short: "Print (or run) the command that resumes a session in its agent",
		Long: `Print the command that resumes a session in the agent that wrote it, as one
shell line with every word quoted (paste it, or eval it):

  claude     cd <cwd> && claude --resume <id>
  pi, omp, xcsh  cd <cwd> && pi --session <path>   (omp, xcsh: the same flag)
  opencode   cd <cwd> && opencode --session <id>
  openclaw   openclaw tui --session <session key>

The session is named as list shows it (a path, an id, a unique id prefix,
<store>#<id>). Agent Core is a library with no command of its own, a Claude
Code subagent transcript is resumed through its main session, and an
OpenClaw transcript that no session key names has none: resume says so and
exits 1.

--exec runs the command instead of printing it: sessctl changes to the
session's folder and replaces itself with the agent (execve), looked up in
PATH. No shell is involved, so nothing in the session (a cwd, an id) is ever
read by a shell, and the agent gets the terminal, the signals and the exit
status directly. Shell aliases and functions named like the agent are not
used; run the printed line in your shell for those.

--json prints {"agent", "session", "dir", "argv", "command"}.`,
		Example: `  sessctl resume 0199aaaa
  eval "$(sessctl resume ses_7e5f)"
  sessctl resume --exec ~/.pi/agent/sessions/--w-proj--/2026-01-01T00-00-00-000Z_0199aaaa.jsonl`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			opts.JSON = f.JSON
			if opts.Exec && opts.JSON {
				return cmdutil.FlagErrorf("--exec and --json cannot be used together")
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Exec, "exec", false, "Run the command (in the session's folder, without a shell) instead of printing it")
	return cmd
}

// Run runs resume.
func Run(opts *Options) error {
	f := opts.Factory
	s, err := f.OpenSession(opts.Session, sessfmt.OpenOptions{})
	if err != nil {
		return err
	}
	ref := s.Ref()
	m := s.Meta()
	s.Close()
	info := sessfmt.ResumeInfo{Agent: m.Agent, ID: m.ID, Path: ref.String(), Cwd: m.Cwd}
	if info.Agent == "" {
		info.Agent = ref.Agent
	}
	if m.SubagentOf != "" {
		return fmt.Errorf("%s: a subagent transcript is resumed through its main session (%s)", render.EscapeLine(ref.String()), render.EscapeLine(m.SubagentOf))
	}
	c, ok := f.Registry.ResumeFor(info) // Keys nil: the OpenClaw format looks them up

	if !ok {
		return fmt.Errorf("%s: no command resumes this session in %s", render.EscapeLine(ref.String()), info.Agent)
	}
	if opts.Exec {
		if c.Dir != "" {
			if st, err := os.Stat(c.Dir); err != nil || !st.IsDir() {
				return fmt.Errorf("the session's folder %s is gone: %v", render.EscapeLine(c.Dir), err)
			}
		}
		return opts.ExecFunc(c.Dir, c.Argv)
	}
	if opts.JSON {
		b, err := json.Marshal(struct {
			Agent   string   `json:"agent"`
			Session string   `json:"session"`
			Dir     string   `json:"dir,omitempty"`
			Argv    []string `json:"argv"`
			Command string   `json:"command"`
		}{info.Agent, ref.String(), c.Dir, c.Argv, c.String()})
		if err != nil {
			return err
		}
		if opts.IO.IsStdoutTTY() {
			b = render.EscapeJSONForTerminal(b)
		}
		_, err = fmt.Fprintf(opts.IO.Out, "%s\n", b)
		return err
	}
	line := c.String()
	if opts.IO.IsStdoutTTY() {
		line = render.EscapeLine(line)
	}
	_, err = fmt.Fprintln(opts.IO.Out, line)
	return err
}
