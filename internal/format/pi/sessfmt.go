package pi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/valyala/fastjson"
)

// Format is the pi family (pi, oh-my-pi, xcsh, and OpenClaw's transcript
// files) in the format registry.
type Format struct{ sessfmt.FileFormat }

// Name is "pi".
func (Format) Name() string { return "pi" }

// CheckOptions refuses an unknown --dialect.
func (Format) CheckOptions(o sessfmt.OpenOptions) error {
	_, err := ParseDialect(o.Dialect)
	return err
}

// SniffHeader is the score of a file with a pi-family header line: above
// any vote count of another format.
const SniffHeader = 1 << 20

// Sniff scores head as a pi-family file: a header line ("session" with an
// id, or oh-my-pi's title slot on line 1) is certain; otherwise each pi
// entry line (a known entry type with an id, and none of Claude Code's
// record keys) is a vote, worth 4 (ties go to Claude Code and Agent Core,
// whose votes score 4n+3 and 4n+2). With no recognisable line, a pi-family
// folder in the path scores 2.
func (Format) Sniff(path string, head []byte) int {
	votes, header := 0, false
	sessfmt.HeadObjects(head, func(rec *jsonl.Record) bool {
		typ := rec.Str("type")
		switch {
		case typ == "session" && hasString(rec, "id"), typ == "title" && rec.Line == 1 && rec.Value.Get("v") != nil:
			header = true
			return false
		case hasClaudeKeys(rec):
			// a Claude Code record, whatever its type
		case isEntryType(typ) && rec.Value.Get("id") != nil:
			votes++
		}
		return true
	})
	if header {
		return SniffHeader
	}
	if votes > 0 {
		return 4*votes + 1
	}
	p := filepath.ToSlash(path)
	for _, dir := range []string{"/.pi/agent/", "/.omp/", "/.xcsh/", "/.openclaw/"} {
		if strings.Contains(p, dir) && !strings.Contains(p, "/.claude/projects/") {
			return 2
		}
	}
	return 0
}

// hasClaudeKeys: the record keys only Claude Code writes.
func hasClaudeKeys(rec *jsonl.Record) bool {
	v := rec.Value
	return v.Get("uuid") != nil || v.Get("parentUuid") != nil || v.Get("sessionId") != nil && v.Get("cwd") != nil
}

func isEntryType(t string) bool {
	switch t {
	case "message", "model_change", "thinking_level_change", "compaction", "branch_summary", "custom",
		"custom_message", "label", "session_info", "ttsr_injection", "mode_change", "session_init":
		return true
	}
	return false
}

func hasString(rec *jsonl.Record, k string) bool {
	v := rec.Value.Get(k)
	return v != nil && v.Type() == fastjson.TypeString
}

// Open indexes the file in the dialect opts ask for ("auto" or "" finds
// it). A file without a valid header opens (its problems say why), but
// every view of it is refused with the reason.
func (Format) Open(ref sessfmt.Ref, opts sessfmt.OpenOptions) (sessfmt.Session, error) {
	return OpenSession(ref, ref.Path, opts)
}

// Session is an opened pi-family session file.
type Session struct {
	ref  sessfmt.Ref
	File *File
	// leafArg is --leaf; leaf is its entry once resolved.
	leafArg  string
	leaf     int
	leafErr  error
	leafOnce sync.Once

	// metaPath is the file Meta summarises (the session file, or the
	// temporary export of an OpenClaw database session).
	metaPath  string
	metaOnce  sync.Once
	meta      sessfmt.Meta
	countOnce sync.Once
	counted   sessfmt.Meta
	titleOnce sync.Once
	title     string
	// MetaFunc, when set, computes Meta instead of list's pi reader (an
	// OpenClaw database session is listed from its database row).
	MetaFunc func() sessfmt.Meta
}

// OpenSession indexes the pi-family file at path for ref: path is the
// file to read, ref what the session is called (they differ for an OpenClaw
// database session read through a temporary export).
func OpenSession(ref sessfmt.Ref, path string, opts sessfmt.OpenOptions) (*Session, error) {
	d, v, err := ParseDialectVersion(opts.Dialect)
	if err != nil {
		return nil, &sessfmt.ArgError{Err: err}
	}
	f, err := Open(path, Options{Dialect: d, PiVersion: v, Check: opts.Check})
	if err != nil {
		return nil, err
	}
	return &Session{ref: completeRef(ref, f, path), File: f, leafArg: opts.Leaf, leaf: tree.None, metaPath: path}, nil
}

// Ref is the reference the session was opened by.
func (s *Session) Ref() sessfmt.Ref { return s.ref }

// Problems are what the reader saw, in file order.
func (s *Session) Problems() []problem.Problem { return s.File.Problems }

// Close releases nothing: the file is opened by each pass.
func (s *Session) Close() error { return nil }

// Valid returns why the session cannot be viewed (no valid header), or nil.
func (s *Session) Valid() error {
	f := s.File
	if f.HeaderErr == nil {
		return nil
	}
	name := s.ref.String()
	return fmt.Errorf("%s is not a valid %s session file: %v; nothing was changed (sessctl check %s explains, %s)",
		name, f.Dialect, f.HeaderErr, name, f.HeaderFix())
}

