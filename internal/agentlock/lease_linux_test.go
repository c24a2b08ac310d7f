package agentlock

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNativeNameVectors: GateName matches the abstract socket omp's native
// FileLock binds, for lease-style and session-file lock paths. The vectors
// were recorded from the real addon by testdata/gen_native_names.cjs.
// abstractBound reports whether the abstract socket "@name" is bound; ok
// is false when /proc/net/unix cannot be read.
func abstractBound(name string) (bound, ok bool) {
	names, ok := abstractNames()
	return names[name], ok
}

func TestNativeNameVectors(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "native_names.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Source  string `json:"source"`
		Vectors []struct {
			Path          string `json:"path"`
			Socket        string `json:"socket"`
			SecondAcquire bool   `json:"second_acquired"`
			FileCreated   bool   `json:"file_created"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Vectors) < 8 {
		t.Fatalf("only %d vectors", len(v.Vectors))
	}
	for _, x := range v.Vectors {
		if got := GateName(x.Path); got != x.Socket {
			t.Errorf("GateName(%q) = %s, native %s", x.Path, got, x.Socket)
		}
		if x.SecondAcquire || x.FileCreated {
			t.Errorf("%s: recorded second_acquired=%v file_created=%v", x.Path, x.SecondAcquire, x.FileCreated)
		}
	}
}

// ompSession writes an omp session file under home's agent dir and returns
// its path and id.
func ompSession(t *testing.T, root string) (string, string) {
	t.Helper()
	id := "0190a3c4-1111-7222-8333-444455556666"
	f := filepath.Join(root, "agent", "sessions", "-work-p", "2026-01-01T00-00-00-000Z_"+id+".jsonl")
	slot := `{"type":"title","v":1,"title":"t","pad":"  "}`
	writeFile(t, f, slot+"\n"+`{"type":"session","version":3,"id":"`+id+`","cwd":"/work/p"}`+"\n")
	return f, id
}

func requireLease(t *testing.T, f string, want string) {
	t.Helper()
	locks, err := Inspect(f)
	if err != nil {
		t.Fatal(err)
	}
	live := Live(locks)
	if len(live) != 1 || live[0].Kind != OMPLease || live[0].Path != want || live[0].Gate != GateName(want) {
		t.Fatalf("Inspect = %+v, want the lease %s", locks, want)
	}
	if _, err := CheckFree(f, 20*time.Millisecond); !errors.Is(err, ErrHeld) {
		t.Fatalf("CheckFree under a held lease: %v", err)
	}
	g, err := Acquire(f, Options{Wait: 20 * time.Millisecond})
	var he *HeldError
	if !errors.As(err, &he) || he.Locks[0].Kind != OMPLease {
		g.Release()
		t.Fatalf("Acquire under a held lease: %v", err)
	}
	if _, err := os.Stat(OMPLockPath(f)); !os.IsNotExist(err) {
		t.Errorf("a refused Acquire left a lock file behind")
	}
	if _, err := os.Stat(filepath.Dir(want)); !os.IsNotExist(err) {
		t.Errorf("probing created the owners directory")
	}
}

func requireFree(t *testing.T, f string) {
	t.Helper()
	locks, err := Inspect(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(locks) != 0 {
		t.Fatalf("Inspect = %+v, want nothing", locks)
	}
	g, err := Acquire(f, Options{Wait: 20 * time.Millisecond})
	if err != nil {
		t.Fatalf("Acquire after the holder died: %v", err)
	}
	g.Release()
}

func TestLeaseHeldByOtherProcess(t *testing.T) {
	home := isolateLeaseEnv(t)
	f, id := ompSession(t, filepath.Join(home, ".omp"))
	want := filepath.Join(home, ".omp", "run", "session-owners", id+".lock")
	h := startHelper(t, "lease:"+id)
	requireLease(t, f, want)
	// The holder dies (SIGKILL): the kernel frees the lease.
	h.Process.Kill()
	h.Wait()
	requireFree(t, f)
}

// The lease is keyed by the session id, not the file: a copy of the session
// elsewhere is refused as well.
func TestLeaseFollowsIDNotPath(t *testing.T) {
	home := isolateLeaseEnv(t)
	_, id := ompSession(t, filepath.Join(home, ".omp"))
	cp := writeFile(t, filepath.Join(t.TempDir(), "copy.jsonl"), `{"type":"session","id":"`+id+`"}`+"\n")
	startHelper(t, "lease:"+id)
	requireLease(t, cp, filepath.Join(home, ".omp", "run", "session-owners", id+".lock"))
}

// An omp with PI_CONFIG_DIR=.xcsh-like roots that sessctl's environment does
// not share is found through the session file's own location.
func TestLeaseRootFromSessionPath(t *testing.T) {
	home := isolateLeaseEnv(t)
	f, id := ompSession(t, filepath.Join(home, ".xcsh"))
	t.Setenv("PI_CONFIG_DIR", ".xcsh") // the helper's (omp's) environment
	startHelper(t, "lease:"+id)
	t.Setenv("PI_CONFIG_DIR", "") // sessctl's
	requireLease(t, f, filepath.Join(home, ".xcsh", "run", "session-owners", id+".lock"))
}

// pi-utils' FileLock on "<session>.lock" (omp 18.3.4's first durable append
// and draft GC) refuses writes while held.
func TestSessionFileLockHeld(t *testing.T) {
	isolateLeaseEnv(t)
	f := sessionFile(t)
	abs, _ := filepath.Abs(f)
	h := startHelper(t, "gate:"+GateName(abs+".lock"))
	locks, err := Inspect(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(locks) != 1 || locks[0].Kind != OMPSessionFileLock || !locks[0].Live || locks[0].Path != abs+".lock" {
		t.Fatalf("Inspect = %+v", locks)
	}
	if g, err := Acquire(f, Options{Wait: 20 * time.Millisecond}); !errors.Is(err, ErrHeld) {
		g.Release()
		t.Fatalf("Acquire: %v", err)
	}
	if _, err := os.Stat(abs + ".lock"); !os.IsNotExist(err) {
		t.Errorf("probing created %s.lock", abs)
	}
	h.Process.Kill()
	h.Wait()
	requireFree(t, f)
}

// TestLeaseRealNativeLock holds the lease with omp's own native FileLock in
// a node process, when AGENTLOCK_OMP_NATIVE names the addon
// (pi_natives.linux-x64-*.node from @oh-my-pi/pi-natives-linux-x64) and
// node is installed; otherwise it is skipped (CI needs neither).
func TestLeaseRealNativeLock(t *testing.T) {
	addon := os.Getenv("AGENTLOCK_OMP_NATIVE")
	node, err := exec.LookPath("node")
	if addon == "" || err != nil {
		t.Skip("set AGENTLOCK_OMP_NATIVE to the pi-natives addon (and install node) to run")
	}
	home := isolateLeaseEnv(t)
	f, id := ompSession(t, filepath.Join(home, ".omp"))
	// pi-utils file-lock.ts: path.resolve(<owners>/<id>) + ".lock".
	script := `const path = require("path"), os = require("os");
const m = require(process.argv[1]);
const owners = path.join(os.homedir(), process.env.PI_CONFIG_DIR || ".omp", "run", "session-owners");
const l = m.FileLock.tryAcquire(path.resolve(path.join(owners, process.argv[2])) + ".lock");
console.log(l.acquired ? "ready" : "taken");
setInterval(() => l.acquired, 1000);`
	cmd := exec.Command(node, "-e", script, addon, id)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		t.Fatalf("node holder: %q %v", line, err)
	}
	requireLease(t, f, filepath.Join(home, ".omp", "run", "session-owners", id+".lock"))
	cmd.Process.Kill()
	cmd.Wait()
	requireFree(t, f)
	// While sessctl's guard holds the lease, omp's own FileLock cannot take it.
	g, err := Acquire(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := exec.Command(node, "-e", script+"\nprocess.exit(0)", addon, id).Output()
	g.Release()
	if err != nil || strings.TrimSpace(string(got)) != "taken" {
		t.Fatalf("omp's FileLock under sessctl's guard: %q %v", got, err)
	}
}

// Acquire holds the lease (the abstract socket, nothing on disk) until
// Release, so no omp can start owning the session in between.
func TestAcquireHoldsLease(t *testing.T) {
	home := isolateLeaseEnv(t)
	f, id := ompSession(t, filepath.Join(home, ".omp"))
	lp := filepath.Join(home, ".omp", "run", "session-owners", id+".lock")
	abs, _ := filepath.Abs(f)
	g, err := Acquire(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{lp, abs + ".lock"} {
		if bound, ok := abstractBound(GateName(p)); !ok || !bound {
			t.Errorf("%s not held under the guard (%v %v)", p, bound, ok)
		}
	}
	// Another process (an omp) cannot take it meanwhile.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "AGENTLOCK_HELPER=lease:"+id)
	if out, err := cmd.Output(); err == nil || !strings.Contains(string(out), "held already") {
		t.Errorf("a second holder took the lease under the guard: %q %v", out, err)
	}
	if err := g.Release(); err != nil {
		t.Fatal(err)
	}
	if bound, _ := abstractBound(GateName(lp)); bound {
		t.Error("lease still held after Release")
	}
	if _, err := os.Stat(filepath.Dir(lp)); !os.IsNotExist(err) {
		t.Error("Acquire created the owners directory")
	}
}

func TestAbstractBound(t *testing.T) {
	name := GateName(filepath.Join(t.TempDir(), "probe.lock"))
	if bound, ok := abstractBound(name); !ok || bound {
		t.Fatalf("free name: %v %v", bound, ok)
	}
	fd, held, err := bindAbstract(name)
	if err != nil || held {
		t.Fatal(err, held)
	}
	if bound, ok := abstractBound(name); !ok || !bound {
		t.Errorf("bound name: %v %v", bound, ok)
	}
	syscall.Close(fd)
	if bound, _ := abstractBound(name); bound {
		t.Error("still listed after close")
	}
}
