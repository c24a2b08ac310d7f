//go:build !linux

package agentlock

// newLeaseProber returns probeGate, which asks the OS gate omp's native
// FileLock uses off Linux: flock(2) on the lock path itself on other Unix
// systems, the named mutex "Global\" + GateName(lockPath) (opened, never
// created) plus the lock file's byte lock on Windows. A missing lock file is
// a free lock and is never created.
func newLeaseProber() func(string) (bool, error) {
	return func(lockPath string) (bool, error) { return probeGate(lockPath, GateName(lockPath)) }
}
