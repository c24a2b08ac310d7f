package agentlock

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sessctl/sessctl/internal/fsx"
)

// The two omp locks that are keyed by something other than the session
// file's ".<name>.lock" sidecar. Both go through pi-utils' FileLock
// (src/file-lock.ts): the lock name is path.resolve(target) + ".lock", held
// with the native FileLock, i.e. the same OS gate as the publish lock (an
// abstract socket named GateName(lock path) on Linux, flock(2) on the lock
// path itself on other Unix systems, the named mutex "Global\" +
// GateName(lock path) on Windows). Nothing records a pid: the kernel object
// is the lock and disappears with its holder.
//
//   - OMPSessionFileLock: "<abs session path>.lock", taken by omp 18.3.4
//     (session-storage.ts withSessionFileLockSync) around the first durable
//     append to a draft session and around the deletion of a draft-only
//     session (retries 50 × 100 ms, so at most about 5 s).
//   - OMPLease: the session ownership lease of omp ≥ 18.5, see leaseDirs.

// leasePlainID is the session id shape omp uses verbatim as the lease's
// file name; any other id is hashed by omp with a hash not reproduced here.
var leasePlainID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// leaseDirs returns every directory an omp (or xcsh) process might keep the
// ownership lease of file's session under. omp ≥ 18.5 names the lease
// "<home>/<PI_CONFIG_DIR or .omp>/run/session-owners/<id>" (lock path
// "<…>/<id>.lock"). That layout is known from third-party reports verified
// against omp 18.6.3, not from omp's published source (the npm registry
// reachable when this was written ends at 18.3.4), so the set is widened
// on purpose: a directory probed needlessly costs one bind or one open,
// a directory missed is a write under a live writer.
//
//   - the config root the file lives under: ".../<root>/agent/sessions/<cwd>/<file>"
//     gives "<root>/run/session-owners" (covers profiles, xcsh's ~/.xcsh, a
//     PI_CONFIG_DIR that only omp's environment sets);
//   - $HOME/<PI_CONFIG_DIR or .omp>, $HOME/.omp and $HOME/.xcsh, each also with
//     "profiles/<OMP_PROFILE or PI_PROFILE>";
//   - $XDG_STATE_HOME/omp (and its profile), where omp's other run/ state
//     directories go on Linux and macOS after `omp config init-xdg`.
func leaseDirs(file string) []string {
	var roots []string
	// <root>/agent/sessions/<cwd>/<file>
	sessions := filepath.Dir(filepath.Dir(file))
	if filepath.Base(sessions) == "sessions" && filepath.Base(filepath.Dir(sessions)) == "agent" {
		roots = append(roots, filepath.Dir(filepath.Dir(sessions)))
	}
	var profiles []string
	for _, k := range []string{"OMP_PROFILE", "PI_PROFILE"} {
		if p := strings.TrimSpace(os.Getenv(k)); p != "" && p != "default" && !strings.ContainsAny(p, `/\`) && p != "." && p != ".." {
			profiles = append(profiles, p)
		}
	}
	var bases []string
	if home := fsx.Home(os.Getenv); home != "" {
		if c := os.Getenv("PI_CONFIG_DIR"); c != "" {
			bases = append(bases, filepath.Join(home, c))
		}
		bases = append(bases, filepath.Join(home, ".omp"), filepath.Join(home, ".xcsh"))
	}
	if x := os.Getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		bases = append(bases, filepath.Join(x, "omp"))
	}
	for _, b := range bases {
		roots = append(roots, b)
		for _, p := range profiles {
			roots = append(roots, filepath.Join(b, "profiles", p))
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range roots {
		d := filepath.Join(r, "run", "session-owners")
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// sessionIDs returns the ids omp could key file's lease with: the header's
// "id" (after omp ≥ 16.3's title slot line, if any) and, when it is a plain
// token, the id in the file name "<timestamp>_<id>.jsonl", deduplicated. A file whose start is not a
// pi-family session header gives only the name's id, if any. Read errors
// are returned (the caller fails closed).
func sessionIDs(file string) ([]string, error) {
	var ids []string
	id, ok, err := headerID(file)
	if err != nil {
		return nil, err
	}
	if ok {
		ids = append(ids, id)
	}
	base := filepath.Base(file)
	if strings.HasSuffix(base, ".jsonl") {
		if i := strings.LastIndexByte(base, '_'); i >= 0 {
			// Only a plain name counts: another file's "_" is no omp id.
			if n := strings.TrimSuffix(base[i+1:], ".jsonl"); leasePlainID.MatchString(n) && (len(ids) == 0 || ids[0] != n) {
				ids = append(ids, n)
			}
		}
	}
	return ids, nil
}

// headerID reads file's session header id without holding more than one
// JSON token at a time. ok is false when the file does not start with a
// pi-family header ({"type":"session","id":"…"}, optionally preceded by a
// {"type":"title",…} slot line). A missing file is not an error.
func headerID(file string) (string, bool, error) {
	f, err := os.Open(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", false, nil
		}
		return "", false, err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(&errReader{r: f}, 64<<10))
	for i := 0; i < 2; i++ {
		typ, id, hasID, err := topFields(dec)
		if err != nil {
			var re *readError
			if errors.As(err, &re) {
				return "", false, re.err
			}
			return "", false, nil // not JSON: no header
		}
		switch {
		case typ == "title" && i == 0:
			continue
		case typ == "session" && hasID:
			return id, true, nil
		}
		return "", false, nil
	}
	return "", false, nil
}

// readError marks an I/O error (as opposed to a syntax error) seen by the
// JSON decoder.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }

type errReader struct{ r io.Reader }

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		err = &readError{err: err}
	}
	return n, err
}

// topFields walks one top-level JSON object, returning its "type" and "id"
// string members (last occurrence wins, as with JSON.parse).
func topFields(dec *json.Decoder) (typ, id string, hasID bool, err error) {
	tok, err := dec.Token()
	if err != nil {
		return "", "", false, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return "", "", false, errors.New("not an object")
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return "", "", false, err
		}
		key, _ := kt.(string)
		vt, err := dec.Token()
		if err != nil {
			return "", "", false, err
		}
		if d, ok := vt.(json.Delim); ok {
			if err := skipNested(dec, d); err != nil {
				return "", "", false, err
			}
			if key == "id" {
				hasID = false
			}
			continue
		}
		s, isStr := vt.(string)
		switch key {
		case "type":
			typ = s
		case "id":
			id, hasID = s, isStr
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return "", "", false, err
	}
	return typ, id, hasID, nil
}

func skipNested(dec *json.Decoder, open json.Delim) error {
	depth := 1
	for depth > 0 {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
	}
	return nil
}

// leaseLockPaths returns the lock paths of every lease candidate of file,
// and the ids for which no lock path can be derived (not plain: omp hashes
// them).
func leaseLockPaths(file string) (paths []string, unknown []string, err error) {
	ids, err := sessionIDs(file)
	if err != nil {
		return nil, nil, err
	}
	if len(ids) == 0 {
		return nil, nil, nil
	}
	dirs := leaseDirs(file)
	for _, id := range ids {
		if !leasePlainID.MatchString(id) {
			unknown = append(unknown, id)
			continue
		}
		for _, d := range dirs {
			paths = append(paths, filepath.Join(d, id)+".lock")
		}
	}
	return paths, unknown, nil
}

// leaseTarget is one lock path of an omp FileLock that guards a session.
type leaseTarget struct {
	kind Kind
	path string
}

// leaseTargets lists the FileLock paths guarding p.file and the lease ids
// that cannot be probed (as live Locks).
func leaseTargets(p paths) ([]leaseTarget, []Lock, error) {
	var ts []leaseTarget
	seen := map[string]bool{}
	// pi-utils FileLock on "<session path>.lock" (omp 18.3.4).
	for _, c := range p.cands {
		if lp := c + ".lock"; !seen[lp] {
			seen[lp] = true
			ts = append(ts, leaseTarget{OMPSessionFileLock, lp})
		}
	}
	lps, unknown, err := leaseLockPaths(p.file)
	if err != nil {
		return nil, nil, err
	}
	var held []Lock
	for _, id := range unknown {
		// omp names this lease with a hash sessctl does not reproduce: it
		// cannot be probed, so it counts as held (fail closed).
		held = append(held, Lock{Kind: OMPLease, Path: id, Live: true, Reasons: []string{"unprobeable-id"}})
	}
	for _, lp := range lps {
		if !seen[lp] {
			seen[lp] = true
			ts = append(ts, leaseTarget{OMPLease, lp})
		}
	}
	return ts, held, nil
}

func heldLease(t leaseTarget) Lock {
	return Lock{Kind: t.kind, Path: t.path, Gate: gateLabel(GateName(t.path)), Live: true, Reasons: []string{"held"}}
}

// inspectLeases probes omp's ownership lease and pi-utils' session file
// lock for the session file p.file, never creating or keeping anything.
func inspectLeases(p paths) ([]Lock, error) {
	ts, held, err := leaseTargets(p)
	if err != nil {
		return nil, err
	}
	return probeLeases(ts, held)
}

// probeLeases appends to held a Lock for each target whose lease is held.
func probeLeases(ts []leaseTarget, held []Lock) ([]Lock, error) {
	probe := newLeaseProber()
	for _, t := range ts {
		busy, err := probe(t.path)
		if err != nil {
			return nil, err
		}
		if busy {
			held = append(held, heldLease(t))
		}
	}
	return held, nil
}

// takeLeases holds every lease target the way omp's FileLock does where that
// leaves nothing on disk (Linux, Windows), or flocks an existing lock file
// (other Unix), so that no omp can start owning the session between sessctl's
// checks and its rename (an omp trying then moves its writes to a sibling
// file, as it does for any other holder). Returns the held gates, or a
// *HeldError naming what someone else holds.
func (g *Guard) takeLeases(p paths, ts []leaseTarget) error {
	for _, t := range ts {
		h, busy, err := takeLease(t.path)
		if err != nil {
			return fmt.Errorf("omp lock %s: %w", t.path, err)
		}
		if busy {
			return &HeldError{File: p.file, Locks: []Lock{heldLease(t)}}
		}
		if h != nil {
			g.gates = append(g.gates, h)
		}
	}
	return nil
}
