// Package safewrite is the one way sessctl changes a file on disk.
//
// Guarantees (Unix):
//
//   - Atomic replacement. New content goes to a temp file
//     ".<name>.sessctl-<pid>-<16 hex>.tmp" in the target's directory; Commit
//     flushes and fsyncs it, renames it over the target and fsyncs the
//     directory. A reader (or a crash, even SIGKILL or power loss after the
//     fsyncs) sees either the complete old file or the complete new one.
//   - Nothing changes unless Commit succeeds. Begin only reads (stat, lock
//     inspection), removes temp files of dead sessctl writers in the folder
//     (before a new one takes the same room again) and creates the temp
//     file; Abort, or any failed check,
//     removes the temp file (and a backup made for this write) and leaves the
//     target untouched. A process killed before Commit finishes can leave a
//     temp file behind: it is inert (no agent lists dot-files or *.tmp),
//     StaleTemps lists those whose writer (the pid in the name) is dead, and
//     the next Begin or Create in that directory removes them (the first
//     one in a process: a folder is swept once per process).
//   - Freshness. The target's size, mtime, device and inode are taken when
//     the caller read it (pass Options.Snapshot from Stat called before
//     reading) or at Begin. Commit re-checks them immediately before the
//     rename, under the agents' locks, and returns a *ChangedError
//     (errors.Is(err, ErrChanged)) instead of replacing a file that changed:
//     the agent seems to be writing it.
//   - Agent locks (package agentlock). Begin refuses (a *agentlock.HeldError,
//     errors.Is(err, agentlock.ErrHeld)) while a live oh-my-pi or OpenClaw
//     lock is held; Commit takes oh-my-pi's publish lock protocol (and
//     OpenClaw's lock with Options.OpenClawLock) around the final
//     check-and-rename only, so the agents' own bounded waits (500 ms for
//     omp) are never exceeded. Stale locks (dead pid) are reported and, when
//     in the way, reclaimed exactly as the agents do.
//   - Metadata. The new file gets the old file's permission bits (including
//     setuid/setgid/sticky) and, when running as root, its owner and group.
//     Symlinks are resolved: the link stays and its target is replaced.
//     A derived file (sidecar, journal) takes the owner and mode of the file
//     it derives from (Options.Like), also when root writes it.
//   - Names sessctl derives are never followed. Temp files are created
//     O_EXCL, backups and new files published with link(2) or
//     RENAME_NOREPLACE (none follows a link at the new name); Create refuses
//     a symbolic link at its name with ErrSymlink, and Begin with
//     Options.NoFollow refuses a link (or a file with other hard links)
//     instead of following it.
//   - Backup. Unless Options.NoBackup, the old content is kept as
//     "<file>.sessctl-<UTC YYYYMMDDTHHMMSSZ>.bak" ("-2", "-3"… appended if
//     taken), made by a hard link (the rename replaces the directory entry,
//     not the inode, so the link keeps the old bytes) or, where links are
//     not possible, by a copy that is itself written to a temp file, fsynced
//     and renamed, so a backup is never partial.
//   - Dry run. With Options.DryRun, Begin performs the same checks but the
//     Writer discards what is written and Commit only reports what would
//     happen; nothing is created, locked or changed.
//   - New files. Create writes a temp file the same way and publishes it
//     with link(2) (or, where hard links are unsupported, Linux
//     renameat2(RENAME_NOREPLACE)), which fails if the name exists: O_EXCL
//     semantics without ever exposing a partial file. Then it fsyncs the
//     directory.
//
// Other systems (per-OS calls in package fsx): macOS and the BSDs as above
// (new names without replace: renamex_np(RENAME_EXCL) on macOS, link(2)
// elsewhere). Windows: the same steps with these differences. A directory
// cannot be fsynced there (skipped; NTFS journals renames itself). Only
// the read-only bit of the mode exists, and the owner is not kept: the new
// file gets the folder's inherited permissions (an explicit ACL on the old
// file is lost). Identity is the volume serial number and file index. A
// link at a derived name is opened as the link itself
// (FILE_FLAG_OPEN_REPARSE_POINT) and refused. The final rename asks for
// POSIX semantics, so it succeeds while readers have the file open with
// delete access shared; where that is not available it fails closed while
// any reader has the file open.
//
// Limits: a writer that ignores the agents' lock protocols (pi, older omp,
// an editor) can still append in the microseconds between the last check
// and the rename; and a process that keeps an old file descriptor open (omp
// ≤ 14 keeps one for appends) writes after the rename into the old inode,
// which is then only reachable through the backup. Stop such agents first.
// Reading never modifies a file or its mtime: the target is only ever
// opened read-only (for the copy fallback).
package safewrite

