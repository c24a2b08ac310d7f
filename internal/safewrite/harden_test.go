package safewrite

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	return cmd.Process.Pid
}

func TestTempNameCarriesPID(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	write(t, p, "x\n", 0o600)
	w, err := Begin(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	re := regexp.MustCompile(`^\.s\.jsonl\.sessctl-(\d+)-[0-9a-f]{16}\.tmp$`)
	m := re.FindStringSubmatch(filepath.Base(w.TempPath()))
	if m == nil || m[1] != strconv.Itoa(os.Getpid()) {
		t.Fatalf("temp name %q does not carry this pid (%d)", filepath.Base(w.TempPath()), os.Getpid())
	}
}

// TestStaleTempsRemovedOnNextWrite: temps of a dead sessctl are reported by
// StaleTemps and removed by the next write to the folder; a live writer's
// temp, a foreign file and a link named like a temp are left alone.
func TestStaleTempsRemovedOnNextWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	q := filepath.Join(dir, "other.jsonl")
	write(t, p, "x\n", 0o600)
	write(t, q, "y\n", 0o600)
	// a temp of this (live) process, as a write in progress has
	live := TempPrefix(p) + strconv.Itoa(os.Getpid()) + "-00112233445566ff.tmp"
	write(t, live, "in progress", 0o600)
	dead := deadPID(t)
	stale := TempPrefix(p) + strconv.Itoa(dead) + "-0123456789abcdef.tmp"
	write(t, stale, "partial", 0o600)
	foreign := filepath.Join(dir, ".s.jsonl.other-tool.tmp")
	write(t, foreign, "not ours", 0o600)
	victim := filepath.Join(t.TempDir(), "victim")
	write(t, victim, "keep", 0o600)
	link := TempPrefix(p) + strconv.Itoa(dead) + "-fedcba9876543210.tmp"
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}

	got, err := StaleTemps(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Path != stale || got[0].PID != dead || got[0].Target != p || got[0].Size != 7 {
		t.Fatalf("StaleTemps = %+v, want only %s (pid %d)", got, stale, dead)
	}

	// The next write to the folder (another file) removes it.
	w, err := Begin(q, Options{NoBackup: true})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("z\n")
	res, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RemovedTemps) != 1 || res.RemovedTemps[0] != stale {
		t.Errorf("RemovedTemps = %v", res.RemovedTemps)
	}
	if _, err := os.Lstat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stale temp still there: %v", err)
	}
	for _, keep := range []string{live, foreign, link, victim} {
		if _, err := os.Lstat(keep); err != nil {
			t.Errorf("%s was removed", keep)
		}
	}
	if read(t, victim) != "keep" {
		t.Error("link target changed")
	}
	if got, _ := StaleTemps(dir); len(got) != 0 {
		t.Errorf("StaleTemps after cleanup = %+v", got)
	}
}

// TestDryRunRemovesNoStaleTemp: a dry run changes nothing, not even stale temps.
func TestDryRunRemovesNoStaleTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	write(t, p, "x\n", 0o600)
	stale := TempPrefix(p) + strconv.Itoa(deadPID(t)) + "-0123456789abcdef.tmp"
	write(t, stale, "partial", 0o600)
	w, err := Begin(p, Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("y\n")
	if _, err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(stale); err != nil {
		t.Fatal("a dry run removed a stale temp")
	}
}

// TestCreateRefusesSymlink: a link planted at a name sessctl creates is not
// followed; the error says it is a link; the link target is untouched.
func TestCreateRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	write(t, victim, "secret\n", 0o600)
	for _, target := range []string{victim, filepath.Join(dir, "missing")} {
		p := filepath.Join(dir, "out.jsonl")
		os.Remove(p)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		_, err := Create(p, Options{})
		if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), "symbolic link") {
			t.Fatalf("Create over a link to %s = %v, want ErrSymlink", target, err)
		}
	}
	if read(t, victim) != "secret\n" {
		t.Fatal("victim changed")
	}
}

// TestNoFollowRefusesLinks: Begin with NoFollow (a derived name) refuses a
// symbolic link and a file with other hard links, and changes nothing.
func TestNoFollowRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	write(t, victim, "secret\n", 0o600)
	side := filepath.Join(dir, "s.jsonl.rejected.jsonl")
	if err := os.Symlink(victim, side); err != nil {
		t.Fatal(err)
	}
	if _, err := Begin(side, Options{NoFollow: true}); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Begin(NoFollow) on a link = %v, want ErrSymlink", err)
	}
	if _, err := StatNoFollow(side); !errors.Is(err, ErrSymlink) {
		t.Fatalf("StatNoFollow on a link = %v, want ErrSymlink", err)
	}
	if f, _, err := OpenNoFollow(side); !errors.Is(err, ErrSymlink) {
		if f != nil {
			f.Close()
		}
		t.Fatalf("OpenNoFollow on a link = %v, want ErrSymlink", err)
	}
	os.Remove(side)
	if err := os.Link(victim, side); err != nil {
		t.Fatal(err)
	}
	if _, err := Begin(side, Options{NoFollow: true}); err == nil || !strings.Contains(err.Error(), "hard link") {
		t.Fatalf("Begin(NoFollow) on a hard link = %v", err)
	}
	if read(t, victim) != "secret\n" {
		t.Fatal("victim changed")
	}
	if got := names(t, dir); strings.Join(got, ",") != "s.jsonl.rejected.jsonl" {
		t.Errorf("dir = %v", got)
	}
}

// TestCheckpoints: Options.Checkpoint sees each durable step in order.
func TestCheckpoints(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	write(t, p, "old\n", 0o600)
	var steps []string
	cp := func(s string) { steps = append(steps, s) }
	if _, err := rewrite(t, p, "new\n", Options{Checkpoint: cp}); err != nil {
		t.Fatal(err)
	}
	w, err := Create(filepath.Join(dir, "n.jsonl"), Options{Checkpoint: cp})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("n\n")
	if _, err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	want := "temp-synced,backup-made,published,temp-synced,published"
	if got := strings.Join(steps, ","); got != want {
		t.Errorf("checkpoints %s, want %s", got, want)
	}
}

func TestTempFileIsATemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	f, err := TempFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	f.Close()
	target, pid, ok := parseTemp(filepath.Base(f.Name()))
	if !ok || target != "s.jsonl" || pid != os.Getpid() {
		t.Fatalf("%s: parsed %q %d %v", f.Name(), target, pid, ok)
	}
}

// TestStaleTempOfReusedPID: a live process that started after the temp
// was last written is not its writer (the pid was reused): stale.
func TestStaleTempOfReusedPID(t *testing.T) {
	if _, ok := processStarted(os.Getpid()); !ok {
		t.Skip("process start times unknown here")
	}
	cmd := helperCmd("sleep")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	out.Read(make([]byte, 16)) // "ready"
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	old := TempPrefix(p) + strconv.Itoa(cmd.Process.Pid) + "-0123456789abcdef.tmp"
	fresh := TempPrefix(p) + strconv.Itoa(cmd.Process.Pid) + "-fedcba9876543210.tmp"
	write(t, old, "x", 0o600)
	write(t, fresh, "y", 0o600)
	past := time.Now().Add(-time.Hour)
	os.Chtimes(old, past, past)
	got, err := StaleTemps(dir)
	if err != nil || len(got) != 1 || got[0].Path != old {
		t.Fatalf("StaleTemps = %+v %v, want only the temp written before pid %d started", got, err, cmd.Process.Pid)
	}
}
