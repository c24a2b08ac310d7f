package discover

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/safewrite"
)

// cacheFormat is bumped when the Session struct or what a row means
// changes; a cache of another format is ignored and rebuilt.
const cacheFormat = 1 + verdictVersion

// cacheMagic starts the first line of the cache file; it names the file's
// layout (cacheLayout), which changes apart from cacheFormat.
const (
	cacheMagic  = "sessctl-list-cache"
	cacheLayout = 2
)

// maxCacheBytes bounds the cache file read: a larger file is not ours (a
// row is about a kilobyte: a million sessions) and is treated as missing.
const maxCacheBytes = 1 << 30

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
// and the provider's version. It is one file written atomically (a
// temporary file in the same folder, then a rename); a missing, unreadable,
// truncated or corrupt cache, or one of another format, is treated as
// empty.
//
// The file (layout 2) is one JSON document laid out one row per line, so
// that loading it decodes almost nothing:
//
//	{"sessctl-list-cache":2,"cacheFormat":<cacheFormat>,"rows":[
//	[<size>,<mtimeNs>,<version>,"<kind>","<agent>","<path>","<id>","<title>","<modified>",<sidechain>,<session JSON>],
//	…
//	null],"count":<rows>}
//
// kind is "f" for a full row (list's summary with its verdict, the session
// JSON) or "b" for a brief row (only what search shows: id, title, last
// activity, sidechain; the session JSON is null), which search writes for
// sessions it had to summarise itself. The session JSON of a full row is
// decoded only when Get asks for it; the other fields are decoded at load.
// The last line counts the rows, so a cut file is seen; any line not of this
// form makes the whole file no cache.
type Cache struct {
	path    string
	mu      sync.Mutex
	entries map[string]*cacheEntry
	touched map[string]bool
	dirty   bool
}

type cacheEntry struct {
	Size    int64
	MTimeNs int64
	Agent   string
	Version int
	// Full: Session (or raw) holds list's whole summary; else only the
	// brief fields are known.
	Full bool
	// Brief fields (always set).
	ID        string
	Title     string
	Modified  time.Time
	Sidechain bool
	// Session is the decoded summary (nil until decoded); raw its JSON as
	// read from the file (nil once decoded or when put).
	Session *Session
	raw     []byte
}

// Brief is what search needs of a cached session: the id and title it
// prints, the last activity it sorts by, and list's sidechain verdict.
type Brief struct {
	ID        string
	Title     string
	Modified  time.Time
	Sidechain bool
}

// LoadCache reads the cache at path (an empty cache when it cannot).
func LoadCache(path string) *Cache {
	c := &Cache{path: path, entries: map[string]*cacheEntry{}, touched: map[string]bool{}}
	f, err := os.Open(path)
	if err != nil {
		return c
	}
	defer f.Close()
	data, err := readBounded(f)
	if err == nil {
		var entries map[string]*cacheEntry
		if entries, err = parseCache(data); err == nil {
			c.entries = entries
			return c
		}
	}
	c.dirty = true // rewritten in our format on the next Save
	return c
}

var errBadCache = errors.New("not a list cache of this format")

