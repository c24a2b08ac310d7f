// Package discover finds the session files of every supported agent the way
// each agent finds them, and summarises each file for `sessctl list` and for
// session-id lookups.
//
// Each agent kind is a Provider, listed in providers.go (one explicit list,
// no init()): it says where the agent keeps its sessions (from the
// environment, the home folder and the config), which files below a root
// are sessions, how to summarise one file quickly, and which registry
// format reads them. Adding an agent is its provider functions and one
// entry in that list.
package discover

import (
	"fmt"
	"github.com/sessctl/sessctl/internal/fsx"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Env is what providers may look at to find roots. Discovery never reads
// the process environment directly: tests point HOME and the agents'
// variables at fixtures through Getenv.
type Env struct {
	Getenv func(string) string
}

// Get returns the variable or "".
func (e Env) Get(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Home is the home folder as the agents find it (fsx.Home: $HOME, on Windows
// %USERPROFILE% first), or the user's home directory when neither is set and the
// environment is the process's own.
func (e Env) Home() string {
	if h := fsx.Home(e.Get); h != "" {
		return h
	}
	if e.Getenv == nil {
		h, _ := os.UserHomeDir()
		return h
	}
	return ""
}

// ExpandHome expands a leading "~" or "~/" with $HOME, as the agents do.
func (e Env) ExpandHome(p string) string {
	switch {
	case p == "~":
		return e.Home()
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(e.Home(), p[2:])
	}
	return p
}

// DataHome is $XDG_DATA_HOME or ~/.local/share.
func (e Env) DataHome() string {
	if x := e.Get("XDG_DATA_HOME"); x != "" {
		return x
	}
	if h := e.Home(); h != "" {
		return filepath.Join(h, ".local", "share")
	}
	return ""
}

// CacheHome is $XDG_CACHE_HOME or ~/.cache.
func (e Env) CacheHome() string {
	if x := e.Get("XDG_CACHE_HOME"); x != "" {
		return x
	}
	if h := e.Home(); h != "" {
		return filepath.Join(h, ".cache")
	}
	return ""
}

// Root is a folder holding one agent's sessions.
type Root struct {
	Agent  string `json:"agent"`
	Path   string `json:"path"`
	Source string `json:"source"` // where it came from: "default", "$VAR", "config", "--root"
	// Explicit roots (config, --root) are reported when missing; default
	// roots that do not exist are skipped silently.
	Explicit bool `json:"explicit,omitempty"`
}

// Provider is one agent kind.
type Provider struct {
	// Agent is the kind name used in --agent, --root KIND=PATH and output.
	Agent string
	// Format is the session.Format of its files ("pi", "claude", …).
	Format string
	// Roots returns the default roots from the environment. It may return
	// folders that do not exist.
	Roots func(env Env) []Root
	// Files lists the session files below a root. It reports unreadable
	// folders through warn and keeps going.
	Files func(root string, warn func(path string, err error)) []string
	// Info summarises one file. path is the file; st is its stat.
	Info func(path string, st os.FileInfo) (*Session, error)
	// InfoVerdict, when set, is Info followed by applyVerdict in one read
	// of the file where it can (pi family: OpenForList). folders is the
	// scan's memo of folder facts (nil: none).
	InfoVerdict func(reg *sessfmt.Registry, folders *folderMemo, path string, st os.FileInfo) (*Session, error)
	// Version is bumped when Info's results change for the same bytes
	// (it is part of the cache key).
	Version int
	// Order sorts providers (lower first): when two roots are the same
	// folder, the provider with the lower order keeps it.
	Order int
}

// providers indexes providerList by agent, built once.
var providers = sync.OnceValue(func() map[string]*Provider {
	m := map[string]*Provider{}
	for _, p := range providerList() {
		if _, dup := m[p.Agent]; dup {
			panic("discover: duplicate provider " + p.Agent)
		}
		pp := p
		m[p.Agent] = &pp
	}
	return m
})

// Providers returns the providers in order.
func Providers() []*Provider {
	m := providers()
	out := make([]*Provider, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Order != out[j].Order {
			return out[i].Order < out[j].Order
		}
		return out[i].Agent < out[j].Agent
	})
	return out
}

// Lookup returns the provider of an agent kind.
func Lookup(agent string) (*Provider, bool) {
	p, ok := providers()[strings.ToLower(agent)]
	return p, ok
}

// Agents returns the registered agent kinds in order.
func Agents() []string {
	var out []string
	for _, p := range Providers() {
		out = append(out, p.Agent)
	}
	return out
}

// ParseRoot parses a KIND=PATH root specification (from --root).
func ParseRoot(spec string, env Env) (Root, error) {
	kind, path, ok := strings.Cut(spec, "=")
	if !ok || kind == "" || path == "" {
		return Root{}, fmt.Errorf("invalid root %q: use KIND=PATH (kinds: %s)", spec, strings.Join(Agents(), ", "))
	}
	p, found := Lookup(kind)
	if !found {
		return Root{}, fmt.Errorf("invalid root %q: unknown agent kind %q (kinds: %s)", spec, kind, strings.Join(Agents(), ", "))
	}
	return Root{Agent: p.Agent, Path: env.ExpandHome(path), Source: "--root", Explicit: true}, nil
}

// ConfigRoots reads the `roots:` config value: a list of {agent, path}
// maps. Anything else is an error naming the bad entry.
func ConfigRoots(v any, env Env) ([]Root, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("config: roots must be a list of {agent: KIND, path: PATH}")
	}
	var out []Root
	for i, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("config: roots[%d] must be a map with agent and path", i)
		}
		agent, _ := m["agent"].(string)
		path, _ := m["path"].(string)
		if agent == "" || path == "" {
			return nil, fmt.Errorf("config: roots[%d] needs both agent and path", i)
		}
		p, found := Lookup(agent)
		if !found {
			return nil, fmt.Errorf("config: roots[%d]: unknown agent kind %q (kinds: %s)", i, agent, strings.Join(Agents(), ", "))
		}
		out = append(out, Root{Agent: p.Agent, Path: env.ExpandHome(path), Source: "config", Explicit: true})
	}
	return out, nil
}

