// Package du measures the disk use of sessions: each session's transcript
// and what belongs to it elsewhere (through the formats' sessfmt.Filer),
// the backups and sidecars sessctl writes beside session files and agents'
// .bak copies, and shared stores (blob stores, databases) counted once.
package du

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Group names what rows are grouped by.
type Group string

// The groupings of --by.
const (
	ByAgent   Group = "agent"
	ByProject Group = "project"
	BySession Group = "session"
)

// ParseGroup reads --by.
func ParseGroup(s string) (Group, error) {
	switch g := Group(s); g {
	case ByAgent, ByProject, BySession:
		return g, nil
	}
	return "", fmt.Errorf("invalid --by %q (agent, project, session)", s)
}

// Session is one session to measure.
type Session struct {
	Agent   string
	ID      string
	Project string
	// Ref is the session's reference (a file, or "<store>#<id>").
	Ref string
	// Files are what its format says belongs to it (nil: the file Ref
	// names, when it is one).
	Files []sessfmt.FileUse
}

// Row is one group's disk use.
type Row struct {
	By    Group  `json:"by"`
	Group string `json:"group"`
	// Agent, Project and Session are set for --by session (Session is the
	// reference); a shared store's row has Shared set instead.
	Agent   string `json:"agent,omitempty"`
	Project string `json:"project,omitempty"`
	Session string `json:"session,omitempty"`
	// Shared is the store a row of its own stands for.
	Shared string `json:"shared,omitempty"`
	// Bytes is what the group uses on disk (apparent sizes; every file
	// once, hard links once).
	Bytes int64 `json:"bytes"`
	// SharedBytes is the group's share of shared stores (its blobs, its
	// database rows): counted in the store's row, not in Bytes.
	SharedBytes int64 `json:"sharedBytes,omitempty"`
	Files       int   `json:"files"`
	Sessions    int   `json:"sessions"`
	// Kinds splits Bytes by kind (transcript, subagents, tool-results,
	// file-history, blob, database, sessctl-backup, sessctl-sidecar,
	// agent-backup, …).
	Kinds map[string]int64 `json:"kinds"`
}

// Measurer adds sessions up. It is not safe for concurrent use.
type Measurer struct {
	by      Group
	rows    map[string]*Row
	seen    map[string]bool // paths counted
	inodes  map[inode]bool
	stores  map[string]string // shared store → agent
	dirs    map[string][]string
	Errors  []error
	counted map[string]map[string]bool // row key → session refs
}

// New returns a measurer grouping by by.
func New(by Group) *Measurer {
	return &Measurer{by: by, rows: map[string]*Row{}, seen: map[string]bool{}, inodes: map[inode]bool{},
		stores: map[string]string{}, dirs: map[string][]string{}, counted: map[string]map[string]bool{}}
}

func (m *Measurer) row(key string, init func(*Row)) *Row {
	r := m.rows[key]
	if r == nil {
		r = &Row{By: m.by, Group: key, Kinds: map[string]int64{}}
		init(r)
		m.rows[key] = r
	}
	return r
}

func (m *Measurer) sessionRow(s Session) *Row {
	switch m.by {
	case ByAgent:
		return m.row(s.Agent, func(*Row) {})
	case ByProject:
		p := s.Project
		if p == "" {
			p = "(unknown)"
		}
		return m.row(p, func(*Row) {})
	}
	return m.row(s.Agent+"\x00"+s.Ref, func(r *Row) {
		r.Group, r.Agent, r.Project, r.Session = s.ID, s.Agent, s.Project, s.Ref
	})
}

// Add measures one session.
func (m *Measurer) Add(s Session) {
	r := m.sessionRow(s)
	if m.counted[r.Group+"\x00"+r.Agent+"\x00"+r.Session] == nil {
		m.counted[r.Group+"\x00"+r.Agent+"\x00"+r.Session] = map[string]bool{}
	}
	if c := m.counted[r.Group+"\x00"+r.Agent+"\x00"+r.Session]; !c[s.Ref] {
		c[s.Ref] = true
		r.Sessions++
	}
	files := s.Files
	if files == nil && !strings.Contains(s.Ref, "#") {
		files = []sessfmt.FileUse{{Path: s.Ref, Kind: "transcript"}}
	}
	for _, f := range files {
		if f.Shared != "" {
			if m.by != ByAgent { // --by agent: the store is in the row
				r.SharedBytes += f.Bytes
			}
			if _, ok := m.stores[f.Shared]; !ok {
				m.stores[f.Shared] = s.Agent
			}
			continue
		}
		m.count(r, f.Path, f.Kind)
		if f.Kind == "transcript" {
			m.siblings(r, f.Path)
		}
	}
}

