package repair

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/stretchr/testify/require"
)

// genDamaged makes a pi session whose only damage is lines repair moves to
// the sidecar (garbage text, JSON that is not an object, a torn tail), so
// that every original line ends up, unchanged, either in the session or in
// the sidecar. pad makes entries bigger (kill tests need a slow repair).
func genDamaged(rnd *rand.Rand, entries, pad int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":3,"id":"kill-retry","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/tmp"}` + "\n")
	parent := "null"
	padding := strings.Repeat("p", pad)
	for i := 0; i < entries; i++ {
		id := fmt.Sprintf("%08x", i)
		fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"%d %s","timestamp":1}}`+"\n", id, parent, i, padding)
		parent = `"` + id + `"`
		switch rnd.Intn(12) {
		case 0:
			fmt.Fprintf(&b, "garbage line %d\n", i)
		case 1:
			fmt.Fprintf(&b, "[%d,\"not an object\"]\n", i)
		case 2:
			fmt.Fprintf(&b, "\"string line \\u001b %d\"\n", i)
		}
	}
	if rnd.Intn(2) == 0 {
		b.WriteString(`{"type":"message","id":"torn","parentId":` + parent + `,"mess`)
	} else {
		b.WriteString("garbage at the end\n")
	}
	return b.Bytes()
}

