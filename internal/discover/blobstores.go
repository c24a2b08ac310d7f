package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// BlobStore is an agent's blob store with the session roots whose files may
// reference it: only roots of the same agent, since another agent's sessions
// never name its blobs. Marking more roots than needed is safe (it only
// keeps more); a missing root is not, so Roots must all exist.
type BlobStore struct {
	Agent  string `json:"agent"`
	Dir    string `json:"dir"`
	Source string `json:"source"` // "default", "$PI_CODING_AGENT_DIR", "$XDG_DATA_HOME", "--store"
	// Roots are session folders that must exist and be readable: the
	// store's own <agent dir>/sessions, config roots of the agent and
	// --sessions-dir folders.
	Roots []string `json:"roots"`
	// OptionalRoots are walked when they exist: archives and the session
	// folders of the agent's other agent dirs.
	OptionalRoots []string `json:"optionalRoots"`
}

// blobAgentDir is one agent dir of the oh-my-pi family.
type blobAgentDir struct {
	agent, dir, source string
}

// blobAgentDirs lists the agent dirs of oh-my-pi and xcsh that may hold a
// blob store (pi-format.md §1.1, §8): $PI_CODING_AGENT_DIR (omp), the
// default ~/.omp/agent (the .omp name overridable with $PI_CONFIG_DIR) or
// ~/.xcsh/agent, and $XDG_DATA_HOME/<app> when that folder exists (the
// agent moves sessions and blobs there, without the agent/ level).
func blobAgentDirs(env Env, agent string) []blobAgentDir {
	var out []blobAgentDir
	name := "." + agent
	if agent == "omp" {
		if d := env.Get("PI_CODING_AGENT_DIR"); d != "" {
			out = append(out, blobAgentDir{agent, env.ExpandHome(d), "$PI_CODING_AGENT_DIR"})
		}
		if d := env.Get("PI_CONFIG_DIR"); d != "" {
			name = d
		}
	}
	if dh := env.DataHome(); dh != "" {
		if st, err := os.Stat(filepath.Join(dh, agent)); err == nil && st.IsDir() {
			out = append(out, blobAgentDir{agent, filepath.Join(dh, agent), "$XDG_DATA_HOME"})
		}
	}
	if h := env.Home(); h != "" {
		out = append(out, blobAgentDir{agent, filepath.Join(h, name, "agent"), "default"})
	}
	return out
}

// BlobStoreAgents are the agents that keep a blob store.
var BlobStoreAgents = []string{"omp", "xcsh"}

// BlobStores returns the blob stores of oh-my-pi and xcsh that exist, each
// with the session roots of its own agent: every sessions folder of every
// agent dir of that agent (its own one required, the others optional),
// every <agent dir>/archive/sessions (optional), the agent's roots from
// extra (config `roots:`, --root) and sessionsDirs (--sessions-dir and
// config blob.sessionsDirs, given to every store). A store directory
// reached twice (a symlink, the same folder named twice) is listed once.
func BlobStores(env Env, extra []Root, sessionsDirs []string) []BlobStore {
	var out []BlobStore
	seen := map[string]int{}
	for _, agent := range BlobStoreAgents {
		dirs := blobAgentDirs(env, agent)
		for _, d := range dirs {
			storeDir := filepath.Join(d.dir, "blobs")
			st, err := os.Stat(storeDir)
			if err != nil || !st.IsDir() {
				continue
			}
			key := storeDir
			if real, err := filepath.EvalSymlinks(storeDir); err == nil {
				key = real
			}
			bs := BlobStore{Agent: agent, Dir: storeDir, Source: d.source}
			bs.Roots = append(bs.Roots, filepath.Join(d.dir, "sessions"))
			for _, o := range dirs {
				if o.dir != d.dir {
					bs.OptionalRoots = append(bs.OptionalRoots, filepath.Join(o.dir, "sessions"))
				}
			}
			for _, o := range dirs {
				bs.OptionalRoots = append(bs.OptionalRoots, filepath.Join(o.dir, "archive", "sessions"))
			}
			for _, r := range extra {
				if r.Agent == agent {
					bs.Roots = append(bs.Roots, r.Path)
				}
			}
			bs.Roots = append(bs.Roots, sessionsDirs...)
			if i, dup := seen[key]; dup {
				out[i].Roots = appendNew(out[i].Roots, bs.Roots...)
				out[i].OptionalRoots = appendNew(out[i].OptionalRoots, bs.OptionalRoots...)
				continue
			}
			seen[key] = len(out)
			bs.Roots = appendNew(nil, bs.Roots...)
			bs.OptionalRoots = appendNew(nil, bs.OptionalRoots...)
			out = append(out, bs)
		}
	}
	for i := range out {
		out[i].OptionalRoots = without(out[i].OptionalRoots, out[i].Roots)
	}
	return out
}

