package agentlock

import (
	"path/filepath"
	"testing"
)

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
