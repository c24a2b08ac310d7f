// Package agentlock detects, and takes, the locks that coding agents put
// beside their session files, so that sessctl never rewrites a file an agent
// is writing.
//
// Three lock families are known (sources: ../shared/reference/pi-format.md §5,
// opencode-openclaw.md B.1, and the published @oh-my-pi/pi-coding-agent
// 18.3.4 src/session/session-storage.ts plus the pi-natives FileLock crate):
//
//   - oh-my-pi (omp ≥ 18.3) publish lock, held only for the microseconds of a
//     check-and-rename or of one append. Two layers:
//     1. an OS "gate" named after the sidecar path "<dir>/.<name>.lock.os".
//     On Linux omp does not touch that file: the gate is an abstract
//     Unix-domain datagram socket named "omp-file-lock-" followed by two
//     seeded XXH64 digests (16 hex digits each) of the sidecar path string.
//     On other Unix systems it is flock(2) on the sidecar file itself. On
//     Windows it is the named kernel mutex "Global\" + that same name,
//     created without ownership: it is held while it exists (pi-natives
//     file_lock/windows.rs); no file is involved.
//     The kernel frees the gate when the holder dies, even by SIGKILL.
//     2. a lock file "<dir>/.<name>.lock", created O_EXCL with mode 0600,
//     content "<pid>:<ms since epoch>\n". It is stale when that pid is
//     dead (kill(pid,0) → ESRCH; EPERM means alive; on Windows OpenProcess
//     and a zero wait, see PIDAlive), or, when the content
//     is malformed, when its mtime is older than 500 ms.
//     omp waits at most 500 ms for either layer and then fails closed.
//   - OpenClaw session write lock "<realpath(dir)>/<name>.lock", created
//     O_EXCL, content JSON {"pid", "createdAt" (ISO 8601), "starttime"?}
//     (starttime = field 22 of /proc/<pid>/stat). OpenClaw holds it for a
//     whole agent run and calls it stale when the pid is missing, dead or
//     recycled (start time differs), createdAt is invalid, or it is older
//     than 30 minutes.
//   - oh-my-pi's locks through pi-utils' FileLock (src/file-lock.ts: the
//     native FileLock on path.resolve(target) + ".lock"; the same gate as
//     above: abstract socket GateName(lock path) on Linux, flock(2) on the
//     lock path on other Unix systems, mutex "Global\" + GateName(lock
//     path) on Windows; no pid recorded anywhere):
//     1. OMPSessionFileLock on "<session path>.lock", held by omp 18.3.4
//     (session-storage.ts withSessionFileLockSync) around the first durable
//     append to a draft session and around deleting a draft-only one.
//     2. OMPLease, the session ownership lease of omp ≥ 18.5: taken at the
//     session's first write, kept until the omp process exits (or leaves
//     the session); a second omp finding it taken writes to a sibling file
//     with a new id. Keyed by the header's session id, not the path:
//     "<root>/run/session-owners/<id>.lock" with root "<home>/<PI_CONFIG_DIR
//     or .omp>" (an id not matching [A-Za-z0-9_-]{1,128} is hashed by omp
//     in a way not reproduced here: such a session counts as leased). This
//     is NOT from omp's published source (the npm registry reachable when it
//     was written ends at pi-coding-agent 18.3.4, pi-utils 18.2.9,
//     pi-natives 18.2.11, none with a lease): it rests on third-party reports
//     verified against omp 18.6.3 (a VS Code extension's
//     omp-session-lease.ts and its ADR), and GateName is checked against the
//     real pi-natives 18.2.11 addon (testdata/native_names.json). The probe
//     is therefore widened (leaseDirs): the root the session file sits under
//     (".../<root>/agent/sessions/<cwd>/<file>"), ~/.omp, ~/.xcsh, ~/$PI_CONFIG_DIR,
//     $XDG_STATE_HOME/omp, each also under profiles/$OMP_PROFILE; and the
//     file name's "<timestamp>_<id>" id besides the header's.
//
// sessctl fails closed: a lock counts as live (Lock.Live) whenever its pid is
// alive and not recycled, even if the agent itself would call it stale for
// its age; Lock.Reasons lists the agent's own stale reasons for reporting.
//
// Inspect never creates, changes or removes anything (probing the Linux gate
// binds and immediately closes a socket, which leaves no trace; a Linux
// lease is only looked up in /proc/net/unix, because an omp whose first
// write met even that instant's bind would move to a sibling file). Acquire
// waits (holding nothing) until no lease is held, then takes the omp
// protocol (gate, then lock file), then the FileLocks above where that
// leaves nothing on disk (Linux, Windows; elsewhere an existing lock file
// is flocked, none is created), and, if asked, the OpenClaw lock,
// reclaiming stale lock files the way the agents do; Guard.Release undoes
// it. A holder killed with SIGKILL leaves lock files naming a dead
// pid, which every participant (the agents and sessctl) treats as stale.
package agentlock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Kind names a lock protocol layer.
type Kind string