func readBounded(f *os.File) ([]byte, error) {
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	if size > maxCacheBytes {
		return nil, errBadCache
	}
	data := make([]byte, 0, size+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if len(data) > maxCacheBytes {
			return nil, errBadCache
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func cacheHeader() string {
	return `{"` + cacheMagic + `":` + strconv.Itoa(cacheLayout) + `,"cacheFormat":` + strconv.Itoa(cacheFormat) + `,"rows":[`
}

// parseCache reads the whole file; any malformed line makes it no cache.
// Rows point into data (the session JSON is decoded on use).
func parseCache(data []byte) (map[string]*cacheEntry, error) {
	line, rest, ok := cutLine(data)
	if !ok || string(line) != cacheHeader() {
		return nil, errBadCache
	}
	entries := map[string]*cacheEntry{}
	rows := 0
	for {
		line, rest, ok = cutLine(rest)
		if !ok {
			return nil, errBadCache // no last line: cut short
		}
		if bytes.HasPrefix(line, []byte(`null],"count":`)) && bytes.HasSuffix(line, []byte("}")) {
			n, err := strconv.Atoi(string(line[len(`null],"count":`) : len(line)-1]))
			if err != nil || n != rows || len(rest) != 0 {
				return nil, errBadCache
			}
			return entries, nil
		}
		p, e, err := parseRow(line)
		if err != nil {
			return nil, err
		}
		entries[p] = e
		rows++
	}
}

func cutLine(b []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return nil, nil, false
	}
	return b[:i], b[i+1:], true
}

// rowFields is the number of fields before a row's session JSON.
const rowFields = 10

// splitRow cuts a row line, [f0,…,f9,<session JSON>], into its fields: a
// JSON string field runs to its closing quote, any other to the next comma;
// the last is the rest of the line.
func splitRow(line []byte) (f [rowFields + 1][]byte, ok bool) {
	if len(line) < 3 || line[0] != '[' || !bytes.HasSuffix(line, []byte("],")) {
		return f, false
	}
	b := line[1 : len(line)-2]
	for i := 0; i < rowFields; i++ {
		end := 0
		if len(b) > 0 && b[0] == '"' {
			end = stringEnd(b)
			if end < 0 {
				return f, false
			}
		} else {
			end = bytes.IndexByte(b, ',')
			if end < 0 {
				return f, false
			}
		}
		if end >= len(b) || b[end] != ',' {
			return f, false
		}
		f[i], b = b[:end], b[end+1:]
	}
	f[rowFields] = b
	return f, true
}

// stringEnd returns the index just past the JSON string that b starts with
// (its closing quote is the first quote not escaped), or -1.
func stringEnd(b []byte) int {
	for i := 1; i < len(b); {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		q := i + j
		n := 0 // backslashes before the quote
		for k := q - 1; k > 0 && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
	return -1
}

func parseRow(line []byte) (string, *cacheEntry, error) {
	f, ok := splitRow(line)
	if !ok {
		return "", nil, errBadCache
	}
	var e cacheEntry
	var err error
	num := func(b []byte) int64 {
		n, perr := strconv.ParseInt(string(b), 10, 64)
		if perr != nil {
			err = errBadCache
		}
		return n
	}
	str := func(b []byte) string {
		if len(b) < 2 || b[len(b)-1] != '"' {
			err = errBadCache
			return ""
		}
		s, ok := jsonl.String(b)
		if !ok {
			err = errBadCache
		}
		return s
	}
	e.Size = num(f[0])
	e.MTimeNs = num(f[1])
	e.Version = int(num(f[2]))
	switch string(f[3]) {
	case `"f"`:
		e.Full = true
	case `"b"`:
	default:
		return "", nil, errBadCache
	}
	e.Agent = str(f[4])
	path := str(f[5])
	e.ID = str(f[6])
	e.Title = str(f[7])
	if err := e.Modified.UnmarshalText([]byte(str(f[8]))); err != nil {
		return "", nil, errBadCache
	}
	switch string(f[9]) {
	case "true":
		e.Sidechain = true
	case "false":
	default:
		return "", nil, errBadCache
	}
	if err != nil || path == "" {
		return "", nil, errBadCache
	}
	if e.Full {
		if len(f[10]) < 2 || f[10][0] != '{' || f[10][len(f[10])-1] != '}' {
			return "", nil, errBadCache
		}
		e.raw = f[10]
	} else if string(f[10]) != "null" {
		return "", nil, errBadCache
	}
	return path, &e, nil
}

// fresh reports whether e was made from this version of the file.
func (e *cacheEntry) fresh(st os.FileInfo, prov *Provider) bool {
	return e != nil && e.Size == st.Size() && e.MTimeNs == st.ModTime().UnixNano() && e.Agent == prov.Agent && e.Version == prov.Version
}

// Get returns a copy of the cached summary of path when its size, mtime and
// provider version still match and the row is a full one, else nil.
func (c *Cache) Get(path string, st os.FileInfo, prov *Provider) *Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[path]
	if !e.fresh(st, prov) || !e.Full {
		return nil
	}
	if e.Session == nil {
		var s Session
		if err := json.Unmarshal(e.raw, &s); err != nil {
			// A row that does not decode is a miss; it is replaced.
			delete(c.entries, path)
			c.dirty = true
			return nil
		}
		e.Session, e.raw = &s, nil
	}
	c.touched[path] = true
	s := *e.Session
	return &s
}

// Brief returns what search shows of path when the cache has a fresh row of
// it, full or brief; ok is false otherwise. It decodes no session JSON.
func (c *Cache) Brief(path string, st os.FileInfo, prov *Provider) (b Brief, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[path]
	if !e.fresh(st, prov) {
		return Brief{}, false
	}
	return Brief{ID: e.ID, Title: e.Title, Modified: e.Modified, Sidechain: e.Sidechain}, true
}

// Put stores a summary.
func (c *Cache) Put(path string, st os.FileInfo, prov *Provider, s *Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.touched[path] = true
	if e := c.entries[path]; e.fresh(st, prov) && e.Full {
		return
	}
	cp := *s
	c.entries[path] = &cacheEntry{Size: st.Size(), MTimeNs: st.ModTime().UnixNano(), Agent: prov.Agent, Version: prov.Version,
		Full: true, ID: s.ID, Title: s.Title, Modified: s.Modified, Sidechain: s.Sidechain, Session: &cp}
	c.dirty = true
}

// PutBrief stores what search shows of a session it summarised with the
// provider's Info (list's own summary, without check's verdict): a brief row,
// which Brief answers and Get does not (list reads the file again and
// replaces it). A fresh row already there is kept.
func (c *Cache) PutBrief(path string, st os.FileInfo, prov *Provider, s *Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[path]; e.fresh(st, prov) {
		return
	}
	c.entries[path] = &cacheEntry{Size: st.Size(), MTimeNs: st.ModTime().UnixNano(), Agent: prov.Agent, Version: prov.Version,
		ID: s.ID, Title: s.Title, Modified: s.Modified, Sidechain: s.Sidechain}
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

// Save writes the cache if it changed as every file sessctl writes is
// written: a temporary file in the same folder (created exclusively, so
// never through a symlink), synced, renamed over the cache, and the folder
// synced; readers never see half a file (and a file cut short anyway lacks
// its last line, so it is no cache).
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
	if err := c.write(w); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), c.path); err != nil {
		return err
	}
	if err := safewrite.SyncDir(dir); err != nil {
		return err
	}
	c.dirty = false
	return nil
}

