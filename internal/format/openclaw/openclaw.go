// Package openclaw reads OpenClaw (formerly Clawdbot, Moltbot) session
// state, read-only.
//
// A state directory ($OPENCLAW_STATE_DIR, else ~/.openclaw; legacy
// ~/.clawdbot, ~/.moltbot, ~/.moldbot) holds one folder per agent,
// agents/<agentId>/. Up to OpenClaw 2026.7 each agent keeps
// sessions/sessions.json (sessionKey → SessionEntry) and pi-format
// transcripts beside it: <sessionId>.jsonl, <sessionId>-topic-<thread>.jsonl,
// pi-named forks <timestamp>_<uuid>.jsonl, archives
// <file>.{reset,deleted,clear,bak}.<timestamp> and <file>.lock write locks.
// From 2026.8 transcripts live in agents/<agentId>/agent/openclaw-agent.sqlite
// (transcript_events.event_json holds the pi lines).
//
// The transcripts themselves are pi files: read them with the pi package.
// This package maps them to session keys (Agent.Transcripts), reads the
// SQLite era (AgentDB) and reports state-level problems (State.Check). It
// never writes: a corrupt sessions.json is reported, never rewritten.
package openclaw

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// ErrNotOpenClaw is returned by Open for a directory without OpenClaw state.
var ErrNotOpenClaw = errors.New("no OpenClaw state found")

// StateDirCandidates lists where OpenClaw state may live, in the order
// OpenClaw resolves it: $OPENCLAW_STATE_DIR, legacy $CLAWDBOT_STATE_DIR,
// ~/.openclaw, then the legacy ~/.clawdbot, ~/.moltbot and ~/.moldbot.
func StateDirCandidates() []string {
	var out []string
	for _, env := range []string{"OPENCLAW_STATE_DIR", "CLAWDBOT_STATE_DIR"} {
		if v := os.Getenv(env); v != "" {
			out = append(out, v)
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		for _, n := range []string{".openclaw", ".clawdbot", ".moltbot", ".moldbot"} {
			out = append(out, filepath.Join(home, n))
		}
	}
	return out
}

// StateDirs returns the existing candidates, resolving symlinks so that a
// legacy directory OpenClaw left as a symlink to the new one appears once.
func StateDirs() []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range StateDirCandidates() {
		real, err := filepath.EvalSymlinks(c)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() || seen[real] {
			continue
		}
		seen[real] = true
		out = append(out, c)
	}
	return out
}

// State is one OpenClaw state directory.
type State struct {
	Dir    string
	Agents []*Agent // sorted by id
}

// Agent is one agents/<id>/ folder.
type Agent struct {
	ID          string
	Dir         string
	SessionsDir string // agents/<id>/sessions (may not exist)
	// Index is the parsed sessions.json; nil when absent or unparsable.
	Index *Index
	// IndexErr is set when sessions.json exists but cannot be read or parsed
	// (an *IndexError for a corrupt or empty store).
	IndexErr error
	// DBPath is agents/<id>/agent/openclaw-agent.sqlite when it exists.
	DBPath string
	state  string
}

// Open reads the state directory dir (or an agents/<id>/ or
// agents/<id>/sessions/ folder, which opens that one agent).
func Open(dir string) (*State, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	// A sessions/ folder or an agent folder given directly.
	if filepath.Base(abs) == "sessions" && filepath.Base(filepath.Dir(filepath.Dir(abs))) == "agents" {
		abs = filepath.Dir(abs)
	}
	if filepath.Base(filepath.Dir(abs)) == "agents" && !isDir(filepath.Join(abs, "agents")) {
		st := &State{Dir: filepath.Dir(filepath.Dir(abs))}
		st.Agents = []*Agent{openAgent(st.Dir, filepath.Base(abs))}
		return st, nil
	}
	st := &State{Dir: abs}
	ents, err := os.ReadDir(filepath.Join(abs, "agents"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w (no agents/ folder)", dir, ErrNotOpenClaw)
		}
		return nil, err
	}
	for _, e := range ents {
		if e.IsDir() {
			st.Agents = append(st.Agents, openAgent(abs, e.Name()))
		}
	}
	sort.Slice(st.Agents, func(i, j int) bool { return st.Agents[i].ID < st.Agents[j].ID })
	return st, nil
}