// sidecarLines returns the original bytes of every record in the sidecar.
func sidecarLines(t *testing.T, path string) [][]byte {
	t.Helper()
	sb, err := os.ReadFile(SidecarPath(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	require.NoError(t, err)
	var out [][]byte
	for _, l := range splitLines(sb) {
		var r rejectedLine
		require.NoError(t, json.Unmarshal(l, &r), "sidecar record %q", l)
		raw := []byte(r.Text)
		if r.Base64 != "" {
			raw, err = base64.StdEncoding.DecodeString(r.Base64)
			require.NoError(t, err)
		}
		out = append(out, raw)
	}
	return out
}

// requireExactlyOnce: the session and its sidecar together hold every
// line of orig exactly as often as orig does, and nothing else.
func requireExactlyOnce(t *testing.T, orig []byte, path string, msg string) {
	t.Helper()
	count := map[string]int{}
	for _, l := range splitLines(orig) {
		count[string(l)]++
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	have := map[string]int{}
	for _, l := range splitLines(got) {
		have[string(l)]++
	}
	for _, l := range sidecarLines(t, path) {
		have[string(l)]++
	}
	var problems []string
	for l, n := range count {
		if have[l] != n {
			problems = append(problems, fmt.Sprintf("%dx (want %dx): %.80s", have[l], n, l))
		}
	}
	for l, n := range have {
		if count[l] == 0 {
			problems = append(problems, fmt.Sprintf("%dx (not in the original): %.80s", n, l))
		}
	}
	slices.Sort(problems)
	require.Empty(t, problems, "%s: session + sidecar do not hold every original line exactly once", msg)
}

func journals(t *testing.T, path string) []string {
	t.Helper()
	js, err := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.journal"))
	require.NoError(t, err)
	return js
}

// TestSidecarSymlinkRefused (issue 11.1): a link planted at the sidecar's
// name, pointing at a root-owned 0600 file, is refused and not followed:
// that file keeps its inode and bytes, and the session is not changed.
func TestSidecarSymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	orig := genDamaged(rand.New(rand.NewSource(1)), 20, 10)
	require.NoError(t, os.WriteFile(p, orig, 0o600))
	victim := filepath.Join(t.TempDir(), "shadow")
	require.NoError(t, os.WriteFile(victim, []byte("root:secret\n"), 0o600))
	if os.Geteuid() == 0 {
		require.NoError(t, os.Chown(p, 1234, 1234)) // another user's session
		require.NoError(t, os.Chown(victim, 0, 0))
	}
	before, err := os.Stat(victim)
	require.NoError(t, err)
	require.NoError(t, os.Symlink(victim, SidecarPath(p)))

	_, err = Pi(p, Options{})
	require.ErrorIs(t, err, safewrite.ErrSymlink)
	require.Contains(t, err.Error(), "symbolic link")
	require.Contains(t, err.Error(), "nothing was changed")

	after, err := os.Stat(victim)
	require.NoError(t, err)
	require.True(t, os.SameFile(before, after), "the link target was replaced by a new inode")
	b, _ := os.ReadFile(victim)
	require.Equal(t, "root:secret\n", string(b))
	require.Equal(t, before.Mode(), after.Mode())
	got, _ := os.ReadFile(p)
	require.Equal(t, orig, got, "the session changed although the repair was refused")
	fi, err := os.Lstat(SidecarPath(p))
	require.NoError(t, err)
	require.NotZero(t, fi.Mode()&fs.ModeSymlink, "the link itself was replaced")
	// Dry run says the same.
	_, err = Pi(p, Options{DryRun: true})
	require.ErrorIs(t, err, safewrite.ErrSymlink)
}

// TestConcurrentAppendLeavesNoSidecar (issue 11.2): a repair aborted by an
// agent's append writes no sidecar records (the lines are still in the
// session) and says, truly, that nothing was changed.
func TestConcurrentAppendLeavesNoSidecar(t *testing.T) {
	old := bigDamaged(t)
	line := []byte(`{"type":"message","id":"appended","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"late","timestamp":1}}` + "\n")
	for try := 0; try < 8; try++ {
		dir := t.TempDir()
		p := filepath.Join(dir, "s.jsonl")
		require.NoError(t, os.WriteFile(p, old, 0o600))
		appended := make(chan struct{})
		checkpoint = func(step string) {
			if step == "session:temp-synced" {
				<-appended
			}
		}
		done := make(chan error, 1)
		go func() {
			_, err := Pi(p, Options{})
			done <- err
		}()
		time.Sleep(time.Duration(5+try*5) * time.Millisecond)
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = f.Write(line)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		close(appended)
		err = <-done
		checkpoint = nil
		if err == nil {
			continue // repair read the appended line: try again
		}
		require.ErrorIs(t, err, safewrite.ErrChanged)
		require.Contains(t, strings.ToLower(err.Error()), "nothing was changed")
		got, _ := os.ReadFile(p)
		require.Equal(t, append(append([]byte(nil), old...), line...), got)
		_, serr := os.Lstat(SidecarPath(p))
		require.ErrorIs(t, serr, fs.ErrNotExist, "an aborted repair left sidecar records for lines still in the session")
		require.Empty(t, journals(t, p))
		return
	}
	t.Fatal("the append never landed inside the repair window")
}

// crashAt runs Pi on path and "kills" it at its k-th checkpoint: the
// goroutine stops there without any cleanup (what a SIGKILL leaves). It
// returns the steps passed and whether it stopped.
func crashAt(path string, k int, opts Options) (steps []string, stopped bool) {
	done := make(chan struct{})
	checkpoint = func(step string) {
		steps = append(steps, step)
		if len(steps)-1 == k {
			stopped = true
			runtime.Goexit()
		}
	}
	go func() {
		defer close(done)
		Pi(path, opts)
	}()
	<-done
	checkpoint = nil
	return steps, stopped
}

// TestCrashStepsThenRetry stops a repair after every durable step in turn,
// then retries (itself stopped at every step, then run to the end): the
// session and the sidecar together always hold every original line
// exactly once, and no journal is left.
func TestCrashStepsThenRetry(t *testing.T) {
	orig := genDamaged(rand.New(rand.NewSource(3)), 30, 10)
	// An existing sidecar from an earlier repair must be kept too.
	prior := `{"sessctl":"rejected-line","file":"s.jsonl","line":1,"reason":"malformed-line","at":"2026-01-01T00:00:00Z","text":"old reject"}` + "\n"
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, orig, 0o600))
	all, stopped := crashAt(p, -1, Options{})
	require.False(t, stopped)
	want := []string{"journal-written", "session:temp-synced", "session:backup-made",
		"session:published", "sidecar:temp-synced", "sidecar:published", "journal-removed"}
	require.Equal(t, want, all)
	for k := range all {
		for k2 := -1; k2 < len(all); k2++ {
			name := fmt.Sprintf("crash at %s, retry crash at %d", all[k], k2)
			dir := t.TempDir()
			p := filepath.Join(dir, "s.jsonl")
			require.NoError(t, os.WriteFile(p, orig, 0o600))
			require.NoError(t, os.WriteFile(SidecarPath(p), []byte(prior), 0o600))
			_, stopped := crashAt(p, k, Options{})
			require.True(t, stopped, name)
			require.Equal(t, journals(t, p), PendingJournals(p), name)
			if k2 >= 0 {
				crashAt(p, k2, Options{})
			}
			res, err := Pi(p, Options{})
			require.NoError(t, err, name)
			again, err := Pi(p, Options{})
			require.NoError(t, err, name)
			require.False(t, again.Changed, "%s: a third run still changes something (%+v)", name, res)
			requireExactlyOnce(t, append([]byte("old reject\n"), orig...), p, name)
			require.Empty(t, journals(t, p), name)
		}
	}
}