import (
	"bufio"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sessctl/sessctl/internal/agentlock"
	"github.com/sessctl/sessctl/internal/fsx"
)

// Snapshot is the identity of a file at one moment.
type Snapshot struct {
	// Path is the absolute, symlink-resolved path.
	Path    string      `json:"path"`
	Size    int64       `json:"size"`
	ModTime time.Time   `json:"mtime"`
	Mode    fs.FileMode `json:"mode"`
	UID     int         `json:"uid"`
	GID     int         `json:"gid"`
	Dev     uint64      `json:"dev"`
	Ino     uint64      `json:"ino"`
	Nlink   uint64      `json:"nlink"`
}

// Same reports whether o describes the same, unmodified file: same device,
// inode, size and mtime.
func (s Snapshot) Same(o Snapshot) bool {
	return s.Dev == o.Dev && s.Ino == o.Ino && s.Size == o.Size && s.ModTime.Equal(o.ModTime)
}

// Stat resolves symlinks and snapshots a regular file. Call it before
// reading a file you may rewrite, and pass the result as Options.Snapshot.
func Stat(path string) (Snapshot, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Snapshot{}, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Snapshot{}, err
	}
	return statReal(real)
}

func statReal(real string) (Snapshot, error) {
	fi, err := os.Stat(real)
	if err != nil {
		return Snapshot{}, err
	}
	if !fi.Mode().IsRegular() {
		return Snapshot{}, fmt.Errorf("%s is not a regular file", real)
	}
	s := Snapshot{Path: real, Size: fi.Size(), ModTime: fi.ModTime(), Mode: fi.Mode()}
	id, err := fsx.IDOf(real, fi, true)
	if err != nil {
		return Snapshot{}, err
	}
	s.setID(id)
	return s, nil
}

// Options controls Begin and Create.
type Options struct {
	// NoBackup skips the "<file>.sessctl-<ts>.bak" backup (--no-backup).
	NoBackup bool
	// DryRun makes Begin/Create check everything but write nothing
	// (--dry-run); Commit then reports what would happen.
	DryRun bool
	// Snapshot is the Stat taken before the caller read the file. If nil,
	// Begin takes one, and the freshness check covers Begin→Commit only.
	Snapshot *Snapshot
	// OpenClawLock also takes OpenClaw's "<file>.lock" during Commit (use
	// for OpenClaw transcripts). A live OpenClaw lock always refuses.
	OpenClawLock bool
	// LockWait bounds waiting for a lock held by a live process; 0 means
	// agentlock.OMPWait (500 ms).
	LockWait time.Duration
	// Mode is the permission of a file made by Create (default 0600,
	// subject to no umask: the bits are set explicitly). Ignored by Begin,
	// which keeps the target's mode.
	Mode fs.FileMode
	// Now is the clock used for backup names (tests); nil means time.Now.
	Now func() time.Time
	// NoFollow marks the target of Begin as a name sessctl derives (a
	// sidecar, not a session the user named): a symbolic link there is
	// refused with ErrSymlink instead of followed, and so is anything but
	// a regular file with one link. Create always behaves this way.
	NoFollow bool
	// Like, when set, gives the new file the permission bits and (when
	// running as root) the owner and group of this file instead of the
	// target's own or Mode: derived files take the session file's.
	Like *Snapshot
	// Checkpoint, when set, is called after each durable step of Commit:
	// "temp-synced", "backup-made", "published". Crash tests stop there.
	Checkpoint func(step string)
}

func (o Options) checkpoint(step string) {
	if o.Checkpoint != nil {
		o.Checkpoint(step)
	}
}

// ErrChanged is matched (errors.Is) by a *ChangedError.
var ErrChanged = errors.New("file changed since it was read")

