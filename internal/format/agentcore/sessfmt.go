package agentcore

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Format is Agent Core's session format in the format registry.
type Format struct{ sessfmt.FileFormat }

// Name is "agentcore".
func (Format) Name() string { return "agentcore" }

// Sniff scores head as an Agent Core file: each entry line (a string id,
// an Agent Core type, a numeric timestamp, and none of Claude Code's record
// keys) is a vote; n votes score 4n+2 (Claude Code wins ties, pi loses
// them). With no recognisable line, a path in ~/.pi/sessions scores 1.
func (Format) Sniff(path string, head []byte) int {
	votes, header := 0, false
	sessfmt.HeadObjects(head, func(rec *jsonl.Record) bool {
		v := rec.Value
		typ := rec.Str("type")
		switch {
		case typ == "session" || typ == "title" && rec.Line == 1 && v.Get("v") != nil:
			header = true // a pi-family header
			return false
		case v.Get("uuid") != nil || v.Get("parentUuid") != nil || v.Get("sessionId") != nil && v.Get("cwd") != nil:
			// a Claude Code record
		case Sniff(v):
			votes++
		}
		return true
	})
	if header {
		return 0
	}
	if votes > 0 {
		return 4*votes + 2
	}
	if strings.Contains(filepath.ToSlash(path), "/.pi/sessions/") {
		return 1
	}
	return 0
}

// Open indexes the file.
func (Format) Open(ref sessfmt.Ref, opts sessfmt.OpenOptions) (sessfmt.Session, error) {
	s, err := Read(ref.Path)
	if err != nil {
		return nil, err
	}
	ref.Format, ref.Agent = "agentcore", "agentcore"
	return &Opened{ref: ref, S: s, leafArg: opts.Leaf}, nil
}

// Opened is an Agent Core session opened through the registry.
type Opened struct {
	ref     sessfmt.Ref
	S       *Session
	leafArg string

	leafOnce sync.Once
	leaf     int
	leafErr  error
	meta     *sessfmt.Meta
}

// Ref is the reference the session was opened by.
func (o *Opened) Ref() sessfmt.Ref { return o.ref }

// Problems are the line problems seen while reading.
func (o *Opened) Problems() []problem.Problem { return o.S.Problems }

// Close releases nothing: the file is reopened by each pass.
func (o *Opened) Close() error { return nil }

// LeafIndex is --leaf resolved (a *sessfmt.LeafError when it names no
// entry, or several), else the first leaf in file order (-1: none).
func (o *Opened) LeafIndex() (int, error) {
	o.leafOnce.Do(func() {
		o.leaf = o.S.DefaultLeaf()
		if o.leafArg == "" {
			return
		}
		i, err := o.S.Find(o.leafArg)
		if err != nil {
			o.leafErr = &sessfmt.LeafError{Err: err}
			return
		}
		o.leaf = i
	})
	return o.leaf, o.leafErr
}

// Leaf is the id of the entry the context is rebuilt at.
func (o *Opened) Leaf() string {
	i, err := o.LeafIndex()
	if err != nil || i < 0 {
		return ""
	}
	return o.S.Entries[i].ID
}

// Meta is what list shows for the file (ReadListInfo, list's reader),
// with Messages the number of messages show prints.
func (o *Opened) Meta() sessfmt.Meta {
	if o.meta == nil {
		m := MetaOf(o.ref.Path)
		if leaf, err := o.LeafIndex(); err == nil {
			if tr, err := o.S.Transcript(leaf); err == nil {
				m.Messages = len(tr.Messages)
			}
		}
		o.meta = &m
	}
	return *o.meta
}

// MetaOf summarises the Agent Core file at path as list does.
func MetaOf(path string) sessfmt.Meta {
	m := sessfmt.Meta{Agent: "agentcore", Format: "agentcore"}
	st, err := os.Stat(path)
	if err == nil {
		m.Bytes = st.Size()
	}
	li, err := ReadListInfo(path)
	if err != nil {
		return m
	}
	m.ID, m.Messages, m.Entries = li.ID, li.Messages, li.Entries
	if !li.Created.IsZero() {
		c := li.Created
		m.Created = &c
	}
	m.Title, m.TitleSource = sessfmt.Title("", "", li.FirstMessage)
	m.Modified = li.Modified
	if m.Modified.IsZero() && st != nil {
		m.Modified = st.ModTime()
	}
	m.Modified = m.Modified.UTC().Truncate(time.Millisecond)
	return m
}