// FuzzRepairCrashRetry: any damaged session, a repair stopped at any step,
// a retry stopped at any step, then a full retry: session + sidecar hold
// every original line exactly once.
func FuzzRepairCrashRetry(f *testing.F) {
	f.Add(int64(1), uint8(0), uint8(255))
	f.Add(int64(2), uint8(4), uint8(1))
	f.Add(int64(3), uint8(5), uint8(6))
	f.Add(int64(4), uint8(7), uint8(2))
	f.Fuzz(func(t *testing.T, seed int64, k1, k2 uint8) {
		orig := genDamaged(rand.New(rand.NewSource(seed)), 1+int(uint64(seed)%40), 0)
		dir := t.TempDir()
		p := filepath.Join(dir, "s.jsonl")
		require.NoError(t, os.WriteFile(p, orig, 0o600))
		crashAt(p, int(k1%9), Options{NoBackup: k1&0x10 != 0})
		if k2 != 255 {
			crashAt(p, int(k2%9), Options{})
		}
		_, err := Pi(p, Options{})
		require.NoError(t, err)
		requireExactlyOnce(t, orig, p, "fuzz")
		require.Empty(t, journals(t, p))
	})
}

// TestRepairKillRetryExactlyOnce (issue 11.2): `sessctl repair` SIGKILLed
// at random moments, then retried (the retry itself sometimes killed),
// then run to the end: session + sidecar hold every original line exactly
// once; retries never duplicate a sidecar record.
func TestRepairKillRetryExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it many times")
	}
	bin := buildSessctl(t)
	rnd := rand.New(rand.NewSource(5))
	orig := genDamaged(rnd, 5000, 2000)
	ref := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(ref, orig, 0o600))
	start := time.Now()
	out, err := exec.Command(bin, "repair", ref).CombinedOutput()
	require.NoError(t, err, "%s", out)
	full := time.Since(start)
	requireExactlyOnce(t, orig, ref, "undisturbed")
	kill := func(p string) {
		cmd := exec.Command(bin, "repair", p)
		require.NoError(t, cmd.Start())
		time.Sleep(time.Duration(rnd.Int63n(int64(full * 6 / 5))))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
	}
	for i := 0; i < 20; i++ {
		inRoundDir(t, func(dir string) {
			p := filepath.Join(dir, "s.jsonl")
			require.NoError(t, os.WriteFile(p, orig, 0o600))
			kill(p)
			if i%3 == 0 {
				kill(p)
			}
			out, err := exec.Command(bin, "repair", p).CombinedOutput()
			require.NoError(t, err, "retry %d: %s", i, out)
			requireExactlyOnce(t, orig, p, fmt.Sprintf("kill %d", i))
			require.Empty(t, journals(t, p), "kill %d", i)
		})
	}
}

// TestKilledBeforeJournalHeaderDropped: a repair killed after creating
// its journal but before the buffered header line reached the file (the
// window TestRepairKillRetryExactlyOnce hit now and then under load)
// leaves an empty or cut journal. Its session commit cannot have happened,
// so the next repair drops it, repairs the session, and nothing is pending.
func TestKilledBeforeJournalHeaderDropped(t *testing.T) {
	const deadPID = 1<<22 + 1 // above Linux's highest pid_max: never alive
	for _, content := range []string{"", `{"sessctl":"sidecar-journal","id":"01234`} {
		orig := genDamaged(rand.New(rand.NewSource(10)), 50, 20)
		p := filepath.Join(t.TempDir(), "s.jsonl")
		require.NoError(t, os.WriteFile(p, orig, 0o600))
		jp := journalPrefix(SidecarPath(p)) + fmt.Sprint(deadPID) + "-0123456789abcdef.journal"
		require.NoError(t, os.WriteFile(jp, []byte(content), 0o600))
		require.Equal(t, []string{jp}, PendingJournals(p))
		res, err := Pi(p, Options{})
		require.NoError(t, err, "%q", content)
		require.True(t, res.Changed, "%q", content)
		require.Empty(t, journals(t, p), "a journal cut short (%q) was left", content)
		require.Empty(t, PendingJournals(p))
		requireExactlyOnce(t, orig, p, fmt.Sprintf("cut journal %q", content))
	}
	// A whole first line that is not a journal header is not sessctl's
	// cut journal: it is left alone.
	p := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(p, genDamaged(rand.New(rand.NewSource(11)), 5, 2), 0o600))
	jp := journalPrefix(SidecarPath(p)) + fmt.Sprint(deadPID) + "-0123456789abcdef.journal"
	require.NoError(t, os.WriteFile(jp, []byte("not a journal\n"), 0o600))
	_, err := Pi(p, Options{})
	require.NoError(t, err)
	require.Equal(t, []string{jp}, journals(t, p))
}