// LeafIndex is the entry the context is rebuilt at: --leaf resolved (an
// unknown or ambiguous one is a *sessfmt.LeafError), or tree.None for the
// active leaf.
func (s *Session) LeafIndex() (int, error) {
	if err := s.Valid(); err != nil {
		return tree.None, err
	}
	s.leafOnce.Do(func() {
		if s.leafArg == "" {
			return
		}
		i, err := s.File.FindEntry(s.leafArg)
		if err != nil {
			s.leafErr = &sessfmt.LeafError{Err: err}
			return
		}
		s.leaf = i
	})
	return s.leaf, s.leafErr
}

// Leaf is the id of the entry the context is rebuilt at: --leaf, else the
// last entry in file order ("" when there is none).
func (s *Session) Leaf() string {
	i, err := s.LeafIndex()
	if err != nil {
		return ""
	}
	if i == tree.None {
		i = s.File.Index.Last()
	}
	if i == tree.None || s.File.Entries[i].NullID() {
		return ""
	}
	return s.File.DisplayID(i)
}

// Meta is what list shows for the file: list's own reader (ReadListInfo)
// and title rule, with Messages the number of messages show prints.
func (s *Session) Meta() sessfmt.Meta {
	s.countOnce.Do(func() {
		s.counted = s.listMeta()
		leaf, err := s.LeafIndex()
		if err != nil {
			s.counted.Messages = 0 // show prints nothing
			return
		}
		n := 0
		// Counting needs no text: long lines are read elided, not held.
		refs := newLongRefs()
		defer refs.close()
		if _, err := s.File.streamContext(leaf, nil, func([]byte, int) error { n++; return nil }, refs); err == nil {
			s.counted.Messages = n
		}
	})
	return s.counted
}

// listMeta is Meta without the count of shown messages (what views need
// for their header: no pass over the context).
func (s *Session) listMeta() sessfmt.Meta {
	s.metaOnce.Do(func() {
		if s.MetaFunc != nil {
			s.meta = s.MetaFunc()
			return
		}
		s.meta = MetaOf(s.metaPath, s.ref.Agent)
		if s.metaPath != s.ref.Path {
			s.meta.Bytes = s.File.Size
		}
	})
	return s.meta
}

// MetaOf summarises the pi-family file at path as list does for agent.
// When the file cannot be read the Meta holds what is known.
func MetaOf(path, agent string) sessfmt.Meta {
	m := sessfmt.Meta{Agent: agent, Format: "pi"}
	if st, err := os.Stat(path); err == nil {
		m.Bytes = st.Size()
	}
	li, err := ReadListInfo(path)
	if err != nil {
		return m
	}
	m.Dialect = string(li.Dialect)
	m.ID, m.Cwd = li.ID, li.Cwd
	m.Messages, m.Entries = li.Messages, li.Entries
	m.ParentSession = li.ParentSession
	if m.ID == "" {
		m.ID = idFromFileName(path)
	}
	if !li.Created.IsZero() {
		c := li.Created
		m.Created = &c
	}
	src := "name"
	if agent != "pi" || li.Dialect != DialectPi {
		src = "title"
	}
	m.Title, m.TitleSource = sessfmt.Title(li.Name, src, li.FirstMessage)
	m.Modified = li.Modified.UTC().Truncate(time.Millisecond)
	return m
}

// idFromFileName: pi-family files are named <timestamp>_<id>.jsonl.
func idFromFileName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if i := strings.LastIndexByte(base, '_'); i >= 0 && i+1 < len(base) {
		return base[i+1:]
	}
	return base
}

// headTitle is list's title for the views' headers. For pi files it comes
// from the index instead of a second pass over the file: the same inputs
// ReadListInfo finds (the session_info name, else the first user message
// with text) through the same rule (sessfmt.Title);
// TestHeaderTitleIsListTitle holds them equal.
func (s *Session) headTitle() string {
	s.titleOnce.Do(func() {
		f := s.File
		if s.MetaFunc != nil || f.Dialect != DialectPi {
			// oh-my-pi and xcsh names (title slot, title_change) are
			// ReadListInfo's to tell; an OpenClaw database row has its own
			s.title = s.listMeta().Title
			return
		}
		first := ""
		for i := range f.Entries {
			if f.Entries[i].Type() != "message" || f.Entries[i].Role() != "user" {
				continue
			}
			txt, obj, err := f.MessageText(i) // a long line is not held (firsttext.go)
			if err != nil {
				break
			}
			if !obj {
				continue
			}
			if txt != "" {
				first = txt
				break
			}
		}
		src := "name"
		if s.ref.Agent != "pi" || f.Dialect != DialectPi {
			src = "title"
		}
		s.title, _ = sessfmt.Title(f.Name, src, first)
	})
	return s.title
}

// completeRef fills in what ref leaves open for the opened file f at path:
// the format, and the agent from the file's dialect (an OpenClaw transcript
// is a pi-dialect file in an agent's sessions folder: it is openclaw's, as
// list says, issue 15.4).
func completeRef(ref sessfmt.Ref, f *File, path string) sessfmt.Ref {
	if ref.Format == "" {
		ref.Format = "pi"
	}
	if ref.Agent == "" {
		ref.Agent = string(f.Dialect)
		if f.Dialect == DialectPi && safewrite.IsOpenClawTranscript(path) {
			ref.Agent = "openclaw"
		}
	}
	return ref
}