// StoreAt returns the blob store for an explicit --store DIR. When DIR is
// one of the discovered stores (the same folder), that store with its
// roots is returned. Otherwise DIR is treated as <agent dir>/blobs: its
// sibling sessions folder is a required root (so a store given without a
// sessions folder fails closed instead of looking unreferenced), the
// sibling archive/sessions is optional, and sessionsDirs are added.
func StoreAt(env Env, dir string, extra []Root, sessionsDirs []string) (BlobStore, error) {
	dir = env.ExpandHome(dir)
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return BlobStore{}, fmt.Errorf("blob store %s does not exist", dir)
		}
		return BlobStore{}, err
	}
	if !st.IsDir() {
		return BlobStore{}, fmt.Errorf("blob store %s is not a directory", dir)
	}
	for _, bs := range BlobStores(env, extra, sessionsDirs) {
		if sameDir(bs.Dir, dir) {
			bs.Dir, bs.Source = dir, "--store"
			return bs, nil
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return BlobStore{}, err
	}
	parent := filepath.Dir(abs)
	agent := ""
	base := filepath.Base(parent)
	switch {
	case base == "agent":
		agent = strings.TrimPrefix(filepath.Base(filepath.Dir(parent)), ".")
	default:
		agent = strings.TrimPrefix(base, ".")
	}
	if agent != "omp" && agent != "xcsh" {
		agent = ""
	}
	bs := BlobStore{Agent: agent, Dir: dir, Source: "--store",
		Roots:         appendNew(nil, append([]string{filepath.Join(parent, "sessions")}, sessionsDirs...)...),
		OptionalRoots: []string{filepath.Join(parent, "archive", "sessions")},
	}
	for _, r := range extra {
		if agent != "" && r.Agent == agent {
			bs.Roots = appendNew(bs.Roots, r.Path)
		}
	}
	return bs, nil
}

// BlobStoreFor returns the blob store that the session file at path
// resolves its references against: the discovered store whose roots hold
// the file, else <agent dir>/blobs beside the sessions folder above it.
// It returns "" when there is neither; agent is "" when unknown.
func BlobStoreFor(env Env, path string, extra []Root, sessionsDirs []string) (dir, agent string) {
	abs, err := filepath.Abs(path)
	if err == nil {
		for _, bs := range BlobStores(env, extra, sessionsDirs) {
			for _, r := range append(append([]string{}, bs.Roots...), bs.OptionalRoots...) {
				if within(abs, r) {
					return bs.Dir, bs.Agent
				}
			}
		}
	}
	dir = filepath.Dir(path)
	for {
		if filepath.Base(dir) == "sessions" {
			b := filepath.Join(filepath.Dir(dir), "blobs")
			if filepath.Base(filepath.Dir(dir)) == "archive" {
				b = filepath.Join(filepath.Dir(filepath.Dir(dir)), "blobs")
			}
			return b, ""
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", ""
		}
		dir = up
	}
}

// ConfigSessionsDirs reads the config value blob.sessionsDirs: a list of
// folders (strings, "~" expanded) or a single string.
func ConfigSessionsDirs(v any, env Env) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		if x == "" {
			return nil, nil
		}
		return []string{env.ExpandHome(x)}, nil
	case []string:
		var out []string
		for _, s := range x {
			out = append(out, env.ExpandHome(s))
		}
		return out, nil
	case []any:
		var out []string
		for i, it := range x {
			s, ok := it.(string)
			if !ok || s == "" {
				return nil, fmt.Errorf("config: blob.sessionsDirs[%d] must be a folder path", i)
			}
			out = append(out, env.ExpandHome(s))
		}
		return out, nil
	}
	return nil, fmt.Errorf("config: blob.sessionsDirs must be a list of folder paths")
}

func within(path, root string) bool {
	r, err := filepath.Abs(root)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(r, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func sameDir(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// appendNew appends the items of add not yet in list (by cleaned path).
func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		a = filepath.Clean(a)
		dup := false
		for _, l := range list {
			if l == a {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, a)
		}
	}
	return list
}

// without returns list minus the items of drop.
func without(list, drop []string) []string {
	out := list[:0:0]
	for _, l := range list {
		keep := true
		for _, d := range drop {
			if l == d {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, l)
		}
	}
	return out
}