// TestJournalOfReusedPIDFinished: a journal named with the pid of a live
// process that started after the journal was written (its writer died and
// the pid was reused, e.g. after a reboot) is finished by the next repair;
// one whose live process may be its writer is left alone. Linux only
// (process start times).
func TestJournalOfReusedPIDFinished(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process start times are read on Linux only")
	}
	other := exec.Command("sleep", "60")
	require.NoError(t, other.Start())
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	for _, c := range []struct {
		age  time.Duration // journal mtime relative to now
		left bool
	}{{-time.Hour, false}, {time.Hour, true}} {
		orig := genDamaged(rand.New(rand.NewSource(12)), 50, 20)
		p := filepath.Join(t.TempDir(), "s.jsonl")
		require.NoError(t, os.WriteFile(p, orig, 0o600))
		jp := journalPrefix(SidecarPath(p)) + fmt.Sprint(other.Process.Pid) + "-0123456789abcdef.journal"
		require.NoError(t, os.WriteFile(jp, []byte(`{"sessctl":"sidecar-journal","id":"0123456789abcdef","session":"x","dev":1,"ino":1}`+"\n"), 0o600))
		mt := time.Now().Add(c.age)
		require.NoError(t, os.Chtimes(jp, mt, mt))
		require.Equal(t, !c.left, slices.Contains(PendingJournals(p), jp), "age %v", c.age)
		_, err := Pi(p, Options{})
		require.NoError(t, err)
		if c.left {
			require.Equal(t, []string{jp}, journals(t, p), "a journal its live writer may still be writing was touched")
		} else {
			require.Empty(t, journals(t, p), "the journal of a reused pid was left")
		}
		requireExactlyOnce(t, orig, p, fmt.Sprintf("age %v", c.age))
	}
}

// TestDiskFullLeavesNoSidecar (issue 11.2): the session's temp cannot be
// written (file size limit, as on a full disk): no sidecar record is left
// for lines that are still in the session.
func TestDiskFullLeavesNoSidecar(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildSessctl(t)
	orig := genDamaged(rand.New(rand.NewSource(6)), 2000, 500) // ~1.2 MB
	p := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(p, orig, 0o600))
	// sh's ulimit -f counts 512- or 1024-byte blocks: 200 is at most 200 KB.
	out, err := exec.Command("sh", "-c", `ulimit -f 200 && exec "$0" repair "$1"`, bin, p).CombinedOutput()
	require.Error(t, err, "%s", out)
	require.Contains(t, strings.ToLower(string(out)), "file too large", "%s", out)
	got, _ := os.ReadFile(p)
	require.Equal(t, orig, got)
	_, serr := os.Lstat(SidecarPath(p))
	require.ErrorIs(t, serr, fs.ErrNotExist, "a failed repair left sidecar records: %s", out)
	require.Empty(t, journals(t, p))
	out, err = exec.Command(bin, "repair", p).CombinedOutput()
	require.NoError(t, err, "%s", out)
	requireExactlyOnce(t, orig, p, "after the retry")
}

// TestSidecarFailsAfterCommit (issue 11.2): when the session was repaired
// but the sidecar could not be written (here: file size limit, the old
// sidecar being big), the error says the session was changed and where
// the rejected lines are; the next repair adds them, once.
func TestSidecarFailsAfterCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildSessctl(t)
	orig := genDamaged(rand.New(rand.NewSource(7)), 40, 10)
	p := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(p, orig, 0o600))
	var prior bytes.Buffer
	for i := 0; prior.Len() < 1<<20; i++ {
		fmt.Fprintf(&prior, `{"sessctl":"rejected-line","file":"s.jsonl","line":%d,"reason":"malformed-line","at":"2026-01-01T00:00:00Z","text":"old %d"}`+"\n", i, i)
	}
	require.NoError(t, os.WriteFile(SidecarPath(p), prior.Bytes(), 0o600))
	out, err := exec.Command("sh", "-c", `ulimit -f 200 && exec "$0" repair --no-backup "$1"`, bin, p).CombinedOutput()
	require.Error(t, err, "%s", out)
	msg := strings.ToLower(string(out))
	require.NotContains(t, msg, "nothing was changed", "%s", out)
	require.Contains(t, msg, "was repaired", "%s", out)
	require.Contains(t, msg, ".journal", "%s", out)
	sb, _ := os.ReadFile(SidecarPath(p))
	require.Equal(t, prior.Bytes(), sb, "the old sidecar changed")
	require.Len(t, journals(t, p), 1)
	out, err = exec.Command(bin, "repair", p).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Empty(t, journals(t, p))
	var texts bytes.Buffer
	for i := 0; i < bytes.Count(prior.Bytes(), []byte("\n")); i++ {
		fmt.Fprintf(&texts, "old %d\n", i)
	}
	requireExactlyOnce(t, append(texts.Bytes(), orig...), p, "after the retry")
}