// DefaultRoots returns the roots of the given agent kinds (all when empty)
// from the environment, followed by extra roots of those kinds.
func DefaultRoots(env Env, agents []string, extra []Root) []Root {
	want := func(a string) bool {
		if len(agents) == 0 {
			return true
		}
		for _, x := range agents {
			if strings.EqualFold(x, a) {
				return true
			}
		}
		return false
	}
	var out []Root
	for _, p := range Providers() {
		if !want(p.Agent) || p.Roots == nil {
			continue
		}
		for _, r := range p.Roots(env) {
			if r.Path != "" {
				out = append(out, r)
			}
		}
	}
	for _, r := range extra {
		if want(r.Agent) {
			out = append(out, r)
		}
	}
	return out
}

// ConfigGetter reads a config key (viper's Get); nil means no config.
type ConfigGetter func(key string) any

// OptionsFrom builds scan options from the environment and the config
// (`roots:` entries, `no-cache`), with the default cache file.
func OptionsFrom(getenv func(string) string, get ConfigGetter) (Options, error) {
	env := Env{Getenv: getenv}
	opts := Options{Env: env, Cache: CacheFile(env)}
	if get == nil {
		return opts, nil
	}
	roots, err := ConfigRoots(get("roots"), env)
	if err != nil {
		return opts, err
	}
	opts.Extra = roots
	switch v := get("no-cache").(type) {
	case bool:
		if v {
			opts.Cache = ""
		}
	case string:
		if b, err := strconv.ParseBool(v); err == nil && b {
			opts.Cache = ""
		}
	}
	return opts, nil
}
