package safewrite

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/sessctl/sessctl/internal/fsx"
)

// ErrSymlink is matched (errors.Is) by a *LinkError.
var ErrSymlink = errors.New("is a symbolic link")

// LinkError says a name sessctl derives (sidecar, backup, temp, a file it
// creates) is a symbolic link, which sessctl refuses to follow: someone who
// can write the folder could point it at a file they cannot write.
type LinkError struct {
	Path string
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("refusing to write %s: it is a symbolic link, and sessctl never follows a link at a name it "+
		"creates or derives (it could point anywhere); remove the link if it is not meant to be there", e.Path)
}

// Is makes errors.Is(err, ErrSymlink) true.
func (e *LinkError) Is(target error) bool { return target == ErrSymlink }

// resolveDir returns path with its directory resolved (directories may be
// links) and its last element as given.
func resolveDir(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(abs)), nil
}

// StatNoFollow snapshots a derived file without following a link at its
// name: a symbolic link is refused (*LinkError), and so is anything but a
// regular file with a single hard link. Its directory may be a link.
func StatNoFollow(path string) (Snapshot, error) {
	p, err := resolveDir(path)
	if err != nil {
		return Snapshot{}, err
	}
	return lstatRegular(p)
}

func lstatRegular(p string) (Snapshot, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return Snapshot{}, err
	}
	return derivedSnapshot(p, fi, nil)
}

// derivedSnapshot checks and snapshots a derived file; f, when not nil, is
// the file open (its identity is read from the handle).
func derivedSnapshot(p string, fi fs.FileInfo, f *os.File) (Snapshot, error) {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return Snapshot{}, &LinkError{Path: p}
	}
	if !fi.Mode().IsRegular() {
		return Snapshot{}, fmt.Errorf("refusing to write %s: it is not a regular file", p)
	}
	s := Snapshot{Path: p, Size: fi.Size(), ModTime: fi.ModTime(), Mode: fi.Mode()}
	var id fsx.ID
	var err error
	if f != nil {
		id, err = fsx.IDOfFile(f)
	} else {
		id, err = fsx.IDOf(p, fi, false)
	}
	if err != nil {
		return Snapshot{}, err
	}
	s.setID(id)
	if s.Nlink > 1 {
		return Snapshot{}, fmt.Errorf("refusing to write %s: it has %d hard links, so its content is also another "+
			"file's; sessctl does not rewrite a derived file shared with another name", p, s.Nlink)
	}
	return s, nil
}

// OpenNoFollow opens a derived file for reading without following a link
// at its name (O_NOFOLLOW; O_NONBLOCK so a FIFO cannot block) and returns
// it with its snapshot; the same refusals as StatNoFollow apply.
func OpenNoFollow(path string) (*os.File, Snapshot, error) {
	p, err := resolveDir(path)
	if err != nil {
		return nil, Snapshot{}, err
	}
	f, err := os.OpenFile(p, os.O_RDONLY|fsx.NoFollow|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		if fsx.IsNoFollowErr(err) {
			return nil, Snapshot{}, &LinkError{Path: p}
		}
		return nil, Snapshot{}, err
	}
	fi, err := f.Stat()
	if err == nil {
		var s Snapshot
		if s, err = derivedSnapshot(p, fi, f); err == nil {
			return f, s, nil
		}
	}
	f.Close()
	return nil, Snapshot{}, err
}

// setMeta gives f the permission bits and, when running as root, the owner
// and group of meta (UID < 0: keep the owner).
func setMeta(f *os.File, meta Snapshot) error {
	if err := f.Chmod(modeBits(meta.Mode)); err != nil {
		return err
	}
	if os.Geteuid() == 0 && meta.UID >= 0 {
		if err := f.Chown(meta.UID, meta.GID); err != nil {
			return err
		}
		// chown may clear setuid/setgid: set the mode again.
		if err := f.Chmod(modeBits(meta.Mode)); err != nil {
			return err
		}
	}
	return nil
}

// tempName is ".<name>.sessctl-<pid>-<hex>.tmp" beside target: the pid lets
// a later run tell a dead writer's leftover from a live writer's file.
func tempName(target string, rnd []byte) string {
	return TempPrefix(target) + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(rnd) + ".tmp"
}

// TempSnapshot is the identity (device, inode) of the temp file that
// Commit will publish: after a successful Commit the target has it. A
// caller that must record which content a commit published (a journal)
// takes it before Commit. It fails in DryRun (no temp file).
func (w *Writer) TempSnapshot() (Snapshot, error) {
	if w.tmp == nil {
		return Snapshot{}, errors.New("safewrite: no temp file")
	}
	fi, err := w.tmp.Stat()
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{Path: w.tmpN, Size: fi.Size(), ModTime: fi.ModTime(), Mode: fi.Mode()}
	id, err := fsx.IDOfFile(w.tmp)
	if err != nil {
		return Snapshot{}, err
	}
	s.setID(id)
	return s, nil
}

// SyncDir fsyncs a directory (after removing or renaming a file in it).
func SyncDir(dir string) error { return syncDir(dir) }

// TempFile creates an empty scratch file beside target under sessctl's
// temp naming (".<name>.sessctl-<pid>-<hex>.tmp", O_EXCL, not following a
// link, mode 0600). The caller removes it; if the process is killed first,
// StaleTemps reports it and the next write to the folder removes it.
func TempFile(target string) (*os.File, error) {
	for range 10 {
		var rb [8]byte
		if _, err := rand.Read(rb[:]); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(tempName(target, rb[:]), os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_CLOEXEC|fsx.NoFollow, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("could not create a unique temp file beside %s", target)
}

// setID copies a file identity into the snapshot.
func (s *Snapshot) setID(id fsx.ID) {
	s.UID, s.GID = id.UID, id.GID
	s.Dev, s.Ino, s.Nlink = id.Dev, id.Ino, id.Nlink
}
