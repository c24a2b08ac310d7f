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

	"github.com/stretchr/testify/require"
)

// bigDamagedClaude makes a ~10 MB Claude Code transcript with damage all
// through it (garbage lines, NUL runs, dangling parents, a torn tail).
func bigDamagedClaude() []byte {
	var b bytes.Buffer
	pad := strings.Repeat("x", 2000)
	parent := "null"
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 5000; i++ {
		id := fmt.Sprintf("%08x-0000-4000-8000-000000000000", i)
		if i%701 == 0 && i > 0 {
			parent = `"deadbeef-0000-4000-8000-000000000000"` // a deleted parent
		}
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/tmp","sessionId":"s","version":"2.1.70","type":"user","message":{"role":"user","content":"%s"},"uuid":"%s","timestamp":"%s"}`+"\n",
			parent, pad, id, t0.Add(time.Duration(i)*time.Second).Format("2006-01-02T15:04:05.000Z"))
		parent = `"` + id + `"`
		if i%997 == 0 {
			b.WriteString("garbage line\n")
		}
		if i%1499 == 0 {
			b.Write(bytes.Repeat([]byte{0}, 300))
			b.WriteByte('\n')
		}
	}
	b.WriteString(`{"parentUuid":"torn`)
	return b.Bytes()
}

// TestClaudeRepairSurvivesSIGKILL kills `sessctl repair` on a Claude Code
// transcript at random moments: the file is always exactly the old or
// exactly the new content, and a backup is always the whole old file.
func TestClaudeRepairSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it many times")
	}
	bin := buildSessctl(t)
	old := bigDamagedClaude()
	ref := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(ref, old, 0o600))
	start := time.Now()
	out, err := exec.Command(bin, "repair", "--no-backup", ref).CombinedOutput()
	require.NoError(t, err, "%s", out)
	full := time.Since(start)
	require.Contains(t, string(out), "relinked")
	want, err := os.ReadFile(ref)
	require.NoError(t, err)
	require.NotEqual(t, old, want)

	const kills = 25
	rng := rand.New(rand.NewSource(11))
	sawOld, sawNew := 0, 0
	for i := 0; i < kills; i++ {
		p := filepath.Join(t.TempDir(), "s.jsonl")
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
	}
	t.Logf("after %d kills: %d old, %d new (a full repair takes %s)", kills, sawOld, sawNew, full)
}
