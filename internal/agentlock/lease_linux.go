package agentlock

import (
	"bufio"
	"bytes"
	"os"
)

// newLeaseProber returns a function reporting whether omp's native
// FileLock for a lock path is held. On Linux that is the abstract socket
// GateName(lockPath). Leases are looked up in one reading of
// /proc/net/unix rather than probed with a bind: an omp whose first write
// met our socket for that instant would take the session as owned by
// another process and move its writes to a sibling file. Only when
// /proc/net/unix cannot be read does it fall back to the bind probe
// (probeGate). A lockPath file, if one exists (a non-Linux omp sharing the
// folder), is flocked and released as well.
func newLeaseProber() func(string) (bool, error) {
	bound, ok := abstractNames()
	return func(lockPath string) (bool, error) {
		if !ok {
			return probeGate(lockPath, GateName(lockPath))
		}
		if bound[GateName(lockPath)] {
			return true, nil
		}
		f, held, err := flockSidecar(lockPath, false)
		if err != nil || held {
			return held, err
		}
		unflock(f)
		return false, nil
	}
}

// abstractNames returns the bound abstract Unix socket names starting with
// "omp-file-lock-" (without the leading NUL) in this network namespace (the
// namespace abstract names live in), from /proc/net/unix; ok is false when
// that file cannot be read.
func abstractNames() (map[string]bool, bool) {
	f, err := os.Open("/proc/net/unix")
	if err != nil {
		return nil, false
	}
	defer f.Close()
	prefix := []byte("@omp-file-lock-")
	names := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		fields := bytes.Fields(sc.Bytes())
		if len(fields) >= 8 && bytes.HasPrefix(fields[len(fields)-1], prefix) {
			names[string(fields[len(fields)-1][1:])] = true
		}
	}
	if sc.Err() != nil {
		return nil, false
	}
	return names, true
}

// takeLease holds omp's native FileLock for lockPath the way omp does on
// Linux (the abstract socket; nothing on disk), plus an flock on a lockPath
// file if one exists. held=true means someone else holds it.
func takeLease(lockPath string) (*gate, bool, error) {
	return tryGate(lockPath, GateName(lockPath))
}
