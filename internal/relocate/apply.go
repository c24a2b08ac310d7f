package relocate

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/sessctl/sessctl/internal/agentlock"
	"github.com/sessctl/sessctl/internal/fsx"
	"github.com/sessctl/sessctl/internal/jsonedit"
	"github.com/sessctl/sessctl/internal/safewrite"
)

// Options control Apply.
type Options struct {
	// NoBackup skips safewrite's backup of each rewritten file.
	NoBackup bool
	// Live, when set, says why a session file is in use ("" when it is
	// not): a move or rewrite of a live file fails and changes nothing
	// (an agent writing by path would recreate the file where it was).
	Live func(agent, path string) string
	// Checkpoint, when set, is called after each durable step:
	// "step-N:<safewrite step>" inside a rewrite and "step-N-done" after
	// step N (1-based). Crash tests stop the process there.
	Checkpoint func(step string)
}

func (o Options) cp(s string) {
	if o.Checkpoint != nil {
		o.Checkpoint(s)
	}
}

// Apply executes the plan step by step, each step atomic, and records each
// step's status. A failed step is recorded and the next steps still run
// unless they depend on it (a rewrite of a file whose move failed finds the
// file where it is). It returns the number of failed steps.
func Apply(plan *Plan, opts Options) int {
	failed := 0
	for i := range plan.Steps {
		st := &plan.Steps[i]
		n := strconv.Itoa(i + 1)
		var done bool
		var err error
		if dep := failedDep(plan, st); dep != "" {
			st.Status, st.Error = "skipped", dep
			opts.cp("step-" + n + "-done")
			continue
		}
		if opts.Live != nil && st.Action != ActRemoveDir {
			if why := opts.Live(st.Agent, st.Path); why != "" {
				st.Status, st.Error = "failed", "in use: "+why+"; nothing was changed (run relocate again once the agent has exited)"
				failed++
				opts.cp("step-" + n + "-done")
				continue
			}
		}
		switch st.Action {
		case ActMove:
			done, err = move(st.Path, st.To, st.Agent != "claude")
		case ActRewrite:
			sub := opts
			sub.Checkpoint = func(s string) { opts.cp("step-" + n + ":" + s) }
			done, err = rewrite(st, plan.Old, plan.New, sub)
		case ActRemoveDir:
			err = os.Remove(st.Path)
			switch {
			case err == nil:
				done = true
				err = safewrite.SyncDir(filepath.Dir(st.Path))
			case errors.Is(err, fs.ErrNotExist):
				err = nil
			case errors.Is(err, fs.ErrExist): // ENOTEMPTY, EEXIST; ERROR_DIR_NOT_EMPTY on Windows
				err = fmt.Errorf("not empty: left in place")
			}
		}
		switch {
		case err != nil:
			st.Status, st.Error = "failed", err.Error()
			failed++
		case done:
			st.Status = "done"
		default:
			st.Status = "already-done"
		}
		opts.cp("step-" + n + "-done")
	}
	return failed
}

// failedDep says which move a step depends on failed, or "".
func failedDep(plan *Plan, st *Step) string {
	for _, d := range st.deps {
		if plan.Steps[d].Status == "failed" || plan.Steps[d].Status == "skipped" {
			return fmt.Sprintf("step %d (move of %s) failed", d+1, plan.Steps[d].Path)
		}
	}
	return ""
}

// move renames src to dst without replacing anything: a folder that
// exists at dst is merged entry by entry (never nested inside it); a file
// that exists there with the same bytes counts as moved (the source is
// removed), with other bytes it is a conflict and nothing changes. With
// locks, a session file an agent holds locked is not moved.
func move(src, dst string, locks bool) (bool, error) {
	sst, err := os.Lstat(src)
	if errors.Is(err, fs.ErrNotExist) {
		if _, derr := os.Lstat(dst); derr == nil {
			return false, nil // moved by an earlier run
		}
		return false, fmt.Errorf("%s is gone", src)
	}
	if err != nil {
		return false, err
	}
	if locks && sst.Mode().IsRegular() {
		if _, err := agentlock.CheckFree(src, agentlock.OMPWait); err != nil {
			return false, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return false, err
	}
	// Never replaces dst (see fsx.RenameNoReplace for how, per OS); an
	// existing dst fails with an error matching fs.ErrExist (EEXIST or
	// ENOTEMPTY on Unix, ERROR_ALREADY_EXISTS on Windows).
	err = fsx.RenameNoReplace(src, dst)
	if err == nil {
		return true, syncDirs(filepath.Dir(src), filepath.Dir(dst))
	}
	if !errors.Is(err, fs.ErrExist) {
		return false, err
	}
	dstat, derr := os.Lstat(dst)
	if derr != nil {
		return false, derr
	}
	switch {
	case sst.IsDir() && dstat.IsDir():
		entries, err := os.ReadDir(src)
		if err != nil {
			return false, err
		}
		for _, e := range entries {
			if _, err := move(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()), locks); err != nil {
				return false, err
			}
		}
		if err := os.Remove(src); err != nil {
			return false, err
		}
		return true, safewrite.SyncDir(filepath.Dir(src))
	case sst.Mode().IsRegular() && dstat.Mode().IsRegular():
		same, err := sameBytes(src, dst)
		if err != nil {
			return false, err
		}
		if !same {
			return false, fmt.Errorf("%s exists with other content: not replaced (move or compare it by hand)", dst)
		}
		if err := os.Remove(src); err != nil {
			return false, err
		}
		return true, safewrite.SyncDir(filepath.Dir(src))
	}
	return false, fmt.Errorf("%s exists: not replaced", dst)
}