const (
	// OMPLockFile is oh-my-pi's ".<name>.lock" file ("<pid>:<ms>\n").
	OMPLockFile Kind = "omp-lockfile"
	// OMPGate is oh-my-pi's OS gate (abstract socket on Linux, flock on the
	// ".<name>.lock.os" sidecar elsewhere, and on Linux too when that
	// sidecar file exists).
	OMPGate Kind = "omp-gate"
	// OpenClawLockFile is OpenClaw's "<name>.lock" JSON lock file.
	OpenClawLockFile Kind = "openclaw-lockfile"
	// OMPSessionFileLock is pi-utils' FileLock on "<session path>.lock"
	// (an OS gate like OMPGate; omp 18.3.4 holds it briefly).
	OMPSessionFileLock Kind = "omp-session-filelock"
	// OMPLease is omp's (≥ 18.5) session ownership lease, an OS gate on
	// "<config root>/run/session-owners/<session id>.lock" held from the
	// session's first write until the omp process exits. Path is that lock
	// path, or the session id when omp's name for it cannot be derived.
	OMPLease Kind = "omp-lease"
)

// Timing constants taken from the agents' sources.
const (
	// OMPWait is how long omp waits for its publish lock before failing
	// closed; sessctl uses the same bound by default.
	OMPWait = 500 * time.Millisecond
	// OpenClawStaleAge is the age after which OpenClaw reclaims a lock.
	OpenClawStaleAge = 30 * time.Minute
	pollInterval     = 2 * time.Millisecond
)

// Lock describes one lock found beside a session file.
type Lock struct {
	Kind Kind `json:"kind"`
	// Path is the lock file or gate sidecar path. For the Linux abstract
	// gate it is the sidecar path whose digest names the socket.
	Path string `json:"path"`
	// Gate is the abstract socket name (without the leading NUL) for a
	// Linux omp gate, else empty.
	Gate string `json:"gate,omitempty"`
	// PID is the holder's pid when the lock records one (0 if unknown).
	PID int `json:"pid,omitempty"`
	// Created is the time recorded in the lock (omp ms, OpenClaw createdAt);
	// zero when absent or unparseable.
	Created time.Time `json:"created,omitzero"`
	// Live is sessctl's verdict: true means refuse to write.
	Live bool `json:"live"`
	// Reasons are the agent's own stale reasons ("dead-pid", "malformed",
	// "missing-pid", "recycled-pid", "invalid-createdAt", "too-old"), or
	// "held" for a gate someone holds.
	Reasons []string `json:"reasons,omitempty"`
}

// String renders a one-line human description.
func (l Lock) String() string {
	var b strings.Builder
	b.WriteString(string(l.Kind))
	b.WriteString(" ")
	b.WriteString(l.Path)
	if l.PID > 0 {
		fmt.Fprintf(&b, " pid %d", l.PID)
	}
	if !l.Created.IsZero() {
		b.WriteString(" since " + l.Created.UTC().Format(time.RFC3339))
	}
	if l.Live {
		b.WriteString(" (live)")
	} else {
		b.WriteString(" (stale)")
	}
	if len(l.Reasons) > 0 {
		b.WriteString(" [" + strings.Join(l.Reasons, ",") + "]")
	}
	return b.String()
}

// ErrHeld is matched (errors.Is) by a *HeldError.
var ErrHeld = errors.New("session file is locked by an agent")

// HeldError reports live locks on File.
type HeldError struct {
	File  string
	Locks []Lock
}

func (e *HeldError) Error() string {
	parts := make([]string, len(e.Locks))
	for i, l := range e.Locks {
		parts[i] = l.String()
	}
	return fmt.Sprintf("%s is locked by a running agent (%s); nothing was changed — retry when the agent is idle or has exited",
		e.File, strings.Join(parts, "; "))
}