// Detect reports whether dir looks like OpenClaw state (or one agent of it).
func Detect(dir string) bool {
	st, err := Open(dir)
	if err != nil {
		return false
	}
	for _, a := range st.Agents {
		if a.Index != nil || a.IndexErr != nil || a.DBPath != "" || isDir(a.SessionsDir) {
			return true
		}
	}
	return false
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func openAgent(state, id string) *Agent {
	dir := filepath.Join(state, "agents", id)
	a := &Agent{ID: id, Dir: dir, SessionsDir: filepath.Join(dir, "sessions"), state: state}
	idx, err := ReadIndex(filepath.Join(a.SessionsDir, "sessions.json"))
	switch {
	case err == nil:
		a.Index = idx
	case errors.Is(err, fs.ErrNotExist):
	default:
		a.IndexErr = err
	}
	if db := filepath.Join(dir, "agent", "openclaw-agent.sqlite"); fileExists(db) {
		a.DBPath = db
	}
	return a
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// FileKind classifies a file in a sessions folder.
type FileKind string

// File kinds.
const (
	KindTranscript  FileKind = "transcript"   // <sessionId>.jsonl
	KindTopic       FileKind = "topic"        // <sessionId>-topic-<thread>.jsonl
	KindFork        FileKind = "fork"         // pi-named <timestamp>_<uuid>.jsonl
	KindArchive     FileKind = "archive"      // <file>.{reset,deleted,clear,bak}.<timestamp>
	KindImported    FileKind = "imported"     // session-sqlite-import-archive/…jsonl.imported-<ts>
	KindTrajectory  FileKind = "trajectory"   // *.trajectory.jsonl (not a transcript)
	KindLock        FileKind = "lock"         // <file>.lock
	KindStore       FileKind = "store"        // sessions.json
	KindStoreBackup FileKind = "store-backup" // sessions.json.bak.<ms>
	KindRepairBak   FileKind = "repair-backup"
	KindOther       FileKind = "other"
)

var (
	archiveTail  = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{3})?Z)(?:\.[0-9a-f]{32})?$`)
	storeBackup  = regexp.MustCompile(`^sessions\.json\.bak\.\d+$`)
	repairBackup = regexp.MustCompile(`\.bak-\d+-\d+$`)
	topicName    = regexp.MustCompile(`^(.+)-topic-(.+)\.jsonl$`)
	forkName     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T[0-9-]+(?:\.\d+)?Z?_([0-9a-fA-F-]{8,})\.jsonl$`)
	importedName = regexp.MustCompile(`\.jsonl\.imported-[^/]+$`)
)

// ArchiveReasons are the archive suffixes OpenClaw writes.
var ArchiveReasons = []string{"reset", "deleted", "clear", "bak"}

// FileInfo is what a file name says.
type FileInfo struct {
	Kind FileKind
	// SessionID is the session id the name carries ("" when it carries none).
	SessionID string
	// Base is the transcript name an archive or lock belongs to.
	Base string
	// Reason is the archive reason (reset, deleted, clear, bak).
	Reason string
	// ArchivedAt is the archive timestamp.
	ArchivedAt time.Time
	// Topic is the decoded thread id of a topic transcript.
	Topic string
	// Compressed is set for a zstd-compressed archive (name ending ".zst").
	Compressed bool
}

