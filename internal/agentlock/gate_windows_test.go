package agentlock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// omp on Windows holds its gate as the named mutex Global\<GateName>:
// a mutex held by another process refuses Inspect and Acquire, and no
// sidecar file is created by probing.
func TestOMPGateMutexHeldByOtherProcess(t *testing.T) {
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
}

// In one process: a taken gate is seen as held, and free again after
// release (the mutex disappears with its last handle).
func TestGateMutexTakeRelease(t *testing.T) {
	name := GateName(filepath.Join(t.TempDir(), ".x.jsonl.lock.os"))
	g, held, err := tryGate(filepath.Join(t.TempDir(), "none"), name)
	if err != nil || held {
		t.Fatalf("tryGate: held=%v err=%v", held, err)
	}
	if held, err := probeGate("", name); err != nil || !held {
		t.Fatalf("probe while taken: held=%v err=%v", held, err)
	}
	if _, held, err := tryGate("", name); err != nil || !held {
		t.Fatalf("second tryGate: held=%v err=%v", held, err)
	}
	g.release()
	if held, err := probeGate("", name); err != nil || held {
		t.Fatalf("probe after release: held=%v err=%v", held, err)
	}
}
