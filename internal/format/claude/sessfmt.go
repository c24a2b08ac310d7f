package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Format is Claude Code's transcript format in the format registry.
type Format struct{ sessfmt.FileFormat }

// Name is "claude".
func (Format) Name() string { return "claude" }

// CheckOptions refuses an unknown --leaf-mode ("" is the default).
func (Format) CheckOptions(o sessfmt.OpenOptions) error {
	if o.LeafMode == "" {
		return nil
	}
	if _, err := ParseLeafMode(o.LeafMode); err != nil {
		return fmt.Errorf("--leaf-mode: %w", err)
	}
	return nil
}

// Sniff scores head as a Claude Code transcript: each record carrying
// Claude Code's keys (uuid, parentUuid, or sessionId with cwd) or one of its
// line types (summary with leafUuid, file-history-snapshot, custom-title,
// ai-title, last-prompt, queue-operation) is a vote; n votes score 4n+3, so
// Claude Code wins ties with the other line formats. A pi-family header
// (scored far higher by pi) wins over any vote. With no recognisable line,
// a path in ~/.claude/projects scores 3.
func (Format) Sniff(path string, head []byte) int {
	votes := 0
	sessfmt.HeadObjects(head, func(rec *jsonl.Record) bool {
		v := rec.Value
		typ := rec.Str("type")
		switch {
		case v.Get("uuid") != nil || v.Get("parentUuid") != nil || v.Get("sessionId") != nil && v.Get("cwd") != nil:
			votes++
		case typ == "summary" && v.Get("leafUuid") != nil, typ == "file-history-snapshot", typ == "custom-title",
			typ == "ai-title", typ == "last-prompt", typ == "queue-operation":
			votes++
		}
		return true
	})
	if votes > 0 {
		return 4*votes + 3
	}
	if strings.Contains(filepath.ToSlash(path), "/.claude/projects/") {
		return 3
	}
	return 0
}

// Open indexes the transcript. The leaf is picked by opts.LeafMode
// (last-prompt when empty) unless opts.Leaf names one.
func (Format) Open(ref sessfmt.Ref, opts sessfmt.OpenOptions) (sessfmt.Session, error) {
	mode := LeafLastPrompt
	if opts.LeafMode != "" {
		m, err := ParseLeafMode(opts.LeafMode)
		if err != nil {
			return nil, &sessfmt.ArgError{Err: fmt.Errorf("--leaf-mode: %w", err)}
		}
		mode = m
	}
	f, err := openFile(ref.Path, opts.Usage)
	if err != nil {
		return nil, err
	}
	ref.Format = "claude"
	if ref.Agent == "" {
		ref.Agent = "claude"
	}
	return &Session{ref: ref, File: f, Mode: mode, LeafArg: opts.Leaf}, nil
}

// Session is an opened Claude Code transcript.
type Session struct {
	ref  sessfmt.Ref
	File *File
	// Mode picks the leaf when LeafArg (--leaf) is empty.
	Mode    LeafMode
	LeafArg string

	meta    *sessfmt.Meta
	counted *sessfmt.Meta

	subs     *Subagents
	subsErr  error
	subsDone bool
}

// Ref is the reference the session was opened by.
func (s *Session) Ref() sessfmt.Ref { return s.ref }

// Problems are what the reader saw, in the shared shape.
func (s *Session) Problems() []problem.Problem { return s.File.ProblemList() }

// Close releases the file.
func (s *Session) Close() error { return s.File.Close() }

// Leaf is --leaf, else the uuid the leaf mode picks ("" when none).
func (s *Session) Leaf() string {
	if s.LeafArg != "" {
		return s.LeafArg
	}
	l, _ := s.File.Leaf(s.Mode)
	return l
}

// LeafChoice says which leaf each mode picks and whether they disagree.
func (s *Session) LeafChoice() sessfmt.LeafChoice {
	c := s.File.LeafModes()
	return sessfmt.LeafChoice{Mode: string(s.Mode), Disagree: c.Disagree, Summary: c.Summary(), ProblemCode: ProbLeafDisagree}
}

// Meta is what list shows for the transcript: ListInfo and the /resume
// picker's title (custom-title > ai-title > last-prompt > summary > first
// real prompt; InfoMeta), with Messages the number of messages show prints.
func (s *Session) Meta() sessfmt.Meta {
	if s.counted == nil {
		m := s.listMeta()
		if p, err := s.walk(sessfmt.ContextOptions{}); err == nil {
			p.NoText = true
			n := 0
			if s.File.EachTurn(p, func(*Turn) error { n++; return nil }) == nil {
				m.Messages = n
			}
		}
		s.counted = &m
	}
	return *s.counted
}

// ListMeta is Meta without the count of shown messages (Messages is
// list's head-and-tail count): what show's header and stats need, without
// the walk of the path that counting takes.
func (s *Session) ListMeta() sessfmt.Meta { return s.listMeta() }

// listMeta is Meta without the count of shown messages (what views need
// for their header).
func (s *Session) listMeta() sessfmt.Meta {
	if s.meta == nil {
		m := MetaOf(s.ref.Path)
		s.meta = &m
	}
	return *s.meta
}

// MetaOf summarises the transcript at path as list does (ListInfo, then
// InfoMeta).
func MetaOf(path string) sessfmt.Meta {
	info, err := ListInfo(path)
	if err != nil {
		m := InfoMeta(path, nil)
		if st, err := os.Stat(path); err == nil {
			m.Bytes, m.Modified = st.Size(), st.ModTime().UTC()
		}
		return m
	}
	return InfoMeta(path, info)
}

// InfoMeta is the Meta of the transcript at path from its ListInfo (nil:
// only what the path says): the /resume picker's title (pickTitle), cwd,
// branch, the head-and-tail message count, times. list's Claude Code rows
// take their id, title and first prompt from here too, so list, show and
// tree never disagree.
func InfoMeta(path string, info *Info) sessfmt.Meta {
	m := sessfmt.Meta{Agent: "claude", Format: "claude", ID: strings.TrimSuffix(filepath.Base(path), ".jsonl")}
	if info == nil {
		return m
	}
	m.Cwd, m.GitBranch, m.Messages, m.Bytes = info.Cwd, info.GitBranch, info.Messages, info.Size
	src := info.TitleSource
	if src == TitleFirstPrompt {
		src = "first-message"
	}
	m.Title, m.TitleSource = sessfmt.Title(info.Title, src, info.FirstPrompt)
	if t, err := time.Parse(time.RFC3339Nano, info.Created); err == nil {
		t = t.UTC()
		m.Created = &t
	}
	if t, err := time.Parse(time.RFC3339Nano, info.Modified); err == nil {
		m.Modified = t.UTC()
	} else {
		m.Modified = info.MTime.UTC().Truncate(time.Millisecond)
	}
	return m
}
