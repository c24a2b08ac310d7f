package sessfmt

// ForkOptions are fork's flags.
type ForkOptions struct {
	// At is the entry to fork at (an id or unique prefix); "" is the
	// active leaf.
	At string
	// Full copies the whole tree (pi's forkFrom).
	Full bool
	// Output is the new file's path; "" names it beside the source as the
	// agent would.
	Output string
	// DryRun writes nothing.
	DryRun bool
}

// ForkResult reports a fork. Its JSON form is what `fork --json` prints.
type ForkResult struct {
	Source    string `json:"source"`
	Path      string `json:"path"`
	SessionID string `json:"sessionId"`
	At        string `json:"at,omitempty"`
	// Entries is how many entries (records) the fork holds.
	Entries int `json:"entries"`
	// Relinked counts entries re-chained (past dropped labels for pi; to
	// the previous record for Claude Code).
	Relinked int `json:"relinked"`
	// LabelsKept counts pi labels re-added at the end.
	LabelsKept int  `json:"labels"`
	DryRun     bool `json:"dryRun"`
	// Summary is the one-line account fork prints on stderr (agent's own
	// words: entries or records, what was re-chained).
	Summary string `json:"-"`
	// Notes are what the user must know about the new file (an OpenClaw
	// fork no sessions.json names), printed on stderr.
	Notes []string `json:"notes,omitempty"`
}

// Forker is a session that can be forked into a new session file:
// `sessctl fork`.
type Forker interface {
	Fork(opts ForkOptions) (*ForkResult, error)
}

// ForkFunc forks the session file at src. Like RepairFunc it is handed to
// the format by the one list of formats.
type ForkFunc func(src string, opts ForkOptions) (*ForkResult, error)

// Writers are the writing capabilities whose code cannot live in the
// format's own package; nil fields are not supported.
type Writers struct {
	Repair RepairFunc
	Fork   ForkFunc
}

// RepairFile repairs s's file with w.Repair (Unsupported when w has none):
// the body of a format's Repair method.
func (w Writers) RepairFile(s Session, opts RepairOptions) (*RepairResult, error) {
	if w.Repair == nil {
		return nil, Unsupported(s, "repair")
	}
	return w.Repair(s.Ref().Path, opts)
}

// ForkFile forks s's file with w.Fork (Unsupported when w has none).
func (w Writers) ForkFile(s Session, opts ForkOptions) (*ForkResult, error) {
	if w.Fork == nil {
		return nil, Unsupported(s, "fork")
	}
	return w.Fork(s.Ref().Path, opts)
}
