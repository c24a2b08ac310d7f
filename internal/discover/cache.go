package discover

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
)

// cacheFormat is bumped when the cache file's layout or the Session struct
// changes; a cache of another format is ignored and rebuilt.
const cacheFormat = 1 + verdictVersion

// CacheFile is the default cache location: $XDG_CACHE_HOME/sessctl/list-cache.json
// ("" when neither XDG_CACHE_HOME nor HOME is known).
func CacheFile(env Env) string {
	d := env.CacheHome()
	if d == "" {
		return ""
	}
	return filepath.Join(d, "sessctl", "list-cache.json")
}

// Cache remembers summaries by path, keyed by size, modification time (ns)
// and the provider's version. It is a single JSON file written atomically
// (temporary file in the same folder, then rename); a missing, unreadable
// or corrupt cache is treated as empty.
type Cache struct {
	path    string
	mu      sync.Mutex
	entries map[string]*cacheEntry
	touched map[string]bool
	dirty   bool
}

type cacheEntry struct {
	Size    int64    `json:"size"`
	MTimeNs int64    `json:"mtimeNs"`
	Agent   string   `json:"agent"`
	Version int      `json:"version"`
	Session *Session `json:"session"`
}

type cacheDoc struct {
	Format  int                    `json:"format"`
	Entries map[string]*cacheEntry `json:"entries"`
}

// LoadCache reads the cache at path (an empty cache when it cannot).
func LoadCache(path string) *Cache {
	c := &Cache{path: path, entries: map[string]*cacheEntry{}, touched: map[string]bool{}}
	f, err := os.Open(path)
	if err != nil {
		return c
	}
	defer f.Close()
	var doc cacheDoc
	if err := json.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&doc); err != nil || doc.Format != cacheFormat {
		c.dirty = true
		return c
	}
	for p, e := range doc.Entries {
		if e != nil && e.Session != nil {
			c.entries[p] = e
		}
	}
	return c
}

// Get returns a copy of the cached summary of path when its size, mtime and
// provider version still match, else nil.
func (c *Cache) Get(path string, st os.FileInfo, prov *Provider) *Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[path]
	if e == nil || e.Size != st.Size() || e.MTimeNs != st.ModTime().UnixNano() || e.Agent != prov.Agent || e.Version != prov.Version {
		return nil
	}
	c.touched[path] = true
	s := *e.Session
	return &s
}

// Put stores a summary.
func (c *Cache) Put(path string, st os.FileInfo, prov *Provider, s *Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.touched[path] = true
	if e := c.entries[path]; e != nil && e.Size == st.Size() && e.MTimeNs == st.ModTime().UnixNano() && e.Agent == prov.Agent && e.Version == prov.Version {
		return
	}
	cp := *s
	c.entries[path] = &cacheEntry{Size: st.Size(), MTimeNs: st.ModTime().UnixNano(), Agent: prov.Agent, Version: prov.Version, Session: &cp}
	c.dirty = true
}

// Finish drops the entries of the scanned agents that this scan did not
// see (vanished or moved files); other agents' entries are kept.
func (c *Cache) Finish(scanned map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p, e := range c.entries {
		if scanned[e.Agent] && !c.touched[p] {
			delete(c.entries, p)
			c.dirty = true
		}
	}
}

// Save writes the cache if it changed: a temporary file in the same folder,
// then a rename, so readers never see half a file.
func (c *Cache) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty {
		return nil
	}
	dir := filepath.Dir(c.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".list-cache-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	w := bufio.NewWriterSize(tmp, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(cacheDoc{Format: cacheFormat, Entries: c.entries}); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), c.path); err != nil {
		return err
	}
	c.dirty = false
	return nil
}
