package discover

import (
	"errors"
	"fmt"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Options control a scan.
type Options struct {
	Env Env
	// Agents limits the scan to these kinds (all when empty).
	Agents []string
	// Extra roots from the config file and --root.
	Extra []Root
	// Cache is the cache file; "" disables the cache.
	Cache string
	// Workers is the number of files summarised at once (default: one per
	// CPU; each file is itself read by a worker per CPU, so more files in
	// flight only hold more chunk buffers).
	Workers int
	// Progress, when set, is called from time to time with the number of
	// files done and the total (it must be cheap and goroutine-safe).
	Progress func(done, total int)
	// SaveInBackground: Scan returns while the cache is still being
	// written (and synced); the caller must call Result.WaitSave before it
	// exits and before it reads Result.Warnings. list renders its rows
	// meanwhile.
	SaveInBackground bool
}

// Warning is something that went wrong with one path; the scan goes on.
type Warning struct {
	Path string
	Err  error
}

func (w Warning) Error() string { return fmt.Sprintf("%s: %v", w.Path, w.Err) }

// Result is the outcome of a scan.
type Result struct {
	Roots    []Root
	Sessions []*Session
	Warnings []Warning
	// Read and Cached count the files summarised from disk and from the cache.
	Read, Cached int
	// saving is closed when the cache written in the background
	// (Options.SaveInBackground) is saved; saveWarn is its warning.
	saving   chan struct{}
	saveWarn *Warning
	saveAt   int // where in Warnings the save's warning goes (as when saved in the foreground)
}

// WaitSave waits for the cache Scan writes in the background
// (Options.SaveInBackground), then adds its warning, if any, to Warnings.
// It does nothing otherwise, or when called again.
func (r *Result) WaitSave() {
	if r.saving == nil {
		return
	}
	<-r.saving
	r.saving = nil
	if r.saveWarn != nil {
		r.Warnings = slices.Insert(r.Warnings, min(r.saveAt, len(r.Warnings)), *r.saveWarn)
		r.saveWarn = nil
	}
}

type job struct {
	root Root
	prov *Provider
	path string
	st   os.FileInfo
}

// Scan finds and summarises the session files of the selected agents.
// Missing default roots are skipped silently; unreadable folders and files
// become warnings. Sessions come sorted newest first (by Modified).
func Scan(opts Options) *Result {
	res := &Result{}
	warn := func(p string, err error) { res.Warnings = append(res.Warnings, Warning{Path: p, Err: err}) }

	roots := DefaultRoots(opts.Env, opts.Agents, opts.Extra)
	seenRoot := map[string]bool{}
	var jobs []job
	seenFile := map[string]bool{}
	seenKey := map[FileKey]bool{}
	for _, r := range roots {
		prov, ok := Lookup(r.Agent)
		if !ok {
			continue
		}
		st, err := os.Stat(r.Path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && !r.Explicit {
				continue
			}
			if errors.Is(err, fs.ErrNotExist) {
				warn(r.Path, fmt.Errorf("%s root (from %s) does not exist", r.Agent, r.Source))
			} else {
				warn(r.Path, err)
			}
			continue
		}
		if !st.IsDir() {
			warn(r.Path, fmt.Errorf("%s root (from %s) is not a folder", r.Agent, r.Source))
			continue
		}
		real, err := filepath.EvalSymlinks(r.Path)
		if err != nil {
			real = r.Path
		}
		if seenRoot[real] {
			continue // the same folder through another variable or link
		}
		seenRoot[real] = true
		res.Roots = append(res.Roots, r)
		for _, p := range prov.Files(r.Path, warn) {
			fst, err := os.Stat(p)
			if err != nil {
				warn(p, err)
				continue
			}
			if !fst.Mode().IsRegular() {
				continue
			}
			// one file, several names (links): listed once
			if k, ok := KeyOf(fst); ok {
				if seenKey[k] {
					continue
				}
				seenKey[k] = true
			} else {
				rp, err := filepath.EvalSymlinks(p)
				if err != nil {
					rp = p
				}
				if seenFile[rp] {
					continue
				}
				seenFile[rp] = true
			}
			jobs = append(jobs, job{root: r, prov: prov, path: p, st: fst})
		}
	}

	var cache *Cache
	if opts.Cache != "" {
		cache = LoadCache(opts.Cache)
	}
	out := make([]*Session, len(jobs))
	errs := make([]error, len(jobs))
	var todo []int
	for i, j := range jobs {
		if cache != nil {
			if s := cache.Get(j.path, j.st, j.prov); s != nil {
				s.Root = j.root.Path
				out[i] = s
				res.Cached++
				continue
			}
		}
		todo = append(todo, i)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next, done atomic.Int64
	total := len(todo)
	var reg *sessfmt.Registry
	var folders *folderMemo
	if total > 0 {
		reg = newRegistry(opts.Env)
		folders = newFolderMemo()
	}
	// Largest first, so that no big file is left to the end, read while
	// the other workers have nothing left to do (the small ones fill the
	// gaps at the end).
	sort.SliceStable(todo, func(a, b int) bool { return jobs[todo[a]].st.Size() > jobs[todo[b]].st.Size() })
	// Big files one at a time: each is read by a worker per CPU already,
	// and two at once hold two files' chunks and indexes. A worker that
	// finds the big file's turn taken sets the file aside and goes on with
	// small ones; a worker takes a set-aside file, biggest first, as soon
	// as the turn is free, and the rest at the end, in turn.
	var bigMu, laterMu sync.Mutex
	var later []int
	// takeLater returns a set-aside file when the big file's turn is free
	// (then taken), without waiting.
	takeLater := func() (int, bool) {
		laterMu.Lock()
		defer laterMu.Unlock()
		if len(later) == 0 || !bigMu.TryLock() {
			return 0, false
		}
		i := later[0]
		later = later[1:]
		return i, true
	}
	summarise := func(i int, big bool) {
		j := jobs[i]
		var s *Session
		var err error
		if j.prov.InfoVerdict != nil {
			s, err = j.prov.InfoVerdict(reg, folders, j.path, j.st)
		} else if s, err = j.prov.Info(j.path, j.st); err == nil {
			applyVerdict(reg, s)
		}
		if big {
			bigMu.Unlock()
		}
		if err != nil {
			errs[i] = err
		} else {
			s.Root = j.root.Path
			out[i] = s
		}
		n := done.Add(1)
		if opts.Progress != nil {
			opts.Progress(int(n), total)
		}
	}
	var wg sync.WaitGroup
	for w := 0; w < workers && w < total; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if i, ok := takeLater(); ok {
					summarise(i, true)
					continue
				}
				k := int(next.Add(1)) - 1
				if k >= total {
					break
				}
				i := todo[k]
				j := jobs[i]
				big := j.prov.InfoVerdict != nil && j.st.Size() >= bigFileBytes
				if big && !bigMu.TryLock() {
					laterMu.Lock()
					later = append(later, i)
					laterMu.Unlock()
					continue
				}
				summarise(i, big)
			}
			for {
				laterMu.Lock()
				if len(later) == 0 {
					laterMu.Unlock()
					return
				}
				i := later[0]
				later = later[1:]
				laterMu.Unlock()
				bigMu.Lock()
				summarise(i, true)
			}
		}()
	}
	wg.Wait()
	res.Read = total

	for i, s := range out {
		if s != nil {
			s.clampTimes()
			res.Sessions = append(res.Sessions, s)
			if cache != nil {
				cache.Put(jobs[i].path, jobs[i].st, jobs[i].prov, s)
			}
		} else if errs[i] != nil {
			warn(jobs[i].path, errs[i])
		}
	}
	if cache != nil {
		scanned := map[string]bool{}
		for _, r := range roots {
			scanned[r.Agent] = true
		}
		// Keep what other agents' scans cached; drop vanished files of
		// the agents scanned now.
		cache.Finish(scanned)
		if opts.SaveInBackground {
			res.saving = make(chan struct{})
			// Warnings added after Scan (ScanAll's) go after it, as a
			// save in the foreground would have them.
			res.saveAt = len(res.Warnings)
			go func() {
				defer close(res.saving)
				if err := cache.Save(); err != nil {
					res.saveWarn = &Warning{Path: opts.Cache, Err: fmt.Errorf("cannot write the list cache: %w", err)}
				}
			}()
		} else if err := cache.Save(); err != nil {
			warn(opts.Cache, fmt.Errorf("cannot write the list cache: %w", err))
		}
	}
	SortSessions(res.Sessions, "modified")
	return res
}

