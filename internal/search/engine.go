package search

import (
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Target is one session to search, with what the caller already knows of
// it (from the list cache); empty fields are filled from the session's Meta
// when it is opened.
type Target struct {
	Ref   sessfmt.Ref
	Agent string
	ID    string
	Title string
	// Describe, when set, gives the agent, id and title of a session
	// with a hit whose Target lacks them, instead of opening the session
	// and reading its Meta: the caller passes list's own summary of the
	// file (the same title), which reads it once without building an
	// index.
	Describe func() (agent, id, title string, err error)
	// Ident, when set, gives the id of a session with a hit whose Target
	// lacks it, from the start of its file (head: as much as was read
	// with the first block, nil to have Ident read it): the caller passes
	// list's own id rule (discover.Provider.Ident). ok is false when the
	// head cannot tell; Describe (or the session's Meta) is then asked.
	// Used only with Config.NoTitles.
	Ident func(head []byte) (id string, ok bool)
	// Known, when set, gives what the caller's records (the list cache)
	// know of a session with a hit whose Target lacks its id or title: its
	// id and title (an empty title included), ok false when they know
	// nothing. It is asked first.
	Known func() (id, title string, ok bool)
	// Opened, when set, is Ref.Path already opened (Dirs.OpenStat): read
	// instead of opening the file again. The search closes it.
	Opened *Opened
}

// describe fills what t lacks of agent, id and title: from t.Known when it
// knows the session (the caller's records), else with t.Describe when set,
// else from the session's Meta (s, or the session opened for it). With
// cfg.NoTitles the title is not needed: t.Ident gives the id from the
// file's head (head, or nil) where it can, without reading the file whole.
func describe(cfg *Config, t *Target, s sessfmt.Session, head []byte) {
	if t.Agent != "" && t.ID != "" && (t.Title != "" || cfg.NoTitles) {
		return
	}
	if t.Known != nil {
		if id, title, ok := t.Known(); ok {
			t.ID, t.Title = id, title
			return
		}
	}
	if cfg.NoTitles && t.Agent != "" && t.Ident != nil {
		if id, ok := t.Ident(head); ok {
			t.ID = id
			return
		}
	}
	fill := func(agent, id, title string) {
		if t.Agent == "" {
			t.Agent = agent
		}
		if t.ID == "" {
			t.ID = id
		}
		if t.Title == "" {
			t.Title = title
		}
	}
	if t.Describe != nil {
		if agent, id, title, err := t.Describe(); err == nil {
			fill(agent, id, title)
			return
		}
	}
	if s == nil {
		var err error
		if s, err = cfg.Open(t.Ref); err != nil {
			return
		}
		defer s.Close()
	}
	// Meta reads the session again (list's reader).
	m := s.Meta()
	fill(m.Agent, m.ID, m.Title)
}

// Config is one search.
type Config struct {
	Matcher *Matcher
	// Kinds are the kinds of text searched (0: sessfmt.TextDefault).
	Kinds sessfmt.TextKind
	// Roles, when set, keep only texts of these roles (see RoleMatches).
	Roles []string
	// ActiveOnly keeps only entries on the active path.
	ActiveOnly bool
	// FirstOnly stops at a session's first hit (list the sessions only).
	FirstOnly bool
	// NoTitles says the caller does not show titles: a session with a hit
	// whose Target lacks its id gets it from Target.Ident, which reads no
	// further than the first lines, instead of from a summary of the whole
	// file; Hit.Title is then what the Target knew (maybe "").
	NoTitles bool
	// Open opens a session (the registry's OpenRef).
	Open func(sessfmt.Ref) (sessfmt.Session, error)
	// Format returns a registered format by name (the registry's Format);
	// with FirstOnly and without ActiveOnly, a file whose format is a
	// sessfmt.LineTexter is read line by line without being opened.
	Format func(name string) sessfmt.Format
	// Workers is how many sessions are searched at once (0: every core).
	Workers int
	// Context is how many bytes of text a snippet shows around its match
	// (0: 60).
	Context int
	// Dirs, when set, opens the files firstLineHit reads by name in their
	// folder (the caller's Dirs, which found them).
	Dirs *Dirs
}

// Hit is one text of an entry that holds the pattern.
type Hit struct {
	Agent   string     `json:"agent"`
	Session string     `json:"session"` // the ref every command accepts
	ID      string     `json:"id"`
	ShortID string     `json:"shortId"`
	Title   string     `json:"title"`
	EntryID string     `json:"entryId,omitempty"`
	Line    int        `json:"line,omitempty"`
	Role    string     `json:"role,omitempty"`
	Kind    string     `json:"kind"`
	Tool    string     `json:"tool,omitempty"`
	Time    *time.Time `json:"time"`
	OnPath  bool       `json:"onPath"`
	Matches int        `json:"matches"`
	Snippet string     `json:"snippet"`
	Spans   [][2]int   `json:"spans"` // byte offsets of the matches in Snippet
}

// Result is what one session gave.
type Result struct {
	Target Target
	Hits   []Hit
	// Opened says the session was decoded (its raw bytes had candidates).
	Opened bool
	Err    error
}

// blockSize is the size of the block each worker reads files in. Small
// enough to stay in the core's cache between the kernel's copy and the
// prefilter's pass over it (a 1 MiB block was slower: the copy went to
// memory and the scan read it back).
var blockSize = 128 << 10

// firstBlock is the size of the first block firstLineHit reads of a file:
// one page. The first hit of a session is most often in its first lines;
// copying 16 KiB instead cost a fifth of search -l's CPU time over 2,000
// sessions whose first hit was within 2.5 KiB (a cut line costs one more
// read).
var firstBlock = 4 << 10

// errStop ends a session's walk early (FirstOnly).
var errStop = errors.New("stop")

// Run searches the targets in parallel and calls emit with each session's
// result in the order of targets (sessions without hits included, so a
// caller can count them). An error from emit stops the search.
func Run(cfg Config, targets []Target, emit func(*Result) error) error {
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > len(targets) {
		workers = len(targets)
	}
	if cfg.Kinds == 0 {
		cfg.Kinds = sessfmt.TextDefault
	}
	type done struct {
		i int
		r *Result
	}
	jobs := make(chan int)
	out := make(chan done, workers)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, blockSize)
			for i := range jobs {
				r := searchOne(&cfg, targets[i], buf)
				select {
				case out <- done{i, r}:
				case <-quit:
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range targets {
			select {
			case jobs <- i:
			case <-quit:
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	pending := map[int]*Result{}
	next := 0
	var err error
	for d := range out {
		if err != nil {
			continue
		}
		pending[d.i] = d.r
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if e := emit(r); e != nil {
				err = e
				close(quit)
				break
			}
		}
	}
	return err
}

// Collect searches the targets sent on in as they come, while the caller
// is still finding the rest, and returns each one's result in the order
// they were sent (sessions without hits included) once in is closed. It
// holds every result: meant for FirstOnly, where a result has at most one
// hit, so that finding the sessions (list's walk and stats) and searching
// them share the cores; a caller that must stream many hits uses Run.
func Collect(cfg Config, in <-chan Target) []*Result {
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Kinds == 0 {
		cfg.Kinds = sessfmt.TextDefault
	}
	// Each worker takes the next target from in with its number (the
	// order sent: taken under recv's lock) and puts its result in res
	// (under mu): one hand-over a session, where a goroutine numbering
	// the targets and another gathering the results were three.
	var (
		recv, mu sync.Mutex
		next     int
		res      []*Result
		wg       sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, blockSize)
			for {
				recv.Lock()
				t, ok := <-in
				i := next
				next++
				recv.Unlock()
				if !ok {
					return
				}
				r := searchOne(&cfg, t, buf)
				mu.Lock()
				for len(res) <= i {
					res = append(res, nil)
				}
				res[i] = r
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return res
}

func searchOne(cfg *Config, t Target, buf []byte) *Result {
	defer t.Opened.Close() // unless firstLineHit took it
	res := &Result{Target: t}
	pre := cfg.Matcher.Prefilter()
	if pre != nil && t.Ref.ID == "" && cfg.FirstOnly && !cfg.ActiveOnly && cfg.Format != nil {
		if lt, ok := cfg.Format(t.Ref.Format).(sessfmt.LineTexter); ok {
			return firstLineHit(cfg, t, lt, pre, buf, res)
		}
	}
	if pre != nil && t.Ref.ID == "" {
		// A file without a candidate is not opened: one pass of the
		// prefilter over its blocks, stopping at the first candidate.
		f, err := os.Open(t.Ref.Path)
		if err != nil {
			res.Err = err
			return res
		}
		any, err := pre.Any(f, buf)
		f.Close()
		if err != nil {
			res.Err = err
			return res
		}
		if !any {
			return res
		}
	}
	s, err := cfg.Open(t.Ref)
	if err != nil {
		res.Err = err
		return res
	}
	defer s.Close()
	res.Opened = true
	tx, ok := s.(sessfmt.Texter)
	if !ok {
		res.Err = sessfmt.Unsupported(s, "search")
		return res
	}
	ref := s.Ref()
	if t.Agent == "" {
		t.Agent = ref.Agent
	}
	res.Target = t
	described := false // agent, id and title are looked up at the first hit
	opts := sessfmt.TextOptions{Kinds: cfg.Kinds}
	if pre != nil {
		// The same prefilter, line by line, as the session is read.
		opts.Candidate = func(line int, raw []byte) bool { return pre.Candidate(raw) }
	}
	width := cfg.Context
	if width <= 0 {
		width = 60
	}
	keep := func(x *sessfmt.Text) bool {
		return x.Kind&cfg.Kinds != 0 && (!cfg.ActiveOnly || x.OnPath) && RoleMatches(cfg.Roles, x.Role)
	}
	hit := func(x *sessfmt.Text, snippet string, spans [][2]int, total int) error {
		if !described {
			describe(cfg, &t, s, nil)
			res.Target, described = t, true
		}
		h := Hit{
			Agent: t.Agent, Session: ref.String(), ID: t.ID, ShortID: short(t.ID), Title: t.Title,
			EntryID: x.EntryID, Line: x.Line, Role: x.Role, Kind: x.Kind.String(), Tool: x.Tool,
			OnPath: x.OnPath, Matches: total,
		}
		if !x.Time.IsZero() {
			tm := x.Time
			h.Time = &tm
		}
		h.Snippet, h.Spans = snippet, spans
		res.Hits = append(res.Hits, h)
		if cfg.FirstOnly {
			return errStop
		}
		return nil
	}
	// A line longer than jsonl.LongLine is matched in pieces, not held
	// (longTexts), where the format supports it.
	if streamLong {
		opts.Long = func(l *sessfmt.LongLine) error {
			return longTexts(cfg.Matcher, l, pre, buf, width, keep, hit)
		}
	}
	err = tx.Texts(opts, func(x *sessfmt.Text) error {
		if !keep(x) {
			return nil
		}
		spans, total := cfg.Matcher.Find(x.Text, 0)
		if total == 0 {
			return nil
		}
		snippet, sp := Snippet(x.Text, spans, width)
		return hit(x, snippet, sp, total)
	})
	if err != nil && err != errStop {
		res.Err = err
	}
	return res
}

// firstLineHit finds a session's first hit by reading its candidate lines
// with the format's line reader, without opening the session (search -l).
// Agent, id and title the caller did not know are looked up only when there
// is a hit.
//
// The file is read once, a first block of firstBlock bytes (a first hit is
// usually in the first lines: no need to copy 128 KiB out of the page cache
// for it), then blocks of buf: each candidate line that lies whole in a
// block is decoded at once, until the first hit. A candidate line the end
// of a block cuts is carried whole to the next block when short (the scan
// does), else it is read from there on line by line, as is a line longer
// than a quarter of the block.
func firstLineHit(cfg *Config, t Target, lt sessfmt.LineTexter, pre *Prefilter, buf []byte, res *Result) *Result {
	width := cfg.Context
	if width <= 0 {
		width = 60
	}
	var hit *Hit
	decode := func(line int, raw []byte) error {
		return lt.LineTexts(line, raw, cfg.Kinds, func(x *sessfmt.Text) error {
			if x.Kind&cfg.Kinds == 0 || !RoleMatches(cfg.Roles, x.Role) {
				return nil
			}
			spans, total := cfg.Matcher.Find(x.Text, 0)
			if total == 0 {
				return nil
			}
			hit = &Hit{Session: t.Ref.String(), EntryID: x.EntryID, Line: x.Line, Role: x.Role, Kind: x.Kind.String(), Tool: x.Tool, Matches: total}
			if !x.Time.IsZero() {
				tm := x.Time
				hit.Time = &tm
			}
			hit.Snippet, hit.Spans = Snippet(x.Text, spans, width)
			return errStop
		})
	}
	rf := t.Opened.take()
	var err error
	if rf == nil {
		if rf, err = cfg.Dirs.open(t.Ref.Path); err != nil {
			res.Err = err
			return res
		}
	}
	var r io.Reader = rf
	var hr *headReader
	if cfg.NoTitles && t.ID == "" && t.Ident != nil {
		hr = &headReader{r: rf} // the id may come from the file's first lines
		r = hr
	}
	rest := 0 // the line to read on from, line by line
	err = pre.ScanLineBytes(r, buf, firstBlock, func(line int, raw []byte) error {
		if raw == nil {
			rest = line
			return errStop
		}
		return decode(line, raw)
	})
	rf.Close()
	if err != nil && err != errStop {
		res.Err = err
		return res
	}
	if hit == nil && rest > 0 {
		// Line by line; a line longer than jsonl.LongLine is matched in
		// pieces, never held (longLineHit).
		f, err := os.Open(t.Ref.Path)
		if err != nil {
			res.Err = err
			return res
		}
		err = eachLine(f, pre.Candidate, rest, decode, func(line int, off, n int64) error {
			if any, err := pre.Any(io.NewSectionReader(f, off, n), buf); err != nil || !any {
				return err
			}
			err := longLineHit(cfg, lt, f, line, off, n, width, func(x *sessfmt.Text, snippet string, spans [][2]int, total int) {
				hit = &Hit{Session: t.Ref.String(), EntryID: x.EntryID, Line: x.Line, Role: x.Role, Kind: x.Kind.String(), Tool: x.Tool, Matches: total}
				if !x.Time.IsZero() {
					tm := x.Time
					hit.Time = &tm
				}
				hit.Snippet, hit.Spans = snippet, spans
			})
			if err == sessfmt.ErrReadWhole {
				raw := make([]byte, n)
				if _, err := f.ReadAt(raw, off); err != nil {
					return err
				}
				return decode(line, raw)
			}
			return err
		})
		f.Close()
		if err != nil && err != errStop {
			res.Err = err
			return res
		}
	}
	if hit == nil {
		return res
	}
	if t.Agent == "" {
		t.Agent = t.Ref.Agent
	}
	var head []byte
	if hr != nil {
		head = hr.head
	}
	describe(cfg, &t, nil, head)
	hit.Agent, hit.ID, hit.ShortID, hit.Title = t.Agent, t.ID, short(t.ID), t.Title
	res.Target = t
	res.Hits = []Hit{*hit}
	return res
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// RoleMatches reports whether role is one of roles (none: every role).
// "tool" also names the tool-result roles of every agent (toolResult,
// tool_result), and comparison ignores case.
func RoleMatches(roles []string, role string) bool {
	if len(roles) == 0 {
		return true
	}
	for _, r := range roles {
		if strings.EqualFold(r, role) {
			return true
		}
		if strings.EqualFold(r, "tool") && (strings.EqualFold(role, "toolResult") || strings.EqualFold(role, "tool_result")) {
			return true
		}
	}
	return false
}

// Snippet cuts text around its first match: up to width bytes before it and
// enough after to show it with some context, on whole characters. spans are
// the matches' offsets in text; the returned spans are those (in part)
// inside the snippet, in its offsets.
func Snippet(text string, spans [][2]int, width int) (string, [][2]int) {
	if len(spans) == 0 {
		return "", nil
	}
	first := spans[0]
	start := first[0] - width/2
	if start < 0 {
		start = 0
	}
	// Prefer starting at a line start within the window.
	if i := strings.LastIndexByte(text[start:first[0]], '\n'); i >= 0 {
		start += i + 1
	}
	end := first[1] + width
	if end > len(text) {
		end = len(text)
	}
	if i := strings.IndexByte(text[first[1]:end], '\n'); i >= 0 {
		end = first[1] + i
	}
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	var out [][2]int
	for _, s := range spans {
		a, b := s[0], s[1]
		if b <= start || a >= end {
			continue
		}
		if a < start {
			a = start
		}
		if b > end {
			b = end
		}
		out = append(out, [2]int{a - start, b - start})
	}
	return text[start:end], out
}
