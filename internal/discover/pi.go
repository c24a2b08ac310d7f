package discover

import (
	"bytes"
	"encoding/json"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonl"
)

// The pi family: pi-mono, oh-my-pi and xcsh (docs/list.md lists the rules;
// ../shared/reference/pi-format.md §1.1 has the sources).

// piRoots: $PI_CODING_AGENT_SESSION_DIR (pi ≥ 1.5), else
// ($PI_CODING_AGENT_DIR or ~/.pi/agent)/sessions.
func piRoots(env Env) []Root {
	if d := env.Get("PI_CODING_AGENT_SESSION_DIR"); d != "" {
		return []Root{{Agent: "pi", Path: env.ExpandHome(d), Source: "$PI_CODING_AGENT_SESSION_DIR"}}
	}
	if d := env.Get("PI_CODING_AGENT_DIR"); d != "" {
		return []Root{{Agent: "pi", Path: filepath.Join(env.ExpandHome(d), "sessions"), Source: "$PI_CODING_AGENT_DIR"}}
	}
	if h := env.Home(); h != "" {
		return []Root{{Agent: "pi", Path: filepath.Join(h, ".pi", "agent", "sessions"), Source: "default"}}
	}
	return nil
}

// ompRoots: ~/.omp/agent/sessions (the ".omp" name overridable with
// $PI_CONFIG_DIR for omp), and $XDG_DATA_HOME/<app>/sessions when
// $XDG_DATA_HOME/<app> exists, as oh-my-pi moves sessions there. An
// explicit $PI_CODING_AGENT_DIR is pi's (listed once, as pi).
func ompRoots(app, dir string) func(Env) []Root {
	return func(env Env) []Root {
		var out []Root
		name, src := dir, "default"
		if app == "omp" {
			if d := env.Get("PI_CONFIG_DIR"); d != "" {
				name, src = d, "$PI_CONFIG_DIR"
			}
		}
		if h := env.Home(); h != "" {
			out = append(out, Root{Agent: app, Path: filepath.Join(h, name, "agent", "sessions"), Source: src})
		}
		if dh := env.DataHome(); dh != "" {
			if st, err := os.Stat(filepath.Join(dh, app)); err == nil && st.IsDir() {
				out = append(out, Root{Agent: app, Path: filepath.Join(dh, app, "sessions"), Source: "$XDG_DATA_HOME"})
			}
		}
		return out
	}
}

// piFiles lists *.jsonl files below a pi-family sessions folder: the
// per-project folders (whatever their naming style) and, below them, nested
// subagent transcripts. Symlinked folders and files are followed.
func piFiles(root string, warn func(string, error)) []string {
	return walkJSONL(root, 6, warn)
}

func piInfo(agent string) func(string, os.FileInfo) (*Session, error) {
	return func(path string, st os.FileInfo) (*Session, error) {
		li, err := pi.ReadListInfo(path)
		if err != nil {
			return nil, err
		}
		return piSession(agent, path, st, li, nil), nil
	}
}

// piInfoVerdict is piInfo and applyVerdict in one read of the file: when
// the registry takes the file for a pi-family one (as check does), it is
// opened for check with list's summary computed in the same parallel pass
// (pi.OpenForList); otherwise, or when that pass cannot give the summary,
// as piInfo then applyVerdict.
//
// The file is opened for the pass first: when its first line, which the
// pass reads anyway, settles the registry's answer (headerSaysPi), the
// registry is not asked, so the file is not opened and its head read a
// second time to sniff it. Otherwise the registry resolves the path as
// before, and a "pi" answer takes the session already read.
//
// The session is opened under the agent it is listed under (the Ref's
// Agent), so that it does not look for an OpenClaw sessions.json beside
// every file to name it: it serves only its verdict, which does not read
// the agent.
func piInfoVerdict(agent string) func(*sessfmt.Registry, *folderMemo, string, os.FileInfo) (*Session, error) {
	info := piInfo(agent)
	return func(reg *sessfmt.Registry, folders *folderMemo, path string, st os.FileInfo) (*Session, error) {
		sess, li, err := pi.OpenForList(sessfmt.Ref{Format: "pi", Agent: agent, Path: path}, path)
		opened := err == nil
		isPi := opened && li != nil && headerSaysPi(reg, path, li.FirstLine())
		if !isPi {
			ref, rerr := reg.Resolve(path)
			isPi = rerr == nil && ref.Format == "pi"
			if isPi && !opened {
				sess, li, err = pi.OpenForList(ref, path)
			}
		}
		if isPi && err == nil && li != nil {
			if li.Modified.IsZero() {
				li.Modified = st.ModTime()
			}
			s := piSession(agent, path, st, li, folders)
			verdict(sess, s)
			sess.DoneListing()
			return s, nil
		}
		s, err := info(path, st)
		if err != nil {
			return nil, err
		}
		applyVerdict(reg, s)
		return s, nil
	}
}

