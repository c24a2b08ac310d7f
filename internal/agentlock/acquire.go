package agentlock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"time"
)

// Options controls Acquire.
type Options struct {
	// OpenClaw also takes OpenClaw's "<file>.lock" (use it for OpenClaw
	// transcripts). The omp protocol is always taken: it is invisible on
	// Linux (abstract socket) and its lock file lives only for the hold.
	OpenClaw bool
	// Wait bounds the wait for each layer; 0 means OMPWait (500 ms, like
	// omp). Negative means a single try.
	Wait time.Duration
	// Now is the clock (tests); nil means time.Now.
	Now func() time.Time
}

// Guard is a set of held locks; Release frees them.
type Guard struct {
	file      string
	gates     []*gate
	ompLocks  []heldFile
	openClaw  *heldFile
	Reclaimed []Lock // stale lock files removed while acquiring
}

type heldFile struct {
	path    string
	content []byte
}

// Acquire takes, for file, the omp publish lock (every OS gate name, then
// every lock file) and, with opts.OpenClaw, the OpenClaw lock. Stale lock
// files are reclaimed the way their agent does. If any layer stays held by
// a live process for opts.Wait, everything taken so far is released and a
// *HeldError is returned. Hold the guard only for a short critical section:
// omp appenders wait at most 500 ms for the gate and then fail.
func Acquire(file string, opts Options) (*Guard, error) {
	p, err := resolve(file)
	if err != nil {
		return nil, err
	}
	wait := opts.Wait
	if wait == 0 {
		wait = OMPWait
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	// omp's ownership lease and pi-utils' session file lock: a live omp
	// keeps its lease until it exits, so wait for them holding nothing
	// (probing only), then take them last, after the publish lock.
	// The targets are found once; an id omp would hash (held) can never
	// be probed, so it fails at once rather than after the wait.
	ts, held, err := leaseTargets(p)
	if err != nil {
		return nil, err
	}
	if len(held) > 0 {
		return nil, &HeldError{File: p.file, Locks: held}
	}
	deadline := time.Now().Add(wait)
	for {
		live, err := probeLeases(ts, nil)
		if err != nil {
			return nil, err
		}
		if len(live) == 0 {
			break
		}
		if !time.Now().Before(deadline) {
			return nil, &HeldError{File: p.file, Locks: live}
		}
		time.Sleep(pollInterval)
	}
	g := &Guard{file: p.file}
	ok := false
	defer func() {
		if !ok {
			g.Release()
		}
	}()
	for i, sidecar := range p.ompGates {
		deadline := time.Now().Add(wait)
		for {
			h, held, err := tryGate(sidecar, p.gateNames[i])
			if err != nil {
				return nil, fmt.Errorf("omp lock gate %s: %w", sidecar, err)
			}
			if !held {
				g.gates = append(g.gates, h)
				break
			}
			if !time.Now().Before(deadline) {
				return nil, &HeldError{File: p.file, Locks: []Lock{{Kind: OMPGate, Path: sidecar, Gate: p.gateNames[i], Live: true, Reasons: []string{"held"}}}}
			}
			time.Sleep(pollInterval)
		}
	}
	for _, lp := range p.ompLocks {
		h, err := g.claimOMP(lp, wait, now)
		if err != nil {
			return nil, err
		}
		g.ompLocks = append(g.ompLocks, h)
	}
	if opts.OpenClaw {
		h, err := g.claimOpenClaw(p.openClaw, wait, now)
		if err != nil {
			return nil, err
		}
		g.openClaw = &h
	} else {
		// Not taking it, but never write under a live OpenClaw lock.
		l, found, err := inspectOpenClaw(p.openClaw, now())
		if err != nil {
			return nil, err
		}
		if found && l.Live {
			return nil, &HeldError{File: p.file, Locks: []Lock{l}}
		}
	}
	// Then held for the critical section (no waiting here: omp appenders
	// give up on the publish lock after 500 ms).
	if err := g.takeLeases(p, ts); err != nil {
		return nil, err
	}
	ok = true
	return g, nil
}

// createExcl creates path with O_EXCL and writes content, then verifies the
// content survived (a concurrent stale-lock reclaim may remove the file
// between create and write). It returns false when the name is taken.
func createExcl(path string, content []byte, perm os.FileMode) (bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_CLOEXEC, perm)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, err
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		os.Remove(path)
		return false, err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return false, err
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, content) {
		return false, nil
	}
	return true, nil
}