// Classify names a file of a sessions folder, as OpenClaw's artifact helpers do.
func Classify(name string) FileInfo {
	switch {
	case name == "sessions.json":
		return FileInfo{Kind: KindStore}
	case storeBackup.MatchString(name):
		return FileInfo{Kind: KindStoreBackup}
	case strings.HasSuffix(name, ".lock"):
		base := strings.TrimSuffix(name, ".lock")
		return FileInfo{Kind: KindLock, Base: base, SessionID: strings.TrimSuffix(base, ".jsonl")}
	case repairBackup.MatchString(name):
		return FileInfo{Kind: KindRepairBak, Base: repairBackup.ReplaceAllString(name, "")}
	case importedName.MatchString(name):
		base := importedName.ReplaceAllString(name, "")
		return FileInfo{Kind: KindImported, Base: base + ".jsonl", SessionID: strings.TrimPrefix(base, "archive-tier.")}
	}
	// 2026.9.x compresses archives with zstd (".zst") and may add a
	// 32-hex-digit suffix after the time stamp.
	plain, compressed := strings.CutSuffix(name, ArchiveZstdSuffix)
	for _, reason := range ArchiveReasons {
		marker := "." + reason + "."
		i := strings.LastIndex(plain, marker)
		if i < 0 {
			continue
		}
		m := archiveTail.FindStringSubmatch(plain[i+len(marker):])
		if m == nil {
			continue
		}
		ts := m[1]
		fi := FileInfo{Kind: KindArchive, Reason: reason, Base: plain[:i], Compressed: compressed}
		if d, t, ok := strings.Cut(ts, "T"); ok {
			if at, err := time.Parse("2006-01-02T15:04:05Z", d+"T"+strings.ReplaceAll(strings.TrimSuffix(stripMillis(t), "Z"), "-", ":")+"Z"); err == nil {
				fi.ArchivedAt = at
			}
		}
		if strings.HasSuffix(fi.Base, ".jsonl") {
			fi.SessionID = strings.TrimSuffix(fi.Base, ".jsonl")
		}
		return fi
	}
	if !strings.HasSuffix(name, ".jsonl") {
		return FileInfo{Kind: KindOther}
	}
	if strings.HasSuffix(name, ".trajectory.jsonl") {
		return FileInfo{Kind: KindTrajectory, SessionID: strings.TrimSuffix(name, ".trajectory.jsonl")}
	}
	if m := forkName.FindStringSubmatch(name); m != nil {
		return FileInfo{Kind: KindFork, SessionID: m[1]}
	}
	if m := topicName.FindStringSubmatch(name); m != nil {
		topic, err := url.PathUnescape(m[2])
		if err != nil {
			topic = m[2]
		}
		return FileInfo{Kind: KindTopic, SessionID: m[1], Topic: topic}
	}
	return FileInfo{Kind: KindTranscript, SessionID: strings.TrimSuffix(name, ".jsonl")}
}

func stripMillis(t string) string {
	if i := strings.IndexByte(t, '.'); i >= 0 {
		return t[:i] + "Z"
	}
	return t
}

// Status of a transcript row.
const (
	StatusActive   = "active"   // named by a sessions.json entry
	StatusOrphan   = "orphan"   // a primary transcript no entry names
	StatusArchived = "archived" // a reset/deleted/clear/bak archive
	StatusImported = "imported" // moved aside by the SQLite import
)