// headerSaysPi reports whether the registry's Resolve(path) is certain to
// give the pi format, judged from line1, the file's first line with its
// newline (nil: unknown), without opening the file. It holds when the
// registry's sniff over line1 alone gives pi a header's score
// (pi.SniffHeader) and no format claims the path outright:
//
//   - sniffing: pi's Sniff stops at the first header line, so the whole
//     head scores the same; Claude Code's votes stay below it (at most
//     sessfmt.SniffLines lines are looked at), Agent Core says 0 behind a
//     header, OpenClaw's archive test looks at the same first bytes, and
//     pi is asked first, so it wins ties;
//   - claims: OpenClaw and OpenCode claim "<store>#<id>" arguments (the
//     path has no '#'); OpenCode also claims an existing SQLite file (a
//     line that is a JSON object is not one) and an `opencode export`
//     file, whose first object has an "info" member (line1 spells no
//     "info" and has no \u escape that could spell it; it is shorter than
//     the 64 KiB that test reads).
//
// Any other file is resolved by the registry as before.
func headerSaysPi(reg *sessfmt.Registry, path string, line1 []byte) bool {
	if line1 == nil || strings.Contains(path, "#") ||
		bytes.Contains(line1, []byte("info")) || bytes.Contains(line1, []byte(`\u`)) {
		return false
	}
	if piHeaderLine(line1) {
		return true
	}
	name, score := reg.SniffHead(path, line1)
	return name == "pi" && score >= pi.SniffHeader
}

// piHeaderLine reports, without parsing line1 into values, that the
// registry's sniff of line1 gives pi a header's score (what headerSaysPi
// asks it), for the lines pi writes: a JSON object (FirstLine's lines are
// validated already; this validates again) with no nested value and no backslash, whose last "type"
// member is "session" and whose first "id" member is a string, as pi's
// Sniff reads them (jsonl.Record.Str, fastjson's Get). Without a nested
// value its parse cannot go deeper than fastjson allows; without a
// backslash every key and string is spelled as it reads. The sniff of
// the other formats stays below pi's on such a line and pi, asked first,
// wins ties (see headerSaysPi); FuzzPiHeaderLine holds the registry to
// it. Any other line is sniffed by the registry. Sniffing took about 1 %
// of a first listing's time, parsing each header once per format.
func piHeaderLine(line1 []byte) bool {
	if bytes.IndexByte(line1, '\\') >= 0 || bytes.IndexByte(line1, '[') >= 0 || bytes.Count(line1, []byte("{")) != 1 ||
		!json.Valid(line1) {
		return false
	}
	session, idStr, idSeen := false, false, false
	err := jsonl.Members(line1, func(k, v []byte) bool {
		switch string(k) {
		case "type":
			session = string(v) == `"session"`
		case "id":
			if !idSeen {
				idSeen, idStr = true, len(v) > 0 && v[0] == '"'
			}
		}
		return true
	})
	return err == nil && session && idStr
}

