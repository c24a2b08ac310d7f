package opencode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sessctl/sessctl/internal/fsx"
	"github.com/sessctl/sessctl/internal/problem"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ErrNotOpenCode is returned by Open for a path that holds no OpenCode data.
var ErrNotOpenCode = errors.New("no OpenCode data found")

// ErrSessionNotFound is returned by Load for an unknown session id.
var ErrSessionNotFound = errors.New("session not found")

// ErrAmbiguous is returned by Find and Load for a prefix several ids share.
var ErrAmbiguous = errors.New("ambiguous session id prefix")

// ErrNoSession is returned by LoadRef for a reference naming a whole store.
var ErrNoSession = errors.New("names a whole OpenCode store, not one session")

// DefaultDataDir is $XDG_DATA_HOME/opencode, else ~/.local/share/opencode
// (OpenCode uses the same path on macOS and Linux).
func DefaultDataDir() string {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "opencode")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "share", "opencode")
}

// Store is one OpenCode install (or a single database or storage tree) with
// every generation it holds.
type Store struct {
	DataDir string
	JSON    *JSONStore // nil when there is no storage/ tree
	DBs     []*DB      // opencode.db first, then other opencode*.db by name
	// OpenProblems are databases that could not be opened.
	OpenProblems []problem.Problem
	// CountParts makes Sessions count parts per session (Session.Parts);
	// otherwise Parts is -1 except for sessions read one at a time.
	CountParts bool
}

// isSQLite reports whether the file starts with the SQLite header.
func isSQLite(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	h := make([]byte, 16)
	if _, err := io.ReadFull(f, h); err != nil {
		return false
	}
	return bytes.Equal(h, []byte("SQLite format 3\x00"))
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// Detect reports whether path holds OpenCode data: a data directory (with
// storage/ or opencode*.db), a storage/ tree, or an OpenCode database.
func Detect(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() || !isSQLite(path) { // never open a FIFO or device: it can block
			return false
		}
		d, err := OpenDB(path)
		if err != nil {
			return false
		}
		defer d.Close()
		return d.IsOpenCode()
	}
	if isStorageDir(path) || isStorageDir(filepath.Join(path, "storage")) {
		return true
	}
	dbs, _ := filepath.Glob(filepath.Join(path, "opencode*.db"))
	return len(dbs) > 0
}

func isStorageDir(p string) bool {
	return isDir(filepath.Join(p, "session")) && (isDir(filepath.Join(p, "message")) || isDir(filepath.Join(p, "project")))
}

// Open opens the OpenCode data at path: a data directory, a storage/ tree or
// a single database file. Databases that fail to open are recorded in
// OpenProblems rather than failing Open, unless nothing usable is left.
func Open(path string) (*Store, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	s := &Store{}
	if !fi.IsDir() {
		d, err := OpenDB(path)
		if err != nil {
			return nil, err
		}
		if !d.IsOpenCode() {
			d.Close()
			return nil, fmt.Errorf("%s: %w", path, ErrNotOpenCode)
		}
		s.DataDir = filepath.Dir(d.Path)
		s.DBs = []*DB{d}
		return s, nil
	}
	switch {
	case isStorageDir(path):
		s.JSON = &JSONStore{Dir: path}
		s.DataDir = filepath.Dir(path)
		return s, nil
	case isStorageDir(filepath.Join(path, "storage")):
		s.JSON = &JSONStore{Dir: filepath.Join(path, "storage")}
	}
	s.DataDir = path
	dbs, _ := filepath.Glob(filepath.Join(path, "opencode*.db"))
	sort.Slice(dbs, func(i, j int) bool {
		bi, bj := filepath.Base(dbs[i]), filepath.Base(dbs[j])
		if (bi == "opencode.db") != (bj == "opencode.db") {
			return bi == "opencode.db"
		}
		return bi < bj
	})
	for _, p := range dbs {
		d, err := OpenDB(p)
		if err != nil {
			s.OpenProblems = append(s.OpenProblems, problem.Problem{Code: CodeDBOpen, Severity: SevError, Location: p,
				Message: err.Error(), Fix: "copy the .db together with its -wal and -shm files to a writable place and run sessctl on the copy"})
			continue
		}
		if !d.IsOpenCode() {
			d.Close()
			continue
		}
		s.DBs = append(s.DBs, d)
	}
	if s.JSON == nil && len(s.DBs) == 0 && len(s.OpenProblems) == 0 {
		return nil, fmt.Errorf("%s: %w", path, ErrNotOpenCode)
	}
	return s, nil
}