// Is makes errors.Is(err, ErrHeld) true.
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// paths holds the candidate names of one session file.
type paths struct {
	file      string   // absolute path as given
	cands     []string // file's absolute and symlink-resolved paths
	ompLocks  []string // omp lock files (deduplicated)
	ompGates  []string // omp gate sidecar paths (strings matter: they are hashed)
	openClaw  string   // OpenClaw lock file
	gateNames []string // Linux abstract names, parallel to ompGates
}

// resolve computes lock locations for file. omp derives its lock names from
// the session path string it was given (usually absolute, unresolved);
// OpenClaw resolves the directory with realpath. We consider both the
// absolute path and the symlink-resolved path.
func resolve(file string) (paths, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return paths{}, err
	}
	p := paths{file: abs}
	cands := []string{abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
		cands = append(cands, real)
	}
	p.cands = cands
	seenLock := map[string]bool{}
	seenGate := map[string]bool{}
	for _, c := range cands {
		dir, base := filepath.Dir(c), filepath.Base(c)
		lock := filepath.Join(dir, "."+base+".lock")
		key := lock
		if rd, err := filepath.EvalSymlinks(dir); err == nil {
			key = filepath.Join(rd, "."+base+".lock")
		}
		if !seenLock[key] {
			seenLock[key] = true
			p.ompLocks = append(p.ompLocks, lock)
		}
		gate := lock + ".os"
		if !seenGate[gate] {
			seenGate[gate] = true
			p.ompGates = append(p.ompGates, gate)
			p.gateNames = append(p.gateNames, GateName(gate))
		}
	}
	dir := filepath.Dir(abs)
	if rd, err := filepath.EvalSymlinks(dir); err == nil {
		dir = rd
	}
	p.openClaw = filepath.Join(dir, filepath.Base(abs)+".lock")
	return p, nil
}

// GateName returns the Linux abstract-socket name omp's native FileLock
// binds for the gate sidecar path gatePath: "omp-file-lock-" + hex(XXH64
// seed 0x4f4d502d4c4f434b) + hex(XXH64 seed 0x50492d46494c454c).
func GateName(gatePath string) string {
	b := []byte(gatePath)
	return fmt.Sprintf("omp-file-lock-%016x%016x", xxh64(b, 0x4f4d502d4c4f434b), xxh64(b, 0x50492d46494c454c))
}

// OMPLockPath returns "<dir>/.<name>.lock" for file.
func OMPLockPath(file string) string {
	return filepath.Join(filepath.Dir(file), "."+filepath.Base(file)+".lock")
}

// OpenClawLockPath returns "<file>.lock".
func OpenClawLockPath(file string) string { return file + ".lock" }

// Inspect reports every lock present for file, live or stale. It changes
// nothing on disk.
func Inspect(file string) ([]Lock, error) { return InspectAt(file, time.Now()) }

// InspectAt is Inspect with an explicit clock (for ages).
func InspectAt(file string, now time.Time) ([]Lock, error) {
	p, err := resolve(file)
	if err != nil {
		return nil, err
	}
	var out []Lock
	for _, lp := range p.ompLocks {
		l, ok, err := inspectOMPLock(lp, now)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, l)
		}
	}
	for i, gp := range p.ompGates {
		held, err := probeGate(gp, p.gateNames[i])
		if err != nil {
			return nil, err
		}
		if held {
			out = append(out, Lock{Kind: OMPGate, Path: gp, Gate: gateLabel(p.gateNames[i]), Live: true, Reasons: []string{"held"}})
		}
	}
	l, ok, err := inspectOpenClaw(p.openClaw, now)
	if err != nil {
		return nil, err
	}
	if ok {
		out = append(out, l)
	}
	leases, err := inspectLeases(p)
	if err != nil {
		return nil, err
	}
	return append(out, leases...), nil
}

// Live returns the live locks of locks.
func Live(locks []Lock) []Lock {
	var out []Lock
	for _, l := range locks {
		if l.Live {
			out = append(out, l)
		}
	}
	return out
}

// CheckFree inspects file until no live lock remains or wait has passed. It
// returns the (stale) locks seen on success and a *HeldError otherwise.
func CheckFree(file string, wait time.Duration) ([]Lock, error) {
	deadline := time.Now().Add(wait)
	for {
		locks, err := Inspect(file)
		if err != nil {
			return nil, err
		}
		live := Live(locks)
		if len(live) == 0 {
			return locks, nil
		}
		if !time.Now().Before(deadline) {
			abs, _ := filepath.Abs(file)
			return locks, &HeldError{File: abs, Locks: live}
		}
		time.Sleep(pollInterval)
	}
}

var ompRecord = regexp.MustCompile(`^(\d+):(\d+)\s*$`)