// ChangedError says the target changed between the read and the write.
type ChangedError struct {
	Path   string
	Before Snapshot
	After  Snapshot // zero if the file vanished
	Gone   bool
}

func (e *ChangedError) Error() string {
	var what string
	switch {
	case e.Gone:
		what = "it was removed or renamed"
	case e.Before.Dev != e.After.Dev || e.Before.Ino != e.After.Ino:
		what = "it was replaced by another file"
	default:
		what = fmt.Sprintf("size %d → %d bytes, mtime %s → %s", e.Before.Size, e.After.Size,
			e.Before.ModTime.UTC().Format(time.RFC3339Nano), e.After.ModTime.UTC().Format(time.RFC3339Nano))
	}
	return fmt.Sprintf("%s changed while sessctl was working on it (%s): the agent seems to be writing it. "+
		"Nothing was changed; run the command again when the agent is idle or has exited", e.Path, what)
}

// Is makes errors.Is(err, ErrChanged) true.
func (e *ChangedError) Is(target error) bool { return target == ErrChanged }

// Result reports a Commit (or, with DryRun, what a Commit would do).
type Result struct {
	Path    string `json:"path"`
	DryRun  bool   `json:"dry_run"`
	Created bool   `json:"created"` // Create, not a rewrite
	OldSize int64  `json:"old_size"`
	NewSize int64  `json:"new_size"`
	// Backup is the backup made (or that would be made); empty with NoBackup.
	Backup string `json:"backup,omitempty"`
	// BackupCopied is true when the backup had to be copied, not linked.
	BackupCopied bool `json:"backup_copied,omitempty"`
	// StaleLocks were present but not live (reported, e.g. for `check`).
	StaleLocks []agentlock.Lock `json:"stale_locks,omitempty"`
	// Reclaimed are stale lock files removed to take the lock.
	Reclaimed []agentlock.Lock `json:"reclaimed_locks,omitempty"`
	// RemovedTemps are temp files of dead sessctl processes removed from
	// the directory before this write.
	RemovedTemps []string `json:"removed_temps,omitempty"`
	Warnings     []string `json:"warnings,omitempty"`
}

// String is a one-line human summary.
func (r *Result) String() string {
	verb := "rewrote"
	if r.Created {
		verb = "created"
	}
	if r.DryRun {
		verb = "would rewrite"
		if r.Created {
			verb = "would create"
		}
	}
	s := fmt.Sprintf("%s %s (%d → %d bytes)", verb, r.Path, r.OldSize, r.NewSize)
	if r.Created {
		s = fmt.Sprintf("%s %s (%d bytes)", verb, r.Path, r.NewSize)
	}
	if r.Backup != "" {
		if r.DryRun {
			s += ", backup " + r.Backup
		} else {
			s += ", backup kept as " + r.Backup
		}
	}
	return s
}

// Writer receives the new content of one file.
type Writer struct {
	opts   Options
	path   string // absolute, resolved target
	create bool
	snap   Snapshot
	stale  []agentlock.Lock
	tmp    *os.File
	tmpN   string
	buf    *bufio.Writer
	n      int64
	err    error
	done   bool
	// removed are stale temps removed at Begin/Create.
	removed []string
}

// test hooks
var (
	linkFile = os.Link
	// beforeRename runs between the final checks and the rename (tests).
	beforeRename func()
)

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o Options) wait() time.Duration {
	if o.LockWait != 0 {
		return o.LockWait
	}
	return agentlock.OMPWait
}

// Begin starts a rewrite of the existing regular file path (symlinks are
// followed). It checks the snapshot and the agents' locks, and opens the
// temp file (not in DryRun). The caller writes the complete new content and
// then calls Commit or Abort.
func Begin(path string, opts Options) (*Writer, error) {
	var real string
	var cur Snapshot
	var err error
	if opts.NoFollow {
		if cur, err = StatNoFollow(path); err != nil {
			return nil, err
		}
		real = cur.Path
	} else {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		if real, err = filepath.EvalSymlinks(abs); err != nil {
			return nil, err
		}
		if cur, err = statReal(real); err != nil {
			return nil, err
		}
	}
	snap := cur
	if opts.Snapshot != nil {
		snap = *opts.Snapshot
		snap.Path = real
		if !snap.Same(cur) {
			return nil, &ChangedError{Path: real, Before: snap, After: cur}
		}
	}
	locks, err := agentlock.CheckFree(real, opts.wait())
	if err != nil {
		return nil, err
	}
	w := &Writer{opts: opts, path: real, snap: snap, stale: locks}
	if opts.DryRun {
		return w, nil
	}
	w.removed = removeStaleTemps(filepath.Dir(real))
	if err := w.openTemp(); err != nil {
		return nil, err
	}
	return w, nil
}