// SortSessions sorts in place: modified (default), created, size or
// messages, largest/newest first; ties by path.
func SortSessions(ss []*Session, by string) {
	less := func(a, b *Session) (bool, bool) {
		switch by {
		case "created":
			ta, tb := a.Created, b.Created
			switch {
			case ta == nil && tb == nil:
				return false, false
			case ta == nil:
				return false, true
			case tb == nil:
				return true, true
			case !ta.Equal(*tb):
				return ta.After(*tb), true
			}
		case "size":
			if a.Bytes != b.Bytes {
				return a.Bytes > b.Bytes, true
			}
		case "messages":
			if a.Messages != b.Messages {
				return a.Messages > b.Messages, true
			}
		default:
			if !a.Modified.Equal(b.Modified) {
				return a.Modified.After(b.Modified), true
			}
		}
		return false, false
	}
	sort.SliceStable(ss, func(i, j int) bool {
		if l, ok := less(ss[i], ss[j]); ok {
			return l
		}
		if !ss[i].Modified.Equal(ss[j].Modified) {
			return ss[i].Modified.After(ss[j].Modified)
		}
		return ss[i].Path < ss[j].Path
	})
}

// bigFileBytes: files at least this big (more than one chunk of the
// parallel pass) are summarised one at a time.
var bigFileBytes int64 = 4 << 20
