package agentlock

import (
	"bufio"
	"bytes"
	"os"
)

// probeLease reports whether omp's native FileLock for lockPath is held.
// On Linux that is the abstract socket GateName(lockPath). A lease is
// looked up in /proc/net/unix rather than probed with a bind: an omp whose
// first write met our socket for that instant would take the session as
// owned by another process and move its writes to a sibling file. Only when
// /proc/net/unix cannot be read does it fall back to the bind probe
// (probeGate, which also flocks a lockPath file if one exists).
func probeLease(lockPath string) (bool, error) {
	bound, ok := abstractBound(GateName(lockPath))
	if !ok {
		return probeGate(lockPath, GateName(lockPath))
	}
	if bound {
		return true, nil
	}
	// A non-Linux omp sharing the folder would flock the file itself.
	f, held, err := flockSidecar(lockPath, false)
	if err != nil || held {
		return held, err
	}
	unflock(f)
	return false, nil
}

// abstractBound reports whether the abstract Unix socket "@name" is bound
// in this network namespace (the namespace abstract names live in), from
// /proc/net/unix; ok is false when that file cannot be read.
func abstractBound(name string) (bound, ok bool) {
	f, err := os.Open("/proc/net/unix")
	if err != nil {
		return false, false
	}
	defer f.Close()
	want := []byte("@" + name)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		fields := bytes.Fields(sc.Bytes())
		if len(fields) >= 8 && bytes.Equal(fields[len(fields)-1], want) {
			return true, true
		}
	}
	return false, sc.Err() == nil
}

// takeLease holds omp's native FileLock for lockPath the way omp does on
// Linux (the abstract socket; nothing on disk), plus an flock on a lockPath
// file if one exists. held=true means someone else holds it.
func takeLease(lockPath string) (*gate, bool, error) {
	return tryGate(lockPath, GateName(lockPath))
}