// Create starts writing a new file at path, which must not exist (checked
// again, atomically, at Commit). The parent directory must exist.
func Create(path string, opts Options) (*Writer, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	target := filepath.Join(dir, filepath.Base(abs))
	if fi, err := os.Lstat(target); err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &LinkError{Path: target}
		}
		return nil, &fs.PathError{Op: "create", Path: target, Err: fs.ErrExist}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	mode := opts.Mode
	if mode == 0 {
		mode = 0o600
	}
	w := &Writer{opts: opts, path: target, create: true, snap: Snapshot{Path: target, Mode: mode, UID: -1, GID: -1}}
	if opts.DryRun {
		return w, nil
	}
	w.removed = removeStaleTemps(dir)
	if err := w.openTemp(); err != nil {
		return nil, err
	}
	return w, nil
}

// TempPrefix returns the prefix of sessctl temp files for target.
func TempPrefix(target string) string {
	return filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".sessctl-")
}

func (w *Writer) openTemp() error {
	for range 10 {
		var rb [8]byte
		if _, err := rand.Read(rb[:]); err != nil {
			return err
		}
		name := tempName(w.path, rb[:])
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_CLOEXEC|fsx.NoFollow, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return err
		}
		w.tmp, w.tmpN = f, name
		w.buf = bufio.NewWriterSize(f, 1<<20)
		return nil
	}
	return fmt.Errorf("could not create a unique temp file beside %s", w.path)
}

// Path is the resolved target path.
func (w *Writer) Path() string { return w.path }

// TempPath is the temp file being written ("" in DryRun).
func (w *Writer) TempPath() string { return w.tmpN }

// Snapshot is the state the target must still be in at Commit.
func (w *Writer) Snapshot() Snapshot { return w.snap }

// StaleLocks are stale agent locks seen at Begin.
func (w *Writer) StaleLocks() []agentlock.Lock { return w.stale }

// Write appends to the new content. In DryRun it only counts bytes.
func (w *Writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, errors.New("safewrite: write after Commit/Abort")
	}
	if w.err != nil {
		return 0, w.err
	}
	if w.opts.DryRun {
		w.n += int64(len(p))
		return len(p), nil
	}
	n, err := w.buf.Write(p)
	w.n += int64(n)
	if err != nil {
		w.err = err
	}
	return n, err
}

// WriteString is Write for strings.
func (w *Writer) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

// Abort discards the temp file; the target is untouched. Safe to call after
// Commit (then it does nothing).
func (w *Writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	return w.discard()
}

