package claude

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// subagents finds and links the session's subagent transcripts once.
func (s *Session) subagents() *Subagents {
	if !s.subsDone {
		s.subsDone = true
		files, err := FindSubagents(s.ref.Path)
		if err != nil {
			s.subsErr = err
		}
		s.subs = s.File.LinkSubagents(files)
	}
	return s.subs
}

// TreeNotices says when the subagent transcripts could not be listed.
func (s *Session) TreeNotices() []sessfmt.Notice {
	s.subagents()
	if s.subsErr == nil {
		return nil
	}
	return []sessfmt.Notice{{Warning: true, Text: fmt.Sprintf("subagents: %v", s.subsErr)}}
}

// tree builds the record DAG with the leaf marked (--leaf, else the leaf
// mode's).
func (s *Session) tree() (*Tree, error) {
	t, err := s.File.Tree(s.Mode)
	if err != nil {
		return nil, err
	}
	if s.LeafArg != "" {
		if err := t.SetLeaf(s.File, s.LeafArg); err != nil {
			return nil, &sessfmt.LeafError{Err: err}
		}
	}
	return t, nil
}

// TreeView is the record DAG with subagent transcripts under the tool
// calls that spawned them (else in titled groups); record text is decoded
// only for drawn nodes.
func (s *Session) TreeView() (*sessfmt.TreeView, error) {
	subs := s.subagents()
	t, err := s.tree()
	if err != nil {
		return nil, err
	}
	v := s.File.View(t, subs)
	title := s.listMeta().Title
	if title == "" {
		title = "(untitled)"
	}
	head := fmt.Sprintf("claude-code session %s · %s · %d records", s.listMeta().ID, title, len(t.Nodes))
	if t.Progress > 0 {
		head += fmt.Sprintf(" · %d legacy progress lines bridged", t.Progress)
	}
	if t.ContinuedIn != "" {
		head += " · continued in " + t.ContinuedIn
	}
	tv := &sessfmt.TreeView{
		Header: head, Tree: v.Tree, Footer: true, ShortIDs: 8, FlatLast: true,
		Fill:  func(mt *model.Tree, nodes []int) error { v.FillText(mt, nodes); return nil },
		Close: func() error { v.Close(); return nil },
	}
	for _, g := range v.Groups {
		tv.Groups = append(tv.Groups, model.TreeGroup{Title: g.Title, Tree: g.Tree})
	}
	return tv, nil
}

// WriteTreeJSON writes tree --json: streamed from the index (no tree model
// in memory), or, when pretty, from the tree model, indented.
func (s *Session) WriteTreeJSON(w io.Writer, pretty bool) error {
	subs := s.subagents()
	if !pretty {
		if err := s.File.WriteTreeJSON(w, s.ref.Path, s.Mode, s.LeafArg, subs); err != nil {
			if s.LeafArg != "" {
				return &sessfmt.LeafError{Err: err}
			}
			return err
		}
		return nil
	}
	t, err := s.tree()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(t.JSON(s.ref.Path, s.Mode, s.File.LeafModes(), subs))
}
