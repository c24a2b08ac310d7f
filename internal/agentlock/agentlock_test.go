package agentlock

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a lock-holding helper process:
// AGENTLOCK_HELPER=gate:<name> holds omp's OS gate named name (the Linux
// abstract socket, the Windows named mutex), flock:<path> locks the file
// (flock on Unix, LockFileEx on Windows), sleep holds nothing; it prints
// "ready" and blocks until killed. holdForHelper is per OS.
func TestMain(m *testing.M) {
	if h := os.Getenv("AGENTLOCK_HELPER"); h != "" {
		kind, arg, _ := strings.Cut(h, ":")
		if err := holdForHelper(kind, arg); err != nil {
			fmt.Println("fail", err)
			os.Exit(1)
		}
		fmt.Println("ready")
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startHelper runs the helper and waits for "ready"; the process is killed
// and reaped at cleanup.
func startHelper(t *testing.T, spec string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "AGENTLOCK_HELPER="+spec)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		t.Fatalf("helper %s: %q %v", spec, line, err)
	}
	return cmd
}

// deadPID returns the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if PIDAlive(pid) {
		t.Skipf("pid %d was reused immediately", pid)
	}
	return pid
}

func sessionFile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	f := filepath.Join(dir, "2026-01-01T00-00-00-000Z_abc.jsonl")
	if err := os.WriteFile(f, []byte(`{"type":"session","id":"x"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestXXH64Vectors(t *testing.T) {
	// Expected values computed with github.com/cespare/xxhash/v2 v2.3.0
	// (an independent implementation) outside this repository.
	cases := []struct {
		in   string
		seed uint64
		want uint64
	}{
		{"", 0x0, 0xef46db3751d8e999},
		{"", 0x4f4d502d4c4f434b, 0xdd4458733774f8b0},
		{"a", 0x0, 0xd24ec4f1a98c6e5b},
		{"a", 0x50492d46494c454c, 0xa3b15dd2e2b5ebdb},
		{"abc", 0x0, 0x44bc2cf5ad770999},
		{"abc", 0x4f4d502d4c4f434b, 0xc0151025cd8a94a4},
		{"/home/u/.omp/agent/sessions/-proj/.2026_x.jsonl.lock.os", 0x4f4d502d4c4f434b, 0xfed2125ed4a50384},
		{"/home/u/.omp/agent/sessions/-proj/.2026_x.jsonl.lock.os", 0x50492d46494c454c, 0x42baf5e74b75cdbd},
		{"0123456789abcdef0123456789abcdef0123456789", 0x0, 0xa76190c3acf08a1c},
		{"0123456789abcdef0123456789abcdef0123456789", 0x50492d46494c454c, 0x1d7b85995e4019b7},
		{"héllo wörld 123456789012345678901234567890123", 0x4f4d502d4c4f434b, 0x7416789052b1a3af},
	}
	for _, c := range cases {
		if got := xxh64([]byte(c.in), c.seed); got != c.want {
			t.Errorf("xxh64(%q, %#x) = %#016x, want %#016x", c.in, c.seed, got, c.want)
		}
	}
	if got, want := GateName("/home/u/.omp/agent/sessions/-proj/.2026_x.jsonl.lock.os"), "omp-file-lock-fed2125ed4a5038442baf5e74b75cdbd"; got != want {
		t.Errorf("GateName = %s, want %s", got, want)
	}
}

func TestInspectNoLocks(t *testing.T) {
	f := sessionFile(t)
	locks, err := Inspect(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(locks) != 0 {
		t.Fatalf("unexpected locks: %v", locks)
	}
}

func TestOMPLockFileLiveRefuses(t *testing.T) {
	f := sessionFile(t)
	holder := startHelper(t, "sleep")
	lp := OMPLockPath(f)
	if err := os.WriteFile(lp, []byte(fmt.Sprintf("%d:%d\n", holder.Process.Pid, time.Now().UnixMilli())), 0o600); err != nil {
		t.Fatal(err)
	}
	locks, err := Inspect(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(locks) != 1 || locks[0].Kind != OMPLockFile || !locks[0].Live || locks[0].PID != holder.Process.Pid {
		t.Fatalf("Inspect = %+v", locks)
	}
	start := time.Now()
	g, err := Acquire(f, Options{Wait: 50 * time.Millisecond})
	if !errors.Is(err, ErrHeld) {
		g.Release()
		t.Fatalf("Acquire under live omp lock: err = %v", err)
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Errorf("Acquire did not wait the bounded time")
	}
	if b, _ := os.ReadFile(lp); !strings.HasPrefix(string(b), strconv.Itoa(holder.Process.Pid)+":") {
		t.Errorf("live lock file was modified: %q", b)
	}
}

func TestOMPLockFileStaleReclaimed(t *testing.T) {
	f := sessionFile(t)
	pid := deadPID(t)
	lp := OMPLockPath(f)
	stale := fmt.Sprintf("%d:%d\n", pid, time.Now().UnixMilli())
	if err := os.WriteFile(lp, []byte(stale), 0o600); err != nil {
		t.Fatal(err)
	}
	locks, _ := Inspect(f)
	if len(locks) != 1 || locks[0].Live || locks[0].Reasons[0] != "dead-pid" {
		t.Fatalf("Inspect = %+v", locks)
	}
	g, err := Acquire(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Reclaimed) != 1 || g.Reclaimed[0].PID != pid {
		t.Errorf("Reclaimed = %+v", g.Reclaimed)
	}
	b, err := os.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	want := strconv.Itoa(os.Getpid()) + ":"
	if !strings.HasPrefix(string(b), want) || !strings.HasSuffix(string(b), "\n") {
		t.Errorf("our lock record = %q", b)
	}
	if _, _, ok := parseOMPRecord(b); !ok {
		t.Errorf("our record does not parse as omp's: %q", b)
	}
	// Windows has no Unix permission bits (a file is only writable or
	// read-only there).
	st, _ := os.Stat(lp)
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("lock mode %v, want 0600", st.Mode().Perm())
	}
	// A second acquirer in this process must be refused (gate and file held).
	if g2, err := Acquire(f, Options{Wait: -1}); !errors.Is(err, ErrHeld) {
		g2.Release()
		t.Fatalf("second Acquire: %v", err)
	}
	if err := g.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lp); !os.IsNotExist(err) {
		t.Errorf("lock file not removed on release: %v", err)
	}
	// Released: acquirable again.
	g3, err := Acquire(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g3.Release()
}

func TestOMPMalformedLock(t *testing.T) {
	f := sessionFile(t)
	lp := OMPLockPath(f)
	os.WriteFile(lp, nil, 0o600)
	locks, _ := Inspect(f)
	if len(locks) != 1 || !locks[0].Live {
		t.Fatalf("fresh empty lock should count as live: %+v", locks)
	}
	old := time.Now().Add(-2 * time.Second)
	os.Chtimes(lp, old, old)
	locks, _ = Inspect(f)
	if len(locks) != 1 || locks[0].Live || locks[0].Reasons[0] != "malformed" {
		t.Fatalf("old empty lock should be stale: %+v", locks)
	}
	g, err := Acquire(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g.Release()
}

func TestOMPGateSidecarFlockHeld(t *testing.T) {
	f := sessionFile(t)
	sidecar := OMPLockPath(f) + ".os"
	startHelper(t, "flock:"+sidecar)
	locks, _ := Inspect(f)
	if len(locks) != 1 || locks[0].Kind != OMPGate || !locks[0].Live {
		t.Fatalf("Inspect = %+v", locks)
	}
	if g, err := Acquire(f, Options{Wait: 30 * time.Millisecond}); !errors.Is(err, ErrHeld) {
		g.Release()
		t.Fatalf("Acquire with flocked sidecar: %v", err)
	}
}

func writeOpenClaw(t *testing.T, f string, payload map[string]any) string {
	t.Helper()
	b, _ := json.MarshalIndent(payload, "", "  ")
	p := OpenClawLockPath(f)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenClawLiveLockRefuses(t *testing.T) {
	f := sessionFile(t)
	holder := startHelper(t, "sleep")
	payload := map[string]any{"pid": holder.Process.Pid, "createdAt": time.Now().UTC().Format(time.RFC3339Nano)}
	if st, ok := ProcessStartTime(holder.Process.Pid); ok {
		payload["starttime"] = st
	}
	lp := writeOpenClaw(t, f, payload)
	locks, _ := Inspect(f)
	if len(locks) != 1 || locks[0].Kind != OpenClawLockFile || !locks[0].Live || len(locks[0].Reasons) != 0 {
		t.Fatalf("Inspect = %+v", locks)
	}
	for _, oc := range []bool{false, true} {
		if g, err := Acquire(f, Options{OpenClaw: oc, Wait: 20 * time.Millisecond}); !errors.Is(err, ErrHeld) {
			g.Release()
			t.Fatalf("Acquire(OpenClaw=%v) under live OpenClaw lock: %v", oc, err)
		}
	}
	if _, err := os.Stat(lp); err != nil {
		t.Fatalf("live OpenClaw lock removed: %v", err)
	}
	// Old but with a live pid: OpenClaw would call it stale (too-old); we
	// fail closed and report the reason.
	payload["createdAt"] = time.Now().Add(-time.Hour).UTC().Format(time.RFC3339Nano)
	writeOpenClaw(t, f, payload)
	locks, _ = Inspect(f)
	if len(locks) != 1 || !locks[0].Live || strings.Join(locks[0].Reasons, ",") != "too-old" {
		t.Fatalf("Inspect old live = %+v", locks)
	}
}

func TestOpenClawStaleLocks(t *testing.T) {
	f := sessionFile(t)
	dead := deadPID(t)
	lp := writeOpenClaw(t, f, map[string]any{"pid": dead, "createdAt": time.Now().UTC().Format(time.RFC3339Nano)})
	locks, _ := Inspect(f)
	if len(locks) != 1 || locks[0].Live || strings.Join(locks[0].Reasons, ",") != "dead-pid" {
		t.Fatalf("Inspect dead = %+v", locks)
	}
	// Without taking the OpenClaw lock, a stale one does not block and is
	// left in place (check lists it; Acquire does not clean other agents'
	// files it does not need).
	g, err := Acquire(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g.Release()
	if _, err := os.Stat(lp); err != nil {
		t.Fatalf("stale OpenClaw lock should be left alone: %v", err)
	}
	// Taking it reclaims the stale one and writes our record.
	g, err = Acquire(f, Options{OpenClaw: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Reclaimed) != 1 || g.Reclaimed[0].Kind != OpenClawLockFile {
		t.Errorf("Reclaimed = %+v", g.Reclaimed)
	}
	var rec map[string]any
	b, _ := os.ReadFile(lp)
	if err := json.Unmarshal(b, &rec); err != nil || int(rec["pid"].(float64)) != os.Getpid() {
		t.Fatalf("our OpenClaw record = %s (%v)", b, err)
	}
	if _, ok := parseISO(rec["createdAt"].(string)); !ok {
		t.Errorf("createdAt not ISO: %v", rec["createdAt"])
	}
	g.Release()
	if _, err := os.Stat(lp); !os.IsNotExist(err) {
		t.Errorf("OpenClaw lock not removed: %v", err)
	}

	// Recycled pid: alive, but start time differs from the recorded one.
	holder := startHelper(t, "sleep")
	if st, ok := ProcessStartTime(holder.Process.Pid); ok {
		writeOpenClaw(t, f, map[string]any{"pid": holder.Process.Pid, "createdAt": time.Now().UTC().Format(time.RFC3339Nano), "starttime": st + 12345})
		locks, _ = Inspect(f)
		if len(locks) != 1 || locks[0].Live || strings.Join(locks[0].Reasons, ",") != "recycled-pid" {
			t.Fatalf("Inspect recycled = %+v", locks)
		}
	}

	// Unparseable content: judged by mtime like OpenClaw.
	os.WriteFile(lp, []byte("{not json"), 0o644)
	locks, _ = Inspect(f)
	if len(locks) != 1 || !locks[0].Live || locks[0].Reasons[0] != "malformed" {
		t.Fatalf("Inspect fresh malformed = %+v", locks)
	}
	old := time.Now().Add(-31 * time.Minute)
	os.Chtimes(lp, old, old)
	locks, _ = Inspect(f)
	if len(locks) != 1 || locks[0].Live {
		t.Fatalf("Inspect old malformed = %+v", locks)
	}
}

func TestCheckFree(t *testing.T) {
	f := sessionFile(t)
	holder := startHelper(t, "sleep")
	os.WriteFile(OMPLockPath(f), []byte(fmt.Sprintf("%d:1\n", holder.Process.Pid)), 0o600)
	if _, err := CheckFree(f, 10*time.Millisecond); !errors.Is(err, ErrHeld) {
		t.Fatalf("CheckFree = %v", err)
	} else if !strings.Contains(err.Error(), "nothing was changed") {
		t.Errorf("message should say nothing changed: %v", err)
	}
	holder.Process.Kill()
	holder.Wait()
	locks, err := CheckFree(f, 10*time.Millisecond)
	if err != nil || len(locks) != 1 || locks[0].Live {
		t.Fatalf("after holder died: %v %+v", err, locks)
	}
}

func TestScanDir(t *testing.T) {
	f := sessionFile(t)
	dir := filepath.Dir(f)
	dead := deadPID(t)
	holder := startHelper(t, "sleep")
	os.WriteFile(OMPLockPath(f), []byte(fmt.Sprintf("%d:1\n", dead)), 0o600)
	os.WriteFile(filepath.Join(dir, ".gone.jsonl.lock"), []byte(fmt.Sprintf("%d:1\n", holder.Process.Pid)), 0o600)
	writeOpenClaw(t, f, map[string]any{"pid": holder.Process.Pid, "createdAt": time.Now().UTC().Format(time.RFC3339)})
	os.WriteFile(filepath.Join(dir, ".x.jsonl.lock.os"), nil, 0o600) // sidecar: not listed
	os.WriteFile(filepath.Join(dir, "notes.lock"), nil, 0o600)       // unrelated: not listed
	found, err := ScanDir(dir, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 3 {
		t.Fatalf("found %d: %+v", len(found), found)
	}
	byPath := map[string]Found{}
	for _, fd := range found {
		byPath[filepath.Base(fd.Path)] = fd
	}
	if g := byPath[".gone.jsonl.lock"]; g.Kind != OMPLockFile || !g.Live || g.TargetExists {
		t.Errorf("orphan omp lock: %+v", g)
	}
	if g := byPath["."+filepath.Base(f)+".lock"]; g.Kind != OMPLockFile || g.Live || !g.TargetExists || g.Target != f {
		t.Errorf("stale omp lock: %+v", g)
	}
	if g := byPath[filepath.Base(f)+".lock"]; g.Kind != OpenClawLockFile || !g.Live || g.Target != f {
		t.Errorf("OpenClaw lock: %+v", g)
	}
}