func (w *Writer) discard() error {
	if w.tmp == nil {
		return nil
	}
	w.tmp.Close()
	w.tmp = nil
	if err := os.Remove(w.tmpN); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// backupName picks the first free "<file>.sessctl-<ts>[-N].bak".
func backupBase(path string, now time.Time) string {
	return path + ".sessctl-" + now.UTC().Format("20060102T150405Z")
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func freeBackupName(path string, now time.Time) string {
	base := backupBase(path, now)
	name := base + ".bak"
	for i := 2; exists(name); i++ {
		name = base + "-" + strconv.Itoa(i) + ".bak"
	}
	return name
}

// makeBackup keeps the current content of w.path under a fresh backup
// name. It returns the name and whether it had to copy.
func (w *Writer) makeBackup() (string, bool, error) {
	base := backupBase(w.path, w.opts.now())
	var linkErr error
	for i := 1; i < 1000; i++ {
		name := base + ".bak"
		if i > 1 {
			name = base + "-" + strconv.Itoa(i) + ".bak"
		}
		err := linkFile(w.path, name)
		if err == nil {
			return name, false, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		linkErr = err
		break
	}
	if linkErr == nil {
		return "", false, errors.New("no free backup name")
	}
	name, err := w.copyBackup(base)
	if err != nil {
		return "", false, fmt.Errorf("backup of %s: link failed (%v), copy failed: %w", w.path, linkErr, err)
	}
	return name, true, nil
}

// copyBackup copies the target into a temp file, fsyncs it and renames it
// to a free backup name, so a backup is never seen partial.
func (w *Writer) copyBackup(base string) (string, error) {
	src, err := os.Open(w.path)
	if err != nil {
		return "", err
	}
	defer src.Close()
	var rb [8]byte
	rand.Read(rb[:])
	tmpName := tempName(w.path, rb[:])
	dst, err := os.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_CLOEXEC|fsx.NoFollow, 0o600)
	if err != nil {
		return "", err
	}
	ok := false
	defer func() {
		if !ok {
			dst.Close()
			os.Remove(tmpName)
		}
	}()
	if _, err := io.Copy(dst, src); err != nil {
		return "", err
	}
	if err := setMeta(dst, w.snap); err != nil {
		return "", err
	}
	if err := dst.Sync(); err != nil {
		return "", err
	}
	if err := dst.Close(); err != nil {
		return "", err
	}
	for i := 1; i < 1000; i++ {
		name := base + ".bak"
		if i > 1 {
			name = base + "-" + strconv.Itoa(i) + ".bak"
		}
		if exists(name) {
			continue
		}
		err := fsx.RenameNoReplace(tmpName, name)
		if errors.Is(err, errors.ErrUnsupported) {
			// Neither hard links nor a no-replace rename on this file
			// system (FAT, some network mounts): a plain rename, chosen
			// over making no backup. It can replace only a backup name
			// that appeared since exists() above, never the session.
			err = os.Rename(tmpName, name)
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		ok = true
		return name, nil
	}
	return "", errors.New("no free backup name")
}

// modeBits are the bits chmod can set.
func modeBits(m fs.FileMode) fs.FileMode {
	return m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

// Commit publishes the new content (see the package doc for the order of
// steps and the guarantees). On any error the target is unchanged and the
// temp file and any backup made for this write are removed.
func (w *Writer) Commit() (*Result, error) {
	if w.done {
		return nil, errors.New("safewrite: Commit after Commit/Abort")
	}
	w.done = true
	res := &Result{Path: w.path, DryRun: w.opts.DryRun, Created: w.create, OldSize: w.snap.Size, NewSize: w.n, StaleLocks: w.stale}
	if !w.create && w.snap.Nlink > 1 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s has %d hard links; the other names keep the old content", w.path, w.snap.Nlink))
	}
	if w.err != nil {
		w.discard()
		return nil, w.err
	}
	if w.opts.DryRun {
		if w.create {
			if exists(w.path) {
				return nil, &fs.PathError{Op: "create", Path: w.path, Err: fs.ErrExist}
			}
			return res, nil
		}
		if err := w.checkFresh(); err != nil {
			return nil, err
		}
		if !w.opts.NoBackup {
			res.Backup = freeBackupName(w.path, w.opts.now())
		}
		return res, nil
	}
	if err := w.finishTemp(); err != nil {
		w.discard()
		return nil, err
	}
	res.RemovedTemps = w.removed
	w.opts.checkpoint("temp-synced")
	if w.create {
		return w.commitCreate(res)
	}
	return w.commitReplace(res)
}

// finishTemp flushes, sets mode/owner and fsyncs the temp file, and closes it.
func (w *Writer) finishTemp() error {
	if err := w.buf.Flush(); err != nil {
		return err
	}
	meta := w.snap
	if w.opts.Like != nil {
		meta = *w.opts.Like
	}
	if err := setMeta(w.tmp, meta); err != nil {
		return err
	}
	if err := w.tmp.Sync(); err != nil {
		return err
	}
	err := w.tmp.Close()
	w.tmp = nil
	return err
}

func (w *Writer) removeTemp() { os.Remove(w.tmpN) }

func (w *Writer) commitReplace(res *Result) (*Result, error) {
	dir := filepath.Dir(w.path)
	// 0. Early freshness check (the decisive one is under the locks).
	if err := w.checkFresh(); err != nil {
		w.removeTemp()
		return nil, err
	}
	// 1. Backup first, outside the lock (a copy can be slow): a link is the
	// same inode, and the freshness check below proves the content is
	// still what the caller read.
	if !w.opts.NoBackup {
		name, copied, err := w.makeBackup()
		if err != nil {
			w.removeTemp()
			if ferr := w.checkFresh(); ferr != nil {
				return nil, ferr
			}
			return nil, err
		}
		res.Backup, res.BackupCopied = name, copied
		w.opts.checkpoint("backup-made")
	}
	fail := func(err error) (*Result, error) {
		w.removeTemp()
		if res.Backup != "" {
			os.Remove(res.Backup)
		}
		return nil, err
	}
	// 2. The agents' locks, held only for check + rename.
	guard, err := agentlock.Acquire(w.path, agentlock.Options{OpenClaw: w.opts.OpenClawLock, Wait: w.opts.wait()})
	if err != nil {
		return fail(err)
	}
	res.Reclaimed = guard.Reclaimed
	// 3. Freshness.
	if err := w.checkFresh(); err != nil {
		guard.Release()
		return fail(err)
	}
	if beforeRename != nil {
		beforeRename()
	}
	// 4. Publish.
	if err := fsx.Replace(w.tmpN, w.path); err != nil {
		guard.Release()
		return fail(err)
	}
	relErr := guard.Release()
	// 5. Make the rename (and the backup link) durable.
	if err := syncDir(dir); err != nil {
		return res, fmt.Errorf("%s was replaced but syncing its directory failed: %w", w.path, err)
	}
	if relErr != nil {
		res.Warnings = append(res.Warnings, "releasing the agent lock: "+relErr.Error())
	}
	w.opts.checkpoint("published")
	return res, nil
}

// checkFresh compares the target with the snapshot.
func (w *Writer) checkFresh() error {
	stat := statReal
	if w.opts.NoFollow {
		stat = lstatRegular
	}
	cur, err := stat(w.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &ChangedError{Path: w.path, Before: w.snap, Gone: true}
		}
		return err
	}
	if !cur.Same(w.snap) {
		return &ChangedError{Path: w.path, Before: w.snap, After: cur}
	}
	return nil
}

func (w *Writer) commitCreate(res *Result) (*Result, error) {
	// link(2) fails if the name exists; where hard links are not
	// supported, fsx.RenameNoReplace gives the same guarantee or fails.
	err := linkFile(w.tmpN, w.path)
	if err == nil {
		w.removeTemp()
	} else if !errors.Is(err, fs.ErrExist) {
		if rerr := fsx.RenameNoReplace(w.tmpN, w.path); rerr == nil {
			err = nil
		} else if errors.Is(rerr, fs.ErrExist) {
			err = rerr
		}
	}
	if err != nil {
		w.removeTemp()
		if errors.Is(err, fs.ErrExist) {
			return nil, &fs.PathError{Op: "create", Path: w.path, Err: fs.ErrExist}
		}
		return nil, err
	}
	if err := syncDir(filepath.Dir(w.path)); err != nil {
		return res, fmt.Errorf("%s was created but syncing its directory failed: %w", w.path, err)
	}
	w.opts.checkpoint("published")
	return res, nil
}

// Leftovers lists sessctl temp files left beside target by interrupted
// writes (".<name>.sessctl-*.tmp").
func Leftovers(target string) ([]string, error) {
	prefix := TempPrefix(target)
	entries, err := os.ReadDir(filepath.Dir(target))
	if err != nil {
		return nil, err
	}
	var out []string
	base := filepath.Base(prefix)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), base) && strings.HasSuffix(e.Name(), ".tmp") {
			out = append(out, filepath.Join(filepath.Dir(target), e.Name()))
		}
	}
	return out, nil
}

// RemoveLeftovers deletes Leftovers whose mtime is older than olderThan
// (a live writer keeps touching its temp file) and returns what it removed.
func RemoveLeftovers(target string, olderThan time.Duration) ([]string, error) {
	list, err := Leftovers(target)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, p := range list {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) < olderThan {
			continue
		}
		if err := os.Remove(p); err == nil {
			removed = append(removed, p)
		}
	}
	return removed, nil
}