// Close closes every database.
func (s *Store) Close() error {
	var first error
	for _, d := range s.DBs {
		if err := d.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// sources lists the session sets in order of authority: OpenCode 2 tables,
// then session tables (opencode.db first), then JSON storage. A non-empty id
// restricts them to that session.
func (s *Store) sources(id string) ([][]Session, []problem.Problem) {
	var sets [][]Session
	var probs []problem.Problem
	for _, g := range []Generation{GenSQLiteV2, GenSQLite} {
		for _, d := range s.DBs {
			ss, err := d.sessions(g, s.CountParts, id)
			if err != nil {
				probs = append(probs, problem.Problem{Code: CodeReadError, Severity: SevError, Location: d.Path, Message: err.Error()})
				continue
			}
			sets = append(sets, ss)
		}
	}
	if s.JSON != nil {
		var ss []Session
		var p []problem.Problem
		if id != "" {
			ss, p = s.JSON.session(id)
		} else {
			ss, p = s.JSON.Sessions()
		}
		sets = append(sets, ss)
		probs = append(probs, p...)
	}
	return sets, probs
}

// Sessions returns every session merged by id, newest update first. Each
// session's metadata comes from its most authoritative source; Sources lists
// them all. Problems are files or databases that could not be read.
func (s *Store) Sessions() ([]Session, []problem.Problem) {
	return s.merge(s.sources(""))
}

func (s *Store) merge(sets [][]Session, probs []problem.Problem) ([]Session, []problem.Problem) {
	byID := map[string]int{}
	var out []Session
	for _, set := range sets {
		for _, ss := range set {
			if i, ok := byID[ss.ID]; ok {
				out[i].Sources = append(out[i].Sources, ss.Sources...)
				continue
			}
			byID[ss.ID] = len(out)
			out = append(out, ss)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.After(out[j].Updated)
		}
		return out[i].ID < out[j].ID
	})
	return out, append(append([]problem.Problem(nil), s.OpenProblems...), probs...)
}

// Projects returns the projects of every generation, merged by id.
func (s *Store) Projects() ([]Project, []problem.Problem) {
	var out []Project
	var probs []problem.Problem
	seen := map[string]bool{}
	add := func(ps []Project) {
		for _, p := range ps {
			if !seen[p.ID] {
				seen[p.ID] = true
				out = append(out, p)
			}
		}
	}
	for _, d := range s.DBs {
		ps, err := d.Projects()
		if err != nil {
			probs = append(probs, problem.Problem{Code: CodeReadError, Severity: SevError, Location: d.Path, Message: err.Error()})
		}
		add(ps)
	}
	if s.JSON != nil {
		ps, p := s.JSON.Projects()
		add(ps)
		probs = append(probs, p...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, probs
}

// Find resolves a session id or a unique id prefix. An exact id is looked
// up directly; a prefix needs the full listing.
func (s *Store) Find(idOrPrefix string) (Session, error) {
	if one, _ := s.merge(s.sources(idOrPrefix)); len(one) == 1 && one[0].ID == idOrPrefix {
		return one[0], nil
	}
	all, _ := s.Sessions()
	var hits []Session
	for _, ss := range all {
		if ss.ID == idOrPrefix {
			return ss, nil
		}
	}
	for _, ss := range all {
		if ss.FileID == idOrPrefix {
			return ss, nil
		}
		if strings.HasPrefix(ss.ID, idOrPrefix) {
			hits = append(hits, ss)
		}
	}
	switch len(hits) {
	case 0:
		return Session{}, fmt.Errorf("%s: %w", idOrPrefix, ErrSessionNotFound)
	case 1:
		return hits[0], nil
	}
	return Session{}, &AmbiguousError{Prefix: idOrPrefix, Candidates: hits}
}

// AmbiguousError says an id prefix matches several sessions of a store; it
// lists them as the pi and Claude Code ambiguity errors do, and wraps
// ErrAmbiguous.
type AmbiguousError struct {
	Prefix     string
	Candidates []Session
}

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %v; it matches %d sessions:", e.Prefix, ErrAmbiguous, len(e.Candidates))
	for i, c := range e.Candidates {
		if i == 20 {
			fmt.Fprintf(&b, "\n  … and %d more", len(e.Candidates)-20)
			break
		}
		fmt.Fprintf(&b, "\n  %s", c.ID)
		if t := strings.Join(strings.Fields(c.Title), " "); t != "" {
			fmt.Fprintf(&b, "  %s", t)
		}
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrAmbiguous) true.
func (e *AmbiguousError) Unwrap() error { return ErrAmbiguous }

// Children returns the direct child sessions of id (sessions made by the
// task tool point at their parent with parentID), oldest first.
func Children(all []Session, id string) []Session {
	var out []Session
	for _, s := range all {
		if s.ParentID == id {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// Load reads one session (id or unique prefix) with its messages and parts
// from the most authoritative source that has messages for it, and marks a
// pending revert's hidden tail.
func (s *Store) Load(idOrPrefix string) (*Transcript, error) {
	ss, err := s.Find(idOrPrefix)
	if err != nil {
		return nil, err
	}
	t := &Transcript{Session: ss}
	for _, src := range ss.Sources {
		gen, name, _ := strings.Cut(src, ":")
		var msgs []Message
		var skipped int
		var err error
		switch Generation(gen) {
		case GenJSON:
			msgs, skipped, err = s.JSON.Messages(ss.MessageKey())
		case GenSQLite, GenSQLiteV2:
			d := s.db(name)
			if d == nil {
				continue
			}
			if Generation(gen) == GenSQLite {
				msgs, skipped, err = d.Messages(ss.ID)
			}
			if err == nil && len(msgs) == 0 && d.HasTable("session_message") {
				if msgs, skipped, err = d.MessagesV2(ss.ID); len(msgs) > 0 {
					src = string(GenSQLiteV2) + ":" + name
				}
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		if t.Source == "" || len(msgs) > 0 {
			t.Source, t.Messages, t.Skipped = src, msgs, skipped
		}
		if len(msgs) > 0 {
			break
		}
	}
	MarkReverted(t)
	return t, nil
}

func (s *Store) db(name string) *DB {
	for _, d := range s.DBs {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// ReadExport reads `opencode export` output ({info, messages:[{info, parts}]}).
func ReadExport(r io.Reader) (*Transcript, error) {
	var doc struct {
		Info     rawSession `json:"info"`
		Messages []struct {
			Info  json.RawMessage   `json:"info"`
			Parts []json.RawMessage `json:"parts"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, err
	}
	if doc.Info.ID == "" {
		return nil, errors.New("not an OpenCode export: info.id missing")
	}
	t := &Transcript{Session: doc.Info.session(), Source: "export"}
	t.Session.Sources = []string{"export"}
	for _, dm := range doc.Messages {
		m, err := decodeMessage(dm.Info, "", t.Session.ID)
		if err != nil {
			t.Skipped++
			continue
		}
		for _, dp := range dm.Parts {
			p, err := decodePart(dp, "", m.ID, t.Session.ID)
			if err != nil {
				t.Skipped++
				continue
			}
			m.Parts = append(m.Parts, p)
		}
		t.Messages = append(t.Messages, m)
	}
	t.Session.Messages = len(t.Messages)
	MarkReverted(t)
	return t, nil
}

// DataDirFrom is DefaultDataDir with the environment read through getenv
// (commands pass their own, so tests can point HOME at fixtures).
func DataDirFrom(getenv func(string) string) string {
	if getenv == nil {
		return DefaultDataDir()
	}
	if x := getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "opencode")
	}
	if h := fsx.Home(getenv); h != "" {
		return filepath.Join(h, ".local", "share", "opencode")
	}
	return DefaultDataDir()
}

// Ref is what a command argument names in OpenCode terms.
type Ref struct {
	Data   string // data directory, storage tree or database to open
	ID     string // session id or prefix ("" = the whole store)
	Export string // an `opencode export` JSON file to read instead
}

// ParseRef tells whether arg names OpenCode data: "<path>#<session id>",
// a session id or prefix starting with "ses_" (looked up in the default data
// directory), a data directory, storage tree or database path, or an
// `opencode export` file. ok is false for anything else.
func ParseRef(arg string, getenv func(string) string) (Ref, bool) {
	// "<store>#<id>": JSON-store sessions written by other tools may have
	// ids without the ses_ prefix, and list prints them all this way.
	if p, id, found := strings.Cut(arg, "#"); found && p != "" && id != "" && !strings.ContainsAny(id, `/\`) {
		if Detect(p) {
			return Ref{Data: p, ID: id}, true
		}
		return Ref{}, false
	}
	if fi, err := os.Stat(arg); err == nil {
		if !fi.IsDir() && !fi.Mode().IsRegular() {
			return Ref{}, false // a FIFO or device is refused by the registry, unopened
		}
		if !fi.IsDir() && IsExport(arg) {
			return Ref{Export: arg}, true
		}
		if Detect(arg) {
			return Ref{Data: arg}, true
		}
		return Ref{}, false
	}
	if strings.HasPrefix(arg, "ses_") && !strings.ContainsAny(arg, `/\`) {
		return Ref{Data: DataDirFrom(getenv), ID: arg}, true
	}
	return Ref{}, false
}

// IsExport sniffs the start of a file for `opencode export` output: a JSON
// object with a top-level "info" object whose "id" is a "ses_" string,
// found within the first 64 KiB. Words that merely occur in the head (a
// Claude Code line with "level":"info" and a "ses_…" sessionId) are not
// enough.
func IsExport(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	return exportHead(head[:n])
}

// exportHead reports whether head starts with an object whose top-level
// "info" object has a "ses_" id (values cut off by the end of head: no).
func exportHead(head []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return false
		}
		if k != "info" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return false
		}
		for dec.More() {
			ik, err := dec.Token()
			if err != nil {
				return false
			}
			if ik == "id" {
				v, err := dec.Token()
				id, isStr := v.(string)
				return err == nil && isStr && strings.HasPrefix(id, "ses_")
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
		}
		return false
	}
	return false
}

// LoadRef reads the session a Ref names: an export file, or one session of a
// store (ErrNoSession when the Ref has no id).
func LoadRef(ref Ref) (*Transcript, error) {
	if ref.Export != "" {
		f, err := os.Open(ref.Export)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		t, err := ReadExport(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref.Export, err)
		}
		return t, nil
	}
	if ref.ID == "" {
		return nil, fmt.Errorf("%s %w: name one as %s#ses_… (sessctl list --agent opencode shows them)", ref.Data, ErrNoSession, ref.Data)
	}
	s, err := Open(ref.Data)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Load(ref.ID)
}