// siblings counts what lies beside a session file under its name:
// sessctl's backups (<file>.sessctl-<time>.bak) and rejected-line sidecars
// (<file>.rejected.jsonl and their journals), and agents' backups
// (<file>.bak, <file>.<n>.bak, OpenClaw's <file>.bak-<pid>-<ms>).
func (m *Measurer) siblings(r *Row, path string) {
	dir, base := filepath.Split(path)
	dir = filepath.Clean(dir)
	names, ok := m.dirs[dir]
	if !ok {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		m.dirs[dir] = names
	}
	for _, pre := range []string{base + ".", "." + base + "."} {
		i := sort.SearchStrings(names, pre)
		for ; i < len(names) && strings.HasPrefix(names[i], pre); i++ {
			n := names[i]
			kind := ""
			switch {
			case strings.Contains(n, ".sessctl-") && strings.HasSuffix(n, ".bak"):
				kind = "sessctl-backup"
			case strings.Contains(n, ".rejected.jsonl"):
				kind = "sessctl-sidecar"
			case strings.Contains(n[len(base):], ".bak"):
				kind = "agent-backup"
			default:
				continue
			}
			m.count(r, filepath.Join(dir, n), kind)
		}
	}
}

// count adds path (a file, or a folder and everything in it) to r once.
func (m *Measurer) count(r *Row, path, kind string) {
	if m.seen[path] {
		return
	}
	m.seen[path] = true
	st, err := os.Lstat(path)
	if err != nil {
		if !os.IsNotExist(err) {
			m.Errors = append(m.Errors, err)
		}
		return
	}
	if !st.IsDir() {
		m.file(r, st, kind)
		return
	}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			m.Errors = append(m.Errors, err)
			return nil
		}
		if d.IsDir() || p == path {
			return nil
		}
		m.seen[p] = true
		st, err := d.Info()
		if err != nil {
			m.Errors = append(m.Errors, err)
			return nil
		}
		m.file(r, st, kind)
		return nil
	})
	if err != nil {
		m.Errors = append(m.Errors, err)
	}
}

func (m *Measurer) file(r *Row, st os.FileInfo, kind string) {
	if id, ok := inodeOf(st); ok {
		if m.inodes[id] {
			return
		}
		m.inodes[id] = true
	}
	r.Bytes += st.Size()
	r.Kinds[kind] += st.Size()
	r.Files++
}

// Rows measures the shared stores (each once) and returns the rows,
// largest first.
func (m *Measurer) Rows() []Row {
	stores := make([]string, 0, len(m.stores))
	for s := range m.stores {
		stores = append(stores, s)
	}
	sort.Strings(stores)
	for _, s := range stores {
		agent := m.stores[s]
		var r *Row
		switch m.by {
		case ByAgent:
			r = m.row(agent, func(*Row) {})
		case ByProject:
			r = m.row("(shared) "+s, func(r *Row) { r.Shared = s })
		default:
			r = m.row(agent+"\x00(shared)"+s, func(r *Row) { r.Group, r.Agent, r.Shared = "(shared)", agent, s })
		}
		kind := "blob"
		if st, err := os.Stat(s); err == nil && !st.IsDir() {
			kind = "database"
		} else if filepath.Base(s) != "blobs" {
			kind = "storage"
		}
		m.count(r, s, kind)
		if kind == "database" {
			for _, x := range []string{"-wal", "-shm", "-journal"} {
				m.count(r, s+x, kind)
			}
		}
	}
	out := make([]Row, 0, len(m.rows))
	for _, r := range m.rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return out[i].Session+out[i].Shared < out[j].Session+out[j].Shared
	})
	return out
}

// Sum adds rows up (the total line).
func Sum(rows []Row) Row {
	t := Row{Group: "total", Kinds: map[string]int64{}}
	for _, r := range rows {
		t.Bytes += r.Bytes
		t.Files += r.Files
		t.Sessions += r.Sessions
		for k, v := range r.Kinds {
			t.Kinds[k] += v
		}
	}
	return t
}

// Human prints n bytes with a binary unit (B, KiB, MiB, GiB, TiB).
func Human(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for x := n / unit; x >= unit && exp < 3; x /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGT"[exp])
}
