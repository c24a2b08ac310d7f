package repair

// The sidecar and the session stay consistent (issue 11.2). A repair that
// rejects lines:
//
//  1. checks the sidecar's name (never a link, see safewrite.NoFollow);
//  2. writes the repaired session to its temp file and verifies it;
//  3. writes a journal ".<sidecar>.sessctl-<pid>-<id>.journal" beside the
//     sidecar: a header naming the inode of that temp file, then the
//     sidecar records tagged "repair":"<id>" (durable: fsynced, published);
//  4. commits the session (rename: the session now has the temp's inode);
//  5. adds the journal's records to the sidecar (atomic rewrite);
//  6. removes the journal.
//
// A crash before 4 leaves the lines in the session and a journal whose
// inode is not the session's: the next repair drops it. A crash after 4
// leaves a journal whose inode is the session's: the next repair adds its
// records, unless the sidecar already holds records tagged with its id
// (a crash between 5 and 6). Either way every rejected line ends up once
// in the session or once in the sidecar.

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/sessctl/sessctl/internal/agentlock"
	"github.com/sessctl/sessctl/internal/fsx"
	"github.com/sessctl/sessctl/internal/safewrite"
)

// checkpoint, when set (crash tests), is called after each durable step of
// a repair's write: "session:…", "journal:…" and "sidecar:…" (safewrite's
// steps) and "journal-removed".
var checkpoint func(step string)

func stepper(prefix string) func(string) {
	if checkpoint == nil {
		return nil
	}
	cp := checkpoint
	return func(s string) { cp(prefix + s) }
}

func step(s string) {
	if checkpoint != nil {
		checkpoint(s)
	}
}

// derivedMeta is what derived files (sidecar, journal) take from the
// session: its owner, group and permission bits.
func derivedMeta(snap safewrite.Snapshot) safewrite.Snapshot {
	return safewrite.Snapshot{Mode: snap.Mode.Perm(), UID: snap.UID, GID: snap.GID}
}

// checkSidecarName refuses a sidecar name sessctl must not write through:
// a symbolic link, anything but a regular file, a file with other links.
func checkSidecarName(side string) error {
	if _, err := os.Lstat(side); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	_, err := safewrite.StatNoFollow(side)
	return err
}

// journalHead is the first line of a journal.
type journalHead struct {
	Sessctl string `json:"sessctl"` // "sidecar-journal"
	ID      string `json:"id"`
	Session string `json:"session"`
	// Dev and Ino identify the session content whose commit makes the
	// records due: the temp file that the commit renames over the session.
	Dev uint64 `json:"dev"`
	Ino uint64 `json:"ino"`
}

type journal struct {
	path string
	head journalHead
}

// journalPrefix is the name prefix of the journals of a sidecar.
func journalPrefix(side string) string {
	return filepath.Join(filepath.Dir(side), "."+filepath.Base(side)+".sessctl-")
}

// writeJournal writes the journal of a repair whose session content is
// the temp file tmp, and makes it durable (fsync; the folder too when it
// is not the session's, whose fsync after the rename covers it). A journal
// cut short by a crash is harmless: the session commit, which makes it
// count, happens only after this returns.
func writeJournal(side, session string, tmp, like safewrite.Snapshot, records func(io.Writer, string) error) (*journal, error) {
	var rb [8]byte
	if _, err := rand.Read(rb[:]); err != nil {
		return nil, err
	}
	id := hex.EncodeToString(rb[:])
	j := &journal{
		path: journalPrefix(side) + strconv.Itoa(os.Getpid()) + "-" + id + ".journal",
		head: journalHead{Sessctl: "sidecar-journal", ID: id, Session: session, Dev: tmp.Dev, Ino: tmp.Ino},
	}
	f, err := os.OpenFile(j.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|fsx.NoFollow|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		if fsx.IsNoFollowErr(err) || errors.Is(err, fs.ErrExist) {
			if fi, lerr := os.Lstat(j.path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, &safewrite.LinkError{Path: j.path}
			}
		}
		return nil, err
	}
	err = func() error {
		bw := bufio.NewWriterSize(f, 1<<16)
		hb, _ := json.Marshal(j.head)
		bw.Write(append(hb, '\n'))
		if err := records(bw, id); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		// derived file: the session's mode and, as root, its owner
		if err := f.Chmod(like.Mode.Perm()); err != nil {
			return err
		}
		if os.Geteuid() == 0 && like.UID >= 0 {
			if err := f.Chown(like.UID, like.GID); err != nil {
				return err
			}
		}
		return f.Sync()
	}()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && filepath.Dir(j.path) != filepath.Dir(tmp.Path) {
		err = safewrite.SyncDir(filepath.Dir(j.path))
	}
	if err != nil {
		os.Remove(j.path)
		return nil, err
	}
	step("journal-written")
	return j, nil
}