func syncDirs(a, b string) error {
	if err := safewrite.SyncDir(a); err != nil {
		return err
	}
	if a == b {
		return nil
	}
	return safewrite.SyncDir(b)
}

func fileHash(p string) ([]byte, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return h.Sum(nil), n, err
}

func sameBytes(a, b string) (bool, error) {
	ha, na, err := fileHash(a)
	if err != nil {
		return false, err
	}
	hb, nb, err := fileHash(b)
	if err != nil {
		return false, err
	}
	return na == nb && bytes.Equal(ha, hb), nil
}

// jsonString encodes s as JavaScript's JSON.stringify does (no HTML
// escaping).
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// rewrite rewrites a session file through safewrite: for a pi-family file
// every string member of the header line that is a path under OLD (cwd,
// …) or inside a moved project folder (parentSession); for a Claude Code
// transcript the top-level "cwd" of every record, when it is OLD or below
// it. Every other byte is kept. A file with nothing to change is left
// alone (false).
func rewrite(st *Step, old, new string, opts Options) (bool, error) {
	snap, err := safewrite.Stat(st.Path)
	if err != nil {
		return false, err
	}
	f, err := fsx.OpenRead(st.Path) // shares delete access: the file is renamed over while open (Windows)
	if err != nil {
		return false, err
	}
	defer f.Close()
	w, err := safewrite.Begin(st.Path, safewrite.Options{Snapshot: &snap, NoBackup: opts.NoBackup, Checkpoint: opts.Checkpoint})
	if err != nil {
		return false, err
	}
	changed := false
	r := bufio.NewReaderSize(f, 1<<20)
	first := true
	for {
		line, rerr := r.ReadBytes('\n')
		if len(line) > 0 {
			out := line
			if st.header {
				if first {
					out = editHeader(line, old, new, st.folders)
				}
			} else {
				out = editCwd(line, old, new)
			}
			if !bytes.Equal(out, line) {
				changed = true
			}
			if _, err := w.Write(out); err != nil {
				w.Abort()
				return false, err
			}
			if st.header && first {
				first = false
				if _, err := io.Copy(w, r); err != nil {
					w.Abort()
					return false, err
				}
				break
			}
		}
		first = false
		if rerr != nil {
			if errors.Is(rerr, io.EOF) {
				break
			}
			w.Abort()
			return false, rerr
		}
	}
	if !changed {
		w.Abort()
		return false, nil
	}
	if _, err := w.Commit(); err != nil {
		return false, err
	}
	return true, nil
}

// editCwd maps the top-level "cwd" of one JSONL record.
func editCwd(line []byte, old, new string) []byte {
	if !bytes.Contains(line, []byte(`"cwd"`)) {
		return line
	}
	v, ok, err := jsonedit.String(line, "cwd")
	if err != nil || !ok {
		return line
	}
	m, ok := Map(v, old, new)
	if !ok {
		return line
	}
	out, err := jsonedit.Set(line, "cwd", jsonString(m))
	if err != nil {
		return line
	}
	return out
}

// editHeader maps every top-level string of a pi header that is a path
// under OLD, or inside a project folder that moved.
func editHeader(line []byte, old, new string, folders map[string]string) []byte {
	e, err := jsonedit.NewEditor(line)
	if err != nil {
		return line
	}
	type set struct{ key, val string }
	var sets []set
	for _, m := range e.Object().Members {
		raw := e.Bytes()[m.ValueStart:m.ValEnd]
		if len(raw) == 0 || raw[0] != '"' {
			continue
		}
		var v string
		if json.Unmarshal(raw, &v) != nil || !filepath.IsAbs(v) {
			continue
		}
		if nv, ok := Map(v, old, new); ok {
			sets = append(sets, set{m.Key, nv})
			continue
		}
		for of, nf := range folders {
			if nv, ok := Map(v, of, nf); ok {
				sets = append(sets, set{m.Key, nv})
				break
			}
		}
	}
	for _, s := range sets {
		if err := e.Set(s.key, jsonString(s.val)); err != nil {
			return line
		}
	}
	return e.Bytes()
}
