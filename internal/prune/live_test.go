package prune

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/agentlock"
	"github.com/stretchr/testify/require"
)

// TestMain doubles as a helper process: with PRUNE_TEST_HOLD set it opens
// that file, says "ready" and sleeps until killed.
func TestMain(m *testing.M) {
	if p := os.Getenv("PRUNE_TEST_HOLD"); p != "" {
		f, err := os.Open(p)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		defer f.Close()
		fmt.Println("ready")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestLiveOpenFile: a file held open by another running process makes
// the session live; once the process is gone it is not.
func TestLiveOpenFile(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc")
	}
	p := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(p, []byte("{}\n"), 0o600))
	old := time.Now().Add(-3 * time.Hour)
	require.NoError(t, os.Chtimes(p, old, old))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PRUNE_TEST_HOLD="+p)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, _ := bufio.NewReader(out).ReadString('\n')
	require.Equal(t, "ready", strings.TrimSpace(line))
	why := NewLive(nil, time.Hour, time.Now()).Why("pi", "x", []string{p})
	require.Contains(t, why, fmt.Sprintf("process %d has %s open", cmd.Process.Pid, p))
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()
	require.Empty(t, NewLive(nil, time.Hour, time.Now()).Why("pi", "x", []string{p}))
}

// TestLiveLock: a live oh-my-pi lock (held by this process's pid) makes
// the session live; a Claude Code sessions/<pid>.json of a live pid does
// too, of a dead pid not.
func TestLiveLock(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, []byte("{}\n"), 0o600))
	old := time.Now().Add(-3 * time.Hour)
	require.NoError(t, os.Chtimes(p, old, old))
	lock := agentlock.OMPLockPath(p)
	require.NoError(t, os.WriteFile(lock, []byte(fmt.Sprintf("%d:%d\n", os.Getpid(), time.Now().UnixMilli())), 0o600))
	require.Contains(t, NewLive(nil, time.Hour, time.Now()).Why("omp", "x", []string{p}), "locked by a running agent")
	require.NoError(t, os.Remove(lock))

	cfg := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(cfg, "sessions"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(cfg, "sessions", fmt.Sprintf("%d.json", os.Getpid())),
		[]byte(`{"pid":`+fmt.Sprint(os.Getpid())+`,"sessionId":"abc"}`), 0o600))
	require.Contains(t, NewLive([]string{cfg}, time.Hour, time.Now()).Why("claude", "abc", []string{p}), "Claude Code process")
	require.Empty(t, NewLive([]string{cfg}, time.Hour, time.Now()).Why("claude", "other", []string{p}))
}