// drop removes the journal. No fsync of the folder: a journal that comes
// back after a power loss is dropped again (its commit did not happen) or
// finds its records already in the sidecar (by the id).
func (j *journal) drop() error {
	if err := os.Remove(j.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// apply adds the journal's records to the sidecar side (once: not if the
// sidecar already holds records of this repair), then removes the journal.
func (j *journal) apply(side string, like safewrite.Snapshot) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = j.appendTo(side, like); err == nil ||
			!(errors.Is(err, safewrite.ErrChanged) || errors.Is(err, fs.ErrExist)) {
			break
		}
	}
	if err != nil {
		return err
	}
	if err := j.drop(); err != nil {
		// the records are in the sidecar; a later run sees them (by the
		// id) and only removes the journal
		return &journalLeftError{path: j.path, err: err}
	}
	step("journal-removed")
	return nil
}

// journalLeftError: the records were added, the journal could not be removed.
type journalLeftError struct {
	path string
	err  error
}

func (e *journalLeftError) Error() string {
	return fmt.Sprintf("the rejected lines were added, but the journal %s could not be removed: %v", e.path, e.err)
}

func (e *journalLeftError) Unwrap() error { return e.err }

// records opens the journal and returns a reader of its records.
func (j *journal) records() (io.ReadCloser, error) {
	f, _, err := safewrite.OpenNoFollow(j.path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(f)
	if _, err := br.ReadSlice('\n'); err != nil {
		f.Close()
		return nil, fmt.Errorf("journal %s: no header line", j.path)
	}
	return struct {
		io.Reader
		io.Closer
	}{br, f}, nil
}

func (j *journal) appendTo(side string, like safewrite.Snapshot) error {
	recs, err := j.records()
	if err != nil {
		return err
	}
	defer recs.Close()
	f, st, err := safewrite.OpenNoFollow(side)
	if errors.Is(err, fs.ErrNotExist) {
		w, err := safewrite.Create(side, safewrite.Options{Like: &like, Checkpoint: stepper("sidecar:")})
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, recs); err != nil {
			w.Abort()
			return err
		}
		_, err = w.Commit()
		return err
	}
	if err != nil {
		return err
	}
	defer f.Close()
	done, err := containsMarker(f, []byte(`"repair":"`+j.head.ID+`"`))
	if err != nil || done {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	w, err := safewrite.Begin(side, safewrite.Options{NoFollow: true, Snapshot: &st, NoBackup: true, Like: &like,
		Checkpoint: stepper("sidecar:")})
	if err != nil {
		return err
	}
	last := &lastByte{w: w}
	if _, err := io.Copy(last, f); err != nil {
		w.Abort()
		return err
	}
	if last.n > 0 && last.b != '\n' {
		w.Write([]byte{'\n'})
	}
	if _, err := io.Copy(w, recs); err != nil {
		w.Abort()
		return err
	}
	_, err = w.Commit()
	return err
}

type lastByte struct {
	w io.Writer
	b byte
	n int64
}

func (l *lastByte) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if n > 0 {
		l.b = p[n-1]
		l.n += int64(n)
	}
	return n, err
}