// Transcript is one transcript file with the index entries that name it.
type Transcript struct {
	Path    string    `json:"path"`
	AgentID string    `json:"agentId"`
	Kind    FileKind  `json:"kind"`
	Status  string    `json:"status"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	// SessionID is the id the file name carries.
	SessionID  string    `json:"sessionId"`
	Topic      string    `json:"topic,omitempty"`
	Reason     string    `json:"archiveReason,omitempty"`
	ArchivedAt time.Time `json:"archivedAt,omitzero"`
	// Entries are the index entries whose transcript this file is.
	Entries []Entry `json:"entries,omitempty"`
}

// Keys returns the session keys naming the transcript.
func (t Transcript) Keys() []string {
	var out []string
	for _, e := range t.Entries {
		out = append(out, e.Key)
	}
	return out
}

// Resolve returns where entry e's transcript is, defensively as OpenClaw
// does: sessionFile relative to the sessions folder, or absolute; an absolute
// path that no longer exists (or lies outside the state directory) falls back
// to its base name in the sessions folder; no sessionFile means
// <sessionId>.jsonl. outside is true when sessionFile pointed out of the
// state directory (sessctl never follows such a path).
func (a *Agent) Resolve(e *Entry) (path string, outside bool) {
	if e.SessionFile == "" {
		if e.SessionID == "" {
			return "", false
		}
		return filepath.Join(a.SessionsDir, e.SessionID+".jsonl"), false
	}
	sf := filepath.FromSlash(e.SessionFile)
	if !filepath.IsAbs(sf) {
		p := filepath.Clean(filepath.Join(a.SessionsDir, sf))
		if within(a.state, p) {
			return p, false
		}
		return filepath.Join(a.SessionsDir, filepath.Base(sf)), true
	}
	if within(a.state, sf) {
		if fileExists(sf) {
			return filepath.Clean(sf), false
		}
		return filepath.Join(a.SessionsDir, filepath.Base(sf)), false
	}
	return filepath.Join(a.SessionsDir, filepath.Base(sf)), true
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Transcripts lists the agent's transcript files — primary ones, topics,
// forks and archives, plus files of other folders an entry names — each
// with the entries that name it, sorted by path.
func (a *Agent) Transcripts() ([]Transcript, error) {
	byPath := map[string]*Transcript{}
	var order []string
	add := func(path string, info FileInfo, fi os.FileInfo) {
		t := &Transcript{Path: path, AgentID: a.ID, Kind: info.Kind, SessionID: info.SessionID, Topic: info.Topic,
			Reason: info.Reason, ArchivedAt: info.ArchivedAt, Size: fi.Size(), ModTime: fi.ModTime().UTC()}
		switch info.Kind {
		case KindArchive:
			t.Status = StatusArchived
		case KindImported:
			t.Status = StatusImported
		default:
			t.Status = StatusOrphan
		}
		byPath[path] = t
		order = append(order, path)
	}
	scan := func(dir string, want func(FileKind) bool) error {
		ents, err := os.ReadDir(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		for _, de := range ents {
			if de.IsDir() {
				continue
			}
			info := Classify(de.Name())
			if !want(info.Kind) {
				continue
			}
			fi, err := de.Info()
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			add(filepath.Join(dir, de.Name()), info, fi)
		}
		return nil
	}
	if err := scan(a.SessionsDir, func(k FileKind) bool {
		return k == KindTranscript || k == KindTopic || k == KindFork || (k == KindArchive)
	}); err != nil {
		return nil, err
	}
	if err := scan(filepath.Join(a.Dir, "session-sqlite-import-archive"), func(k FileKind) bool { return k == KindImported }); err != nil {
		return nil, err
	}
	// Archives of .bak reason on non-transcripts (sessions.json.bak.<ts>) are not transcripts.
	for _, p := range order {
		t := byPath[p]
		if t.Kind == KindArchive && !strings.HasSuffix(Classify(filepath.Base(p)).Base, ".jsonl") {
			delete(byPath, p)
		}
	}
	if a.Index != nil {
		for i := range a.Index.Entries {
			e := a.Index.Entries[i]
			// An out-of-store path already resolved to its in-store fallback.
			p, _ := a.Resolve(&e)
			if p == "" {
				continue
			}
			t := byPath[p]
			if t == nil {
				fi, err := os.Stat(p)
				if err != nil || !fi.Mode().IsRegular() {
					// Missing: a topic transcript may carry the id instead.
					if e.SessionFile == "" {
						for _, q := range order {
							if tt := byPath[q]; tt != nil && tt.Kind == KindTopic && tt.SessionID == e.SessionID {
								tt.Entries = append(tt.Entries, e)
								tt.Status = StatusActive
							}
						}
					}
					continue
				}
				add(p, Classify(filepath.Base(p)), fi)
				t = byPath[p]
			}
			t.Entries = append(t.Entries, e)
			if t.Status == StatusOrphan {
				t.Status = StatusActive
			}
		}
	}
	out := make([]Transcript, 0, len(byPath))
	for _, t := range byPath {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
