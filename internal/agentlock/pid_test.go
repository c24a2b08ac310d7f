package agentlock

import (
	"os"
	"testing"
)

func TestPIDAlive(t *testing.T) {
	if !PIDAlive(os.Getpid()) {
		t.Error("our own pid is not alive")
	}
	if PIDAlive(0) || PIDAlive(-1) {
		t.Error("pid 0 or -1 counted as alive")
	}
	h := startHelper(t, "sleep")
	pid := h.Process.Pid
	if !PIDAlive(pid) {
		t.Fatalf("running child %d is not alive", pid)
	}
	if err := h.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	h.Wait()
	if PIDAlive(pid) {
		t.Errorf("exited child %d is still alive", pid)
	}
}