// removeIfSame unlinks path only if it still holds content.
func removeIfSame(path string, content []byte) (bool, error) {
	got, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return true, nil
		}
		return false, err
	}
	if !bytes.Equal(got, content) {
		return false, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return true, nil
}

func (g *Guard) claimOMP(path string, wait time.Duration, now func() time.Time) (heldFile, error) {
	record := []byte(strconv.Itoa(os.Getpid()) + ":" + strconv.FormatInt(now().UnixMilli(), 10) + "\n")
	deadline := time.Now().Add(wait)
	for {
		got, err := createExcl(path, record, 0o600)
		if err != nil {
			return heldFile{}, fmt.Errorf("omp lock file %s: %w", path, err)
		}
		if got {
			return heldFile{path: path, content: record}, nil
		}
		content, err := os.ReadFile(path)
		if err == nil {
			l, found, ierr := inspectOMPLock(path, now())
			if ierr != nil {
				return heldFile{}, ierr
			}
			if found && !l.Live {
				if removed, rerr := removeIfSame(path, content); rerr == nil && removed {
					g.Reclaimed = append(g.Reclaimed, l)
					continue
				}
			}
			if !time.Now().Before(deadline) {
				if !found {
					continue
				}
				return heldFile{}, &HeldError{File: g.file, Locks: []Lock{l}}
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return heldFile{}, err
		}
		time.Sleep(pollInterval)
	}
}

type openClawRecord struct {
	PID       int    `json:"pid"`
	CreatedAt string `json:"createdAt"`
	Starttime uint64 `json:"starttime,omitempty"`
}

func (g *Guard) claimOpenClaw(path string, wait time.Duration, now func() time.Time) (heldFile, error) {
	rec := openClawRecord{PID: os.Getpid(), CreatedAt: now().UTC().Format("2006-01-02T15:04:05.000Z")}
	if st, ok := ProcessStartTime(os.Getpid()); ok {
		rec.Starttime = st
	}
	// OpenClaw writes JSON.stringify(payload, null, 2).
	content, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return heldFile{}, err
	}
	deadline := time.Now().Add(wait)
	for {
		got, err := createExcl(path, content, 0o644)
		if err != nil {
			return heldFile{}, fmt.Errorf("OpenClaw lock file %s: %w", path, err)
		}
		if got {
			return heldFile{path: path, content: content}, nil
		}
		existing, err := os.ReadFile(path)
		if err == nil {
			l, found, ierr := judgeOpenClaw(path, existing, now())
			if ierr != nil {
				return heldFile{}, ierr
			}
			if found && !l.Live {
				if removed, rerr := removeIfSame(path, existing); rerr == nil && removed {
					g.Reclaimed = append(g.Reclaimed, l)
					continue
				}
			}
			if found && l.Live {
				// OpenClaw holds its lock for a whole run: do not wait.
				return heldFile{}, &HeldError{File: g.file, Locks: []Lock{l}}
			}
			if !time.Now().Before(deadline) {
				return heldFile{}, &HeldError{File: g.file, Locks: []Lock{l}}
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return heldFile{}, err
		}
		time.Sleep(pollInterval)
	}
}

// Release frees every lock in reverse order of acquisition: lock files are
// removed only if they still hold our record; gates are closed last. It is
// safe to call more than once.
func (g *Guard) Release() error {
	if g == nil {
		return nil
	}
	var first error
	if g.openClaw != nil {
		if _, err := removeIfSame(g.openClaw.path, g.openClaw.content); err != nil && first == nil {
			first = err
		}
		g.openClaw = nil
	}
	for i := len(g.ompLocks) - 1; i >= 0; i-- {
		h := g.ompLocks[i]
		if _, err := removeIfSame(h.path, h.content); err != nil && first == nil {
			first = err
		}
	}
	g.ompLocks = nil
	for i := len(g.gates) - 1; i >= 0; i-- {
		g.gates[i].release()
	}
	g.gates = nil
	return first
}

// Paths returns the lock file paths Acquire uses for file: the omp lock
// files, the omp gate sidecars and the OpenClaw lock file. Callers (e.g. a
// directory scanner) can use it to tell lock files from other files.
func Paths(file string) (ompLocks, ompGates []string, openClaw string, err error) {
	p, err := resolve(file)
	if err != nil {
		return nil, nil, "", err
	}
	return p.ompLocks, p.ompGates, p.openClaw, nil
}