// containsMarker streams r looking for m.
func containsMarker(r io.Reader, m []byte) (bool, error) {
	buf := make([]byte, 0, 64<<10+len(m))
	chunk := make([]byte, 64<<10)
	for {
		n, err := r.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if bytes.Contains(buf, m) {
			return true, nil
		}
		if len(buf) >= len(m) {
			buf = append(buf[:0], buf[len(buf)-len(m)+1:]...)
		}
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// sidecarFailed is the error of a repair whose session was committed but
// whose rejected lines could not be added to the sidecar.
func (p *planner) sidecarFailed(side, journalPath, backup string, err error) error {
	var jl *journalLeftError
	if errors.As(err, &jl) {
		return fmt.Errorf("%s was repaired and its rejected lines are in %s, but: %w", p.path, side, err)
	}
	why := err.Error()
	var ce *safewrite.ChangedError
	var he *agentlock.HeldError
	switch {
	case errors.As(err, &ce):
		why = "it changed while sessctl was writing it"
	case errors.As(err, &he):
		why = "an agent holds its lock"
	}
	kept := ""
	if backup != "" {
		kept = " (the old content is kept as " + backup + ")"
	}
	n := len(p.rejects)
	lines := "lines"
	if n == 1 {
		lines = "line"
	}
	return fmt.Errorf("%s was repaired%s, but its %d rejected %s could not be added to %s: %s. "+
		"They are kept in %s; the next `sessctl repair %s` adds them", p.path, kept, n, lines, side, why, journalPath, p.path)
}

// recoverSidecar finishes what interrupted repairs of path left: a journal
// whose session commit happened has its records added to the sidecar
// (once), one whose commit did not happen is removed (so is one cut short
// before its header line was complete: its commit cannot have happened).
// Journals of another live process, of another owner, or unreadable ones
// are left alone. A dry run changes nothing.
func recoverSidecar(path string, opts Options) error {
	if opts.DryRun {
		return nil
	}
	side := SidecarPath(path)
	prefix := filepath.Base(journalPrefix(side))
	entries, err := os.ReadDir(filepath.Dir(side))
	if err != nil {
		return nil // the repair reports an unreadable folder itself
	}
	var sess *safewrite.Snapshot
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".journal") || !e.Type().IsRegular() {
			continue
		}
		pidStr, _, _ := strings.Cut(strings.TrimPrefix(name, prefix), "-")
		pid, err := strconv.Atoi(pidStr)
		if err != nil {
			continue
		}
		// Our own pid: left by an earlier, interrupted call in this
		// process (a repair does not run twice at once on one file).
		if writerLive(e, pid) {
			continue
		}
		if sess == nil {
			s, err := safewrite.Stat(path)
			if err != nil {
				return nil
			}
			sess = &s
		}
		jp := filepath.Join(filepath.Dir(side), name)
		f, st, err := safewrite.OpenNoFollow(jp)
		if err != nil {
			continue
		}
		if st.UID != sess.UID && st.UID != os.Geteuid() {
			f.Close()
			continue // not written by sessctl for this session
		}
		line, err := bufio.NewReader(f).ReadSlice('\n')
		f.Close()
		if err == io.EOF {
			// No whole header line: its writer died before the journal
			// was complete and durable (writeJournal buffers the header
			// with the first records, and the session commit comes only
			// after the journal's fsync), so the commit did not happen.
			// Left alone, such a journal would stay forever.
			if err := (&journal{path: jp}).drop(); err != nil {
				return err
			}
			continue
		}
		var head journalHead
		if err != nil || json.Unmarshal(line, &head) != nil || head.Sessctl != "sidecar-journal" || head.ID == "" {
			continue
		}
		j := &journal{path: jp, head: head}
		if head.Dev == sess.Dev && head.Ino == sess.Ino {
			if err := j.apply(side, derivedMeta(*sess)); err != nil {
				return fmt.Errorf("finishing an interrupted repair of %s: adding the rejected lines kept in %s to %s: %w", path, jp, side, err)
			}
			continue
		}
		if err := j.drop(); err != nil {
			return err
		}
	}
	return nil
}

// PendingJournals lists the journals an interrupted repair of path left
// (its writer is no longer running): rejected lines that are in neither
// the session nor the sidecar yet, or, if the session was never replaced,
// a journal to drop. The next repair of path finishes them; `check` can
// report them.
func PendingJournals(path string) []string {
	side := SidecarPath(path)
	prefix := filepath.Base(journalPrefix(side))
	entries, err := os.ReadDir(filepath.Dir(side))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".journal") || !e.Type().IsRegular() {
			continue
		}
		pidStr, _, _ := strings.Cut(strings.TrimPrefix(name, prefix), "-")
		if pid, err := strconv.Atoi(pidStr); err != nil || writerLive(e, pid) {
			continue
		}
		out = append(out, filepath.Join(filepath.Dir(side), name))
	}
	return out
}

// writerLive says whether the journal e, named with pid, may still
// be written by a running repair: pid is alive, is not this process, and
// that process did not start after the journal was last written (if it
// did, the pid was reused, e.g. after a reboot, and the writer is gone).
func writerLive(e fs.DirEntry, pid int) bool {
	if pid == os.Getpid() || !agentlock.PIDAlive(pid) {
		return false
	}
	fi, err := e.Info()
	if err != nil {
		return true // gone or unreadable: leave it to a later run
	}
	return !safewrite.PIDReused(pid, fi.ModTime())
}
