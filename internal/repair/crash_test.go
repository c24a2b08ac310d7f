package repair

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/stretchr/testify/require"
)

// buildSessctl builds the real binary once for the crash tests.
func buildSessctl(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sessctl")
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/sessctl")
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// bigDamaged makes a ~10 MB pi session with problems all through it, so a
// repair takes long enough to be killed in the middle.
func bigDamaged(t *testing.T) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":3,"id":"crash-test","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/tmp"}` + "\n")
	pad := strings.Repeat("x", 2000)
	parent := "null"
	for i := 0; i < 5000; i++ {
		id := fmt.Sprintf("%08x", i)
		fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"%s","timestamp":1}}`+"\n", id, parent, pad)
		parent = `"` + id + `"`
		if i%997 == 0 {
			b.WriteString("garbage line\n")
		}
		if i%1499 == 0 {
			b.Write(bytes.Repeat([]byte{0}, 300))
			b.WriteByte('\n')
		}
	}
	b.WriteString(`{"type":"message","id":"torn`)
	return b.Bytes()
}

// TestRepairSurvivesSIGKILL kills `sessctl repair` at random moments: the
// session file is always exactly the old or exactly the new content.
func TestRepairSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it many times")
	}
	killRepairs(t, buildSessctl(t), bigDamaged(t), 7, "")
}

// killRepairs runs `sessctl repair` on old once undisturbed (the new
// content), then kills it with SIGKILL 25 times at random moments from
// start to a little after a full run: each time the file must be exactly
// the old or the new content, and any backup the whole old file. wantOut,
// when not empty, must appear in the undisturbed run's output.
func killRepairs(t *testing.T, bin string, old []byte, seed int64, wantOut string) {
	t.Helper()
	ref := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(ref, old, 0o600))
	start := time.Now()
	out, err := exec.Command(bin, "repair", "--no-backup", ref).CombinedOutput()
	require.NoError(t, err, "%s", out)
	full := time.Since(start)
	require.Contains(t, string(out), wantOut)
	want, err := os.ReadFile(ref)
	require.NoError(t, err)
	require.NotEqual(t, old, want)

	const kills = 25
	rng := rand.New(rand.NewSource(seed))
	sawOld, sawNew := 0, 0
	for i := 0; i < kills; i++ {
		inRoundDir(t, func(dir string) {
			p := filepath.Join(dir, "s.jsonl")
			require.NoError(t, os.WriteFile(p, old, 0o600))
			cmd := exec.Command(bin, "repair", p)
			require.NoError(t, cmd.Start())
			time.Sleep(time.Duration(rng.Int63n(int64(full * 6 / 5))))
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			got, err := os.ReadFile(p)
			require.NoError(t, err)
			switch {
			case bytes.Equal(got, old):
				sawOld++
			case bytes.Equal(got, want):
				sawNew++
			default:
				t.Fatalf("kill %d: the file is neither the old nor the new content (%d bytes)", i, len(got))
			}
			baks, _ := filepath.Glob(p + ".sessctl-*.bak")
			for _, bk := range baks {
				b, _ := os.ReadFile(bk)
				require.Equal(t, old, b, "backup %s is not the old content", bk)
			}
		})
	}
	t.Logf("after %d kills: %d old, %d new (a full repair takes %s)", kills, sawOld, sawNew, full)
}

// TestRepairAbortsOnConcurrentAppend: an agent appending while repair works
// makes repair abort with nothing changed, and the append is not lost.
func TestRepairAbortsOnConcurrentAppend(t *testing.T) {
	old := bigDamaged(t)
	line := []byte(`{"type":"message","id":"appended","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"late","timestamp":1}}` + "\n")
	for try := 0; try < 5; try++ {
		dir := t.TempDir()
		p := filepath.Join(dir, "s.jsonl")
		require.NoError(t, os.WriteFile(p, old, 0o600))
		done := make(chan error, 1)
		go func() {
			_, err := Pi(p, Options{})
			done <- err
		}()
		time.Sleep(20 * time.Millisecond)
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = f.Write(line)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		err = <-done
		got, _ := os.ReadFile(p)
		if err == nil {
			// repair finished before the append: the append must still be there.
			require.True(t, bytes.HasSuffix(got, line), "append lost after a finished repair")
			require.NoError(t, os.RemoveAll(dir)) // one try's files at a time on disk
			continue
		}
		require.ErrorIs(t, err, safewrite.ErrChanged)
		require.Equal(t, append(append([]byte(nil), old...), line...), got, "file changed by an aborted repair")
		baks, _ := filepath.Glob(p + ".sessctl-*.bak")
		require.Empty(t, baks, "an aborted repair left a backup")
		return
	}
	t.Fatal("the append never landed inside the repair window in 5 tries")
}