func (c *Cache) write(w *bufio.Writer) error {
	paths := make([]string, 0, len(c.entries))
	for p := range c.entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	w.WriteString(cacheHeader())
	w.WriteByte('\n')
	// The rows are encoded on a goroutine per CPU, each a run of them
	// (Save runs after the scan, when the CPUs are free: list saves it in
	// the background while it lists the stores and renders its rows), and
	// written in order.
	parts := min(runtime.GOMAXPROCS(0), (len(paths)+255)/256)
	if parts <= 1 {
		if err := c.writeRows(w, paths); err != nil {
			return err
		}
	} else {
		bufs := make([]bytes.Buffer, parts)
		errs := make([]error, parts)
		var wg sync.WaitGroup
		for k := range parts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				bw := bufio.NewWriterSize(&bufs[k], 64<<10)
				errs[k] = c.writeRows(bw, paths[k*len(paths)/parts:(k+1)*len(paths)/parts])
				bw.Flush()
			}()
		}
		wg.Wait()
		for k := range parts {
			if errs[k] != nil {
				return errs[k]
			}
			if _, err := w.Write(bufs[k].Bytes()); err != nil {
				return err
			}
		}
	}
	w.WriteString(`null],"count":` + strconv.Itoa(len(paths)) + "}\n")
	return nil
}

// writeRows writes the rows of paths (entries of c) to w.
func (c *Cache) writeRows(w *bufio.Writer, paths []string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	encode := func(v any) error {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			return err
		}
		w.Write(bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
		return nil
	}
	for _, p := range paths {
		e := c.entries[p]
		kind := `"b"`
		if e.Full {
			kind = `"f"`
		}
		w.WriteString("[" + strconv.FormatInt(e.Size, 10) + "," + strconv.FormatInt(e.MTimeNs, 10) + "," +
			strconv.Itoa(e.Version) + "," + kind + ",")
		for _, s := range []string{e.Agent, p, e.ID, e.Title} {
			if err := encode(s); err != nil {
				return err
			}
			w.WriteByte(',')
		}
		if err := encode(e.Modified); err != nil {
			return err
		}
		w.WriteString("," + strconv.FormatBool(e.Sidechain) + ",")
		switch {
		case !e.Full:
			w.WriteString("null")
		case e.raw != nil:
			w.Write(e.raw)
		default:
			if err := encode(e.Session); err != nil {
				return err
			}
		}
		if _, err := w.WriteString("],\n"); err != nil {
			return err
		}
	}
	return nil
}