// piSession is the listed row of a pi-family file from its summary;
// folders (nil: none) remembers for the scan which folders are a session's
// subagent folder.
func piSession(agent, path string, st os.FileInfo, li *pi.ListInfo, folders *folderMemo) *Session {
	s := &Session{
		Agent: agent, Format: "pi", Dialect: string(li.Dialect), ID: piID(path, li), Path: path,
		Cwd: li.Cwd, FirstMessage: li.FirstMessage, Messages: li.Messages, Entries: li.Entries,
		Bytes: st.Size(), Modified: li.Modified, MTime: st.ModTime(),
		Problems: li.ProblemCount(), ProblemCodes: li.Problems,
	}
	if !li.Created.IsZero() {
		c := li.Created
		s.Created = &c
	}
	if li.ParentSession != "" {
		p := li.ParentSession
		s.ParentSession = &p
	}
	src := "name"
	if agent != "pi" || li.Dialect != pi.DialectPi {
		src = "title"
	}
	s.Title, s.TitleSource = sessfmt.Title(li.Name, src, li.FirstMessage)
	if s.Modified.IsZero() {
		s.Modified = st.ModTime()
	}
	s.Modified = s.Modified.UTC().Truncate(time.Millisecond)
	// A nested transcript <dir>/<x>.jsonl whose <dir>.jsonl is a
	// session file is a subagent of that session (oh-my-pi).
	if dir := filepath.Dir(path); dir != "" {
		if folders.subagentFolder(dir) {
			s.SubagentOf = dir + ".jsonl"
		}
	}
	return s
}

// folderMemo remembers, for one scan, what is learnt of a folder by a stat
// (most folders hold many sessions): whether <dir>.jsonl is a regular file.
// A nil memo remembers nothing.
type folderMemo struct {
	mu       sync.Mutex
	subagent map[string]bool
}

func newFolderMemo() *folderMemo { return &folderMemo{subagent: map[string]bool{}} }

// subagentFolder reports whether dir + ".jsonl" is a regular file (a
// session whose nested transcripts dir holds).
func (m *folderMemo) subagentFolder(dir string) bool {
	if m == nil {
		return isRegular(dir + ".jsonl")
	}
	m.mu.Lock()
	v, ok := m.subagent[dir]
	m.mu.Unlock()
	if !ok {
		v = isRegular(dir + ".jsonl")
		m.mu.Lock()
		m.subagent[dir] = v
		m.mu.Unlock()
	}
	return v
}

func isRegular(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// walkJSONL returns the *.jsonl files below root, at most depth folders
// down, following symlinks (each folder visited once, so symlink loops end).
// Links are followed after the real folders are walked, so a file reachable
// both directly and through a symlinked folder or file link comes first at
// its direct path (the scan lists it once, there). Folders that cannot be
// read are reported through warn.
func walkJSONL(root string, depth int, warn func(string, error)) []string {
	var out []string
	seen := map[FileKey]bool{}
	type link struct {
		path string
		typ  os.FileMode
		d    int
	}
	var links []link
	var walk func(dir string, d int)
	add := func(p string, typ os.FileMode, d int) {
		name := filepath.Base(p)
		switch {
		case typ.IsDir():
			if d > 0 && !strings.HasPrefix(name, ".") {
				walk(p, d-1)
			}
		case typ.IsRegular() && strings.HasSuffix(name, ".jsonl") && !skipName(name):
			out = append(out, p)
		}
	}
	walk = func(dir string, d int) {
		st, err := os.Stat(dir)
		if err != nil {
			warn(dir, err)
			return
		}
		if k, ok := KeyOf(st); ok {
			if seen[k] {
				return
			}
			seen[k] = true
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			warn(dir, err)
			return
		}
		for _, e := range ents {
			name := e.Name()
			p := filepath.Join(dir, name)
			typ := e.Type()
			if typ&os.ModeSymlink != 0 {
				tst, err := os.Stat(p)
				if err != nil {
					if strings.HasSuffix(name, ".jsonl") {
						warn(p, err) // a dangling session link
					}
					continue
				}
				links = append(links, link{p, tst.Mode().Type(), d})
				continue
			}
			add(p, typ, d)
		}
	}
	walk(root, depth)
	for i := 0; i < len(links); i++ { // walking a linked folder may queue more
		add(links[i].path, links[i].typ, links[i].d)
	}
	return out
}

// skipName leaves out files that are not sessions: sessctl's own sidecars.
func skipName(name string) bool {
	return strings.HasSuffix(name, ".rejected.jsonl")
}
