//go:build linux || windows

package agentlock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// omp's gate held by another process (Linux: the abstract socket; Windows:
// the named mutex Global\<GateName>) refuses Inspect and Acquire, and
// neither probing nor the refused Acquire leaves a file behind.
func TestOMPGateHeldByOtherProcess(t *testing.T) {
	f := sessionFile(t)
	abs, _ := filepath.Abs(f)
	gatePath := OMPLockPath(abs) + ".os"
	startHelper(t, "gate:"+GateName(gatePath))
	locks, err := Inspect(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(locks) != 1 || locks[0].Kind != OMPGate || !locks[0].Live {
		t.Fatalf("Inspect = %+v", locks)
	}
	if _, err := os.Stat(gatePath); !os.IsNotExist(err) {
		t.Errorf("probing the gate must not create the sidecar")
	}
	g, err := Acquire(f, Options{Wait: 30 * time.Millisecond})
	if !errors.Is(err, ErrHeld) {
		g.Release()
		t.Fatalf("Acquire with held gate: %v", err)
	}
	var he *HeldError
	if !errors.As(err, &he) || he.Locks[0].Kind != OMPGate {
		t.Fatalf("error = %v", err)
	}
	if _, err := os.Stat(OMPLockPath(f)); !os.IsNotExist(err) {
		t.Errorf("a refused Acquire left a lock file behind")
	}
}