func parseOMPRecord(content []byte) (pid int, ms int64, ok bool) {
	m := ompRecord.FindSubmatch(content)
	if m == nil {
		return 0, 0, false
	}
	p, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil || p <= 0 || p > 1<<53-1 || p > int64(^uint32(0)>>1) {
		return 0, 0, false
	}
	t, _ := strconv.ParseInt(string(m[2]), 10, 64)
	return int(p), t, true
}

func inspectOMPLock(path string, now time.Time) (Lock, bool, error) {
	content, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Lock{}, false, nil
		}
		return Lock{}, false, err
	}
	l := Lock{Kind: OMPLockFile, Path: path}
	if pid, ms, ok := parseOMPRecord(content); ok {
		l.PID = pid
		if ms > 0 {
			l.Created = time.UnixMilli(ms)
		}
		l.Live = PIDAlive(pid)
		if !l.Live {
			l.Reasons = []string{"dead-pid"}
		}
		return l, true, nil
	}
	// Malformed or empty: a live acquirer may be between create and write;
	// only older than omp's whole wait budget is a crash orphan.
	l.Reasons = []string{"malformed"}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Lock{}, false, nil
		}
		return Lock{}, false, err
	}
	l.Live = now.Sub(st.ModTime()) <= OMPWait
	return l, true, nil
}

type openClawPayload struct {
	pid       int
	createdAt string
	hasCA     bool
	starttime uint64
	hasST     bool
}

func parseOpenClaw(content []byte) (openClawPayload, bool) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(content, &raw); err != nil || raw == nil {
		return openClawPayload{}, false
	}
	var p openClawPayload
	if v, ok := raw["pid"]; ok {
		if n, ok := jsonNonNegInt(v); ok && n > 0 && n <= int64(^uint32(0)>>1) {
			p.pid = int(n)
		}
	}
	if v, ok := raw["createdAt"]; ok {
		var s string
		if json.Unmarshal(v, &s) == nil {
			p.createdAt, p.hasCA = s, true
		}
	}
	if v, ok := raw["starttime"]; ok {
		if n, ok := jsonNonNegInt(v); ok {
			p.starttime, p.hasST = uint64(n), true
		}
	}
	return p, true
}

// jsonNonNegInt accepts a JSON number that is a non-negative integer
// (Number.isInteger semantics: 5.0 counts).
func jsonNonNegInt(v json.RawMessage) (int64, bool) {
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64)
	if err != nil || f < 0 || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// parseISO parses what JavaScript's Date.parse accepts from
// Date.toISOString and common RFC 3339 variants.
func parseISO(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.000Z07:00", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05.000", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func inspectOpenClaw(path string, now time.Time) (Lock, bool, error) {
	content, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Lock{}, false, nil
		}
		return Lock{}, false, err
	}
	return judgeOpenClaw(path, content, now)
}

func judgeOpenClaw(path string, content []byte, now time.Time) (Lock, bool, error) {
	l := Lock{Kind: OpenClawLockFile, Path: path}
	p, ok := parseOpenClaw(content)
	alive, recycled := false, false
	if p.pid > 0 {
		l.PID = p.pid
		alive = PIDAlive(p.pid)
		if alive && p.hasST {
			if st, ok := ProcessStartTime(p.pid); ok && st != p.starttime {
				recycled = true
			}
		}
	}
	switch {
	case p.pid == 0:
		l.Reasons = append(l.Reasons, "missing-pid")
	case !alive:
		l.Reasons = append(l.Reasons, "dead-pid")
	case recycled:
		l.Reasons = append(l.Reasons, "recycled-pid")
	}
	var created time.Time
	validCA := false
	if p.hasCA {
		created, validCA = parseISO(p.createdAt)
	}
	if validCA {
		l.Created = created
		if now.Sub(created) > OpenClawStaleAge {
			l.Reasons = append(l.Reasons, "too-old")
		}
	} else {
		l.Reasons = append(l.Reasons, "invalid-createdAt")
	}
	switch {
	case p.pid > 0:
		l.Live = alive && !recycled
	default:
		// No usable pid (unparseable or being written): OpenClaw falls back
		// to the file's mtime; so do we.
		st, err := os.Stat(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return Lock{}, false, nil
			}
			return Lock{}, false, err
		}
		l.Live = now.Sub(st.ModTime()) <= OpenClawStaleAge
		if !ok {
			l.Reasons = append([]string{"malformed"}, l.Reasons...)
		}
	}
	return l, true, nil
}

func gateLabel(name string) string { return name }