// TestKilledRepairTempsRemoved (issue 11.3): SIGKILLs during repair leave
// temp files; they carry the dead writer's pid, StaleTemps reports them,
// and the next write to the folder removes them, so they never pile up.
func TestKilledRepairTempsRemoved(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it")
	}
	bin := buildSessctl(t)
	orig := genDamaged(rand.New(rand.NewSource(8)), 5000, 2000)
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	temps := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, ".*.sessctl-*.tmp"))
		return m
	}
	maxLeft := 0
	for i := 0; i < 10; i++ {
		require.NoError(t, os.WriteFile(p, orig, 0o600))
		cmd := exec.Command(bin, "repair", "--no-backup", p)
		require.NoError(t, cmd.Start())
		// kill as soon as this run's temp exists
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if slices.ContainsFunc(temps(), func(s string) bool { return strings.Contains(s, fmt.Sprintf("-%d-", cmd.Process.Pid)) }) {
				break
			}
			time.Sleep(time.Millisecond)
		}
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		maxLeft = max(maxLeft, len(temps()))
	}
	left := temps()
	require.NotEmpty(t, left, "no kill left a temp file")
	require.LessOrEqual(t, maxLeft, 2, "temps of dead runs piled up: %d", maxLeft)
	stale, err := safewrite.StaleTemps(dir)
	require.NoError(t, err)
	require.Len(t, stale, len(left))
	for _, st := range stale {
		require.Equal(t, p, st.Target)
		require.NotZero(t, st.PID)
	}
	// The next write to the folder, for another file, removes them.
	q := filepath.Join(dir, "other.jsonl")
	require.NoError(t, os.WriteFile(q, genDamaged(rand.New(rand.NewSource(9)), 5, 0), 0o600))
	_, err = Pi(q, Options{NoBackup: true})
	require.NoError(t, err)
	require.Empty(t, temps())
}

// TestClaudeCrashStepsThenRetry: the same for a Claude Code transcript,
// which shares the write path (sidecar after the session, journal).
func TestClaudeCrashStepsThenRetry(t *testing.T) {
	var b bytes.Buffer
	parent := "null"
	for i := 0; i < 20; i++ {
		id := fmt.Sprintf("%08x-0000-4000-8000-000000000000", i)
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/tmp","sessionId":"s","version":"2.1.70","type":"user","message":{"role":"user","content":"m%d"},"uuid":"%s","timestamp":"2026-01-01T00:00:%02d.000Z"}`+"\n", parent, i, id, i)
		parent = `"` + id + `"`
		if i%6 == 0 {
			fmt.Fprintf(&b, "garbage line %d\n", i)
		}
	}
	b.WriteString(`{"parentUuid":"torn`)
	orig := b.Bytes()
	steps := func(p string, k int) bool {
		done := make(chan struct{})
		n, stopped := 0, false
		checkpoint = func(string) {
			if n == k {
				stopped = true
				runtime.Goexit()
			}
			n++
		}
		go func() {
			defer close(done)
			Claude(p, Options{})
		}()
		<-done
		checkpoint = nil
		return stopped
	}
	for k := 0; ; k++ {
		p := filepath.Join(t.TempDir(), "s.jsonl")
		require.NoError(t, os.WriteFile(p, orig, 0o600))
		if !steps(p, k) {
			require.Greater(t, k, 5, "too few checkpoints")
			break
		}
		_, err := Claude(p, Options{})
		require.NoError(t, err, "crash at step %d", k)
		requireExactlyOnce(t, orig, p, fmt.Sprintf("crash at step %d", k))
		require.Empty(t, journals(t, p))
	}
}
