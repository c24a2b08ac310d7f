package opencode

import (
	"errors"
	"fmt"
	"time"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Format is OpenCode's storage (JSON storage trees, opencode*.db
// databases, `opencode export` files) in the format registry.
type Format struct {
	// Getenv reads the environment, for the default data directory a bare
	// "ses_…" id is looked up in (nil: os.Getenv).
	Getenv func(string) string
}

// Name is "opencode".
func (Format) Name() string { return "opencode" }

// Claim claims OpenCode arguments (ParseRef): "<data dir or db>#ses_…", a
// "ses_…" id or prefix (in the default data directory), a data directory,
// storage tree or database, or an `opencode export` file.
func (f Format) Claim(arg string) (sessfmt.Ref, bool) {
	r, ok := ParseRef(arg, f.Getenv)
	if !ok {
		return sessfmt.Ref{}, false
	}
	if r.Export != "" {
		return sessfmt.Ref{Format: "opencode", Agent: "opencode", Path: r.Export}, true
	}
	return sessfmt.Ref{Format: "opencode", Agent: "opencode", Path: r.Data, ID: r.ID}, true
}

// Sniff says 0: OpenCode data is claimed, never sniffed.
func (Format) Sniff(string, []byte) int { return 0 }

// errNoLeaf refuses --leaf.
var errNoLeaf = errors.New("an OpenCode session is a list of messages; there is no leaf to choose")

// Open loads the session ref names with its messages and parts (a ref
// naming a whole store opens the store: only the tree can be drawn). An
// unknown or ambiguous id, or --leaf, is a usage error.
func (Format) Open(ref sessfmt.Ref, opts sessfmt.OpenOptions) (sessfmt.Session, error) {
	if opts.Leaf != "" {
		return nil, &sessfmt.LeafError{Err: errNoLeaf}
	}
	ref.Format, ref.Agent = "opencode", "opencode"
	o := &Opened{ref: ref}
	if ref.ID == "" && IsExport(ref.Path) {
		t, err := LoadRef(Ref{Export: ref.Path})
		if err != nil {
			return nil, err
		}
		o.T, o.export = t, true
		return o, nil
	}
	st, err := Open(ref.Path)
	if err != nil {
		return nil, err
	}
	o.Store = st
	if ref.ID != "" {
		t, err := st.Load(ref.ID)
		if err != nil {
			st.Close()
			if errors.Is(err, ErrAmbiguous) || errors.Is(err, ErrNoSession) {
				return nil, &sessfmt.ArgError{Err: err}
			}
			return nil, err
		}
		o.T = t
	}
	return o, nil
}

// Opened is an OpenCode session (or a whole store) opened through the
// registry.
type Opened struct {
	ref sessfmt.Ref
	// Store is the opened data directory or database (nil for an export
	// file); T the session's transcript (nil for a whole store).
	Store  *Store
	T      *Transcript
	export bool

	treeDone  bool
	treeModel *model.Tree
	notices   []sessfmt.Notice
	all       int
}

// Ref is the reference the session was opened by.
func (o *Opened) Ref() sessfmt.Ref { return o.ref }

// Problems: loading a session reports none (check reads the store).
func (o *Opened) Problems() []problem.Problem { return nil }

// Close closes the store.
func (o *Opened) Close() error {
	if o.Store != nil {
		return o.Store.Close()
	}
	return nil
}

// Leaf is "": an OpenCode session is a list of messages.
func (o *Opened) Leaf() string { return "" }

// Loaded is the loaded session, or the error LoadRef gives for a
// reference naming a whole store.
func (o *Opened) Loaded() (*Transcript, error) {
	if o.T == nil {
		p := o.ref.Path
		return nil, &sessfmt.ArgError{Err: fmt.Errorf("%s %w: name one as %s#ses_… (sessctl list --agent opencode shows them)", p, ErrNoSession, p)}
	}
	return o.T, nil
}

// Meta is what list shows for the session (its row in the store), with
// Messages the number of messages show prints.
func (o *Opened) Meta() sessfmt.Meta {
	m := sessfmt.Meta{Agent: "opencode", Format: "opencode"}
	if o.T == nil {
		return m
	}
	s := o.T.Session
	m.ID, m.Cwd, m.Messages, m.Entries = s.ID, s.Directory, len(TranscriptView(o.T).Messages), s.Messages
	m.Title, m.TitleSource = sessfmt.Title(s.Title, "title", "")
	m.Modified = s.Updated
	if m.Modified.IsZero() {
		m.Modified = time.Unix(0, 0).UTC()
	}
	if !s.Created.IsZero() {
		c := s.Created
		m.Created = &c
	}
	if s.ParentID != "" {
		m.SubagentOf = o.ref.Path + "#" + s.ParentID
	}
	return m
}
