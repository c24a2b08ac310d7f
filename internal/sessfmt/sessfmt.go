// Package sessfmt is the one registry of agent session formats. Every
// command opens a session through it and asks the session for what it can
// do; no command switches on a format or imports a format package.
//
// A Format (one per agent format: the pi family, Claude Code, OpenCode,
// OpenClaw, Agent Core) claims arguments and sniffs content; Open returns a
// Session. A Session gives its metadata, the problems its reader saw and
// its leaf; everything else is a capability, an optional interface that a
// command finds by type assertion:
//
//	ctx, ok := s.(sessfmt.Contexter)
//	if !ok { return sessfmt.Unsupported(s, "show") }
//
// Capabilities that several commands need live in this package (one file per
// capability); a format implements those it supports. The registry itself
// holds its formats in one explicit list (see internal/sessfmt/formats),
// never filled from init().
package sessfmt

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
)

// Ref names one session: a file, or one session inside a store (an OpenCode
// database or storage tree, an OpenClaw database), written "<store>#<id>".
// Ref.String is the reference list prints, and every command accepts it.
type Ref struct {
	// Format is the registry name of the format that claimed it (pi, claude,
	// opencode, openclaw, agentcore).
	Format string `json:"format"`
	// Agent is the agent kind when known (pi, omp, xcsh, claude, opencode,
	// openclaw, agentcore); "" until the session is opened.
	Agent string `json:"agent,omitempty"`
	// Path is the session file, or the store holding the session.
	Path string `json:"path"`
	// ID is the session's id inside the store Path names; "" for a file
	// that is one session.
	ID string `json:"id,omitempty"`
}

// String is the reference as printed: the path, or "<path>#<id>".
func (r Ref) String() string {
	if r.ID == "" {
		return r.Path
	}
	return r.Path + "#" + r.ID
}

// OpenOptions tune how a session is read. Formats ignore what does not apply
// to them.
type OpenOptions struct {
	// Dialect is the pi-family dialect: "", "auto", "pi", "omp" or "xcsh".
	Dialect string
	// LeafMode is the Claude Code leaf choice: "" (the agent's current
	// behaviour), "last-prompt", "picker", "resume" or "file-order".
	LeafMode string
	// Leaf names the entry to rebuild the context at (an id or a unique id
	// prefix); "" is the active leaf. An unknown leaf is a *LeafError.
	Leaf string
	// Check says the caller will ask for check's verdict (Checker): a
	// format may gather what its checks read while it reads the file.
	Check bool
	// Usage says the caller will ask for UsageEvents (Usager): a format
	// may gather them while it reads the file.
	Usage bool
}

// Format is one agent format in the registry.
type Format interface {
	// Name is the registry name (pi, claude, opencode, openclaw, agentcore).
	Name() string
	// Claim says whether arg is a reference this format owns outright (a
	// "<db>#<id>" ref, a store folder, a store database), returning the Ref.
	// A plain session file is not claimed here: files are sniffed.
	Claim(arg string) (Ref, bool)
	// Sniff scores how sure the format is that the regular file at path,
	// whose first bytes are head (at most SniffBytes), is one of its
	// sessions: 0 not at all, higher is surer; a guess from the path alone
	// scores below SniffSure. The path is a hint only. A torn last line in
	// head is the cut, not damage.
	Sniff(path string, head []byte) int
	// Open reads the session ref names.
	Open(ref Ref, opts OpenOptions) (Session, error)
}

// SniffBytes is how much of a file's head Sniff is first given.
const SniffBytes = 256 << 10

// SniffSure is the lowest score that comes from content rather than from
// the path alone. When no format is that sure and the file is longer than
// SniffBytes, Sniff is asked again with up to SniffMaxBytes of head.
const SniffSure = 4

// SniffMaxBytes is the most a sniff reads.
const SniffMaxBytes = 64 << 20

// Session is one opened session. Everything beyond these methods is a
// capability (see the other files of this package).
type Session interface {
	// Ref is the reference the session was opened by, with Agent filled.
	Ref() Ref
	// Meta is what list shows for it; list, show and check compute it with
	// the same code.
	Meta() Meta
	// Problems are what the reader saw while opening (torn lines, orphans,
	// cycles, …), in file order.
	Problems() []problem.Problem
	// Leaf is the id of the entry the context is rebuilt at ("" when the
	// session has none).
	Leaf() string
	// Close releases what Open holds (file handles, database connections).
	Close() error
}

// Meta is a session's identity and summary. Title, ID and Messages are the
// one verdict every command prints for the session.
type Meta struct {
	Agent   string `json:"agent"`
	Format  string `json:"format"`
	Dialect string `json:"dialect,omitempty"`
	ID      string `json:"id"`
	Title   string `json:"title"`
	// TitleSource says where the title came from (name, custom-title,
	// ai-title, summary, first-message, …).
	TitleSource string     `json:"titleSource,omitempty"`
	Cwd         string     `json:"cwd"`
	GitBranch   string     `json:"gitBranch,omitempty"`
	Model       string     `json:"model,omitempty"`
	Created     *time.Time `json:"created"`
	Modified    time.Time  `json:"modified"`
	// Messages is the number of messages show prints for the active leaf.
	Messages int   `json:"messages"`
	Entries  int   `json:"entries"`
	Bytes    int64 `json:"bytes"`
	// ParentSession names the session this one was forked from.
	ParentSession string `json:"parentSession,omitempty"`
	// SubagentOf names the session a subagent transcript belongs to.
	SubagentOf string `json:"subagentOf,omitempty"`
}

// LeafError says --leaf named no entry, or several (exit 2).
type LeafError struct{ Err error }

func (e *LeafError) Error() string { return "--leaf: " + e.Err.Error() }
func (e *LeafError) Unwrap() error { return e.Err }

// ErrUnsupported is wrapped by Unsupported.
var ErrUnsupported = errors.New("not supported for this agent")

// Unsupported is the error a command returns when a session lacks the
// capability it needs: "<ref>: <what> is not supported for <agent> sessions".
func Unsupported(s Session, what string) error {
	r := s.Ref()
	agent := r.Agent
	if agent == "" {
		agent = r.Format
	}
	return fmt.Errorf("%s: %s %w (%s sessions)", r.String(), what, ErrUnsupported, agent)
}

// Notice is something a reader says about the view it builds, printed on
// stderr by the command: "<ref>[:<line>]: warning: <text> [<code>]", or
// without "warning:" for information.
type Notice struct {
	// Line is the line the notice is about (0: the whole session).
	Line int
	// Warning marks what may be wrong; otherwise it is information.
	Warning bool
	Text    string
	// Code is a stable name for the kind of notice ("" for none).
	Code string
	// Where names what the notice is about when it is not the session
	// itself (a file of a store); "" is the session.
	Where string
}

// ArgError says an argument or option names nothing usable in a session or
// store that exists (an unknown or ambiguous id in an OpenCode store, a
// --leaf a format has no use for): a usage error (exit 2).
type ArgError struct{ Err error }

func (e *ArgError) Error() string { return e.Err.Error() }
func (e *ArgError) Unwrap() error { return e.Err }

// OptionChecker is a format that validates the OpenOptions it uses (a
// dialect, a leaf mode) before anything is opened; Registry.CheckOptions
// asks every format that is one.
type OptionChecker interface {
	CheckOptions(opts OpenOptions) error
}

// Title is the one title rule of list and show: the name when it has any
// text (with nameSource as its source), else the first non-empty line of
// the first message ("first-message"); whitespace is collapsed.
func Title(name, nameSource, firstMessage string) (title, source string) {
	if n := oneLine(name); n != "" {
		return n, nameSource
	}
	for _, l := range strings.Split(firstMessage, "\n") {
		if t := oneLine(l); t != "" {
			return t, "first-message"
		}
	}
	return "", ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// SniffLines is how many JSON object lines of a head Sniff looks at.
const SniffLines = 64

// HeadObjects calls fn with each JSON object line of head, at most
// SniffLines of them, until fn returns false; other lines (blank, torn,
// not JSON, not an object) are skipped. Formats' Sniff methods use it.
func HeadObjects(head []byte, fn func(rec *jsonl.Record) bool) {
	rd := jsonl.NewReaderSize(bytes.NewReader(head), min(len(head)+1, jsonl.BufferSize)) // not a zeroed 1 MiB buffer per format and file
	for n := 0; n < SniffLines && rd.Next(); {
		rec := rd.Record()
		if rec.Kind != jsonl.Object {
			continue
		}
		n++
		if !fn(rec) {
			return
		}
	}
}

// FileFormat is embedded by formats whose sessions are files, which are
// sniffed, never claimed.
type FileFormat struct{}

// Claim claims nothing.
func (FileFormat) Claim(string) (Ref, bool) { return Ref{}, false }
