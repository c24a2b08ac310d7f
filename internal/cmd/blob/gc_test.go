package blob

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/blob"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture is an oh-my-pi agent dir under a fake HOME.
type fixture struct {
	home, agent, blobs, sessions string
}

func newFixture(t *testing.T) *fixture {
	home := t.TempDir()
	agent := filepath.Join(home, ".omp", "agent")
	fx := &fixture{home: home, agent: agent, blobs: filepath.Join(agent, "blobs"), sessions: filepath.Join(agent, "sessions")}
	require.NoError(t, os.MkdirAll(fx.blobs, 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(fx.sessions, "-p"), 0o755))
	return fx
}

// put stores content as a blob with the given age and returns its hash.
func (fx *fixture) put(t *testing.T, content string, age time.Duration) blob.Hash {
	h := blob.Sum([]byte(content))
	p := filepath.Join(fx.blobs, h.String())
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	old := time.Now().Add(-age)
	require.NoError(t, os.Chtimes(p, old, old))
	return h
}

func (fx *fixture) session(t *testing.T, name string, hs ...blob.Hash) {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n")
	for _, h := range hs {
		fmt.Fprintf(&b, `{"type":"message","message":{"role":"user","content":[{"type":"image","data":"%s"}]}}`+"\n", h.Ref())
	}
	require.NoError(t, os.WriteFile(filepath.Join(fx.sessions, "-p", name), []byte(b.String()), 0o644))
}

func (fx *fixture) exists(h blob.Hash) bool {
	_, err := os.Lstat(filepath.Join(fx.blobs, h.String()))
	return err == nil
}

func runGC(t *testing.T, fx *fixture, tty bool, set func(*GCOptions)) (string, string, error) {
	io, _, out, errOut := iostreams.Test()
	io.SetStdoutTTY(tty)
	f := &cmdutil.Factory{IO: io, Getenv: func(k string) string {
		if k == "HOME" {
			return fx.home
		}
		return ""
	}}
	opts := &GCOptions{IO: io, Factory: f, Grace: time.Hour}
	if set != nil {
		set(opts)
	}
	err := RunGC(opts)
	return out.String(), errOut.String(), err
}

func TestGCDryRunThenApply(t *testing.T) {
	fx := newFixture(t)
	used := fx.put(t, "used", 3*time.Hour)
	old := fx.put(t, "old", 3*time.Hour)
	young := fx.put(t, "young", time.Minute)
	fx.session(t, "s.jsonl", used)

	out, _, err := runGC(t, fx, false, nil)
	require.NoError(t, err)
	assert.Contains(t, out, "blobs: 1 referenced, 1 in grace (newer than 1h), 1 to delete")
	assert.Contains(t, out, old.String())
	assert.NotContains(t, out, young.String())
	assert.Contains(t, out, "nothing was deleted (dry run); rerun with --apply")
	assert.True(t, fx.exists(old), "a dry run deletes nothing")

	out, _, err = runGC(t, fx, false, func(o *GCOptions) { o.Apply = true })
	require.NoError(t, err)
	assert.Contains(t, out, "deleted 1 blob (1 file), freed 3 B")
	assert.False(t, fx.exists(old))
	assert.True(t, fx.exists(used))
	assert.True(t, fx.exists(young))
}

func TestGCUnreadableBlocksAndIgnore(t *testing.T) {
	fx := newFixture(t)
	used := fx.put(t, "used", 3*time.Hour)
	old := fx.put(t, "old", 3*time.Hour)
	fx.session(t, "s.jsonl", used)
	// A damaged gzip archive: its references cannot be known.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat(`{"data":"`+old.Ref()+`"}`+"\n", 100)))
	zw.Close()
	bad := filepath.Join(fx.sessions, "-p", "old.jsonl.gz")
	require.NoError(t, os.WriteFile(bad, gz.Bytes()[:gz.Len()/2], 0o644))

	out, _, err := runGC(t, fx, false, func(o *GCOptions) { o.Apply = true })
	assert.ErrorIs(t, err, cmdutil.SilentError)
	assert.Equal(t, cmdutil.ExitError, cmdutil.ExitCode(err))
	assert.Contains(t, out, "old.jsonl.gz: ")
	assert.Contains(t, out, "nothing was deleted")
	assert.True(t, fx.exists(old))

	out, _, err = runGC(t, fx, false, func(o *GCOptions) { o.Apply, o.IgnoreUnreadable, o.JSON = true, true, true })
	require.NoError(t, err)
	var res GCResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.Len(t, res.Stores, 1)
	s := res.Stores[0]
	assert.True(t, s.IgnoredUnreadable)
	require.Len(t, s.Unreadable, 1)
	assert.Equal(t, bad, s.Unreadable[0].Path)
	require.NotNil(t, s.Applied)
	assert.Equal(t, []blob.Hash{old}, s.Applied.Deleted)
	assert.False(t, fx.exists(old))
}

func TestGCNoSessionsIsBlocked(t *testing.T) {
	fx := newFixture(t)
	old := fx.put(t, "old", 3*time.Hour)
	out, _, err := runGC(t, fx, false, func(o *GCOptions) { o.Apply = true })
	assert.ErrorIs(t, err, cmdutil.SilentError)
	assert.Contains(t, out, "no session file was found")
	assert.True(t, fx.exists(old))
	_, _, err = runGC(t, fx, false, func(o *GCOptions) { o.Apply, o.AllowNoSessions = true, true })
	require.NoError(t, err)
	assert.False(t, fx.exists(old))
}

func TestGCTerminalListIsCut(t *testing.T) {
	fx := newFixture(t)
	fx.session(t, "s.jsonl")
	for i := 0; i < 25; i++ {
		fx.put(t, fmt.Sprint("blob ", i), 3*time.Hour)
	}
	out, _, err := runGC(t, fx, true, nil)
	require.NoError(t, err)
	assert.Contains(t, out, "… 5 more (--all lists them)")
	assert.Equal(t, 20, strings.Count(out, " old"))
	out, _, err = runGC(t, fx, true, func(o *GCOptions) { o.All = true })
	require.NoError(t, err)
	assert.Equal(t, 25, strings.Count(out, " old"))
	out, _, err = runGC(t, fx, false, nil)
	require.NoError(t, err)
	assert.Equal(t, 25, strings.Count(out, " old"), "not a terminal: everything is listed")
}

func TestGCNoStore(t *testing.T) {
	io, _, out, errOut := iostreams.Test()
	f := &cmdutil.Factory{IO: io, Getenv: func(k string) string {
		if k == "HOME" {
			return t.TempDir()
		}
		return ""
	}}
	require.NoError(t, RunGC(&GCOptions{IO: io, Factory: f, Grace: time.Hour}))
	assert.Empty(t, out.String())
	assert.Contains(t, errOut.String(), "no blob store found")
}

func TestShortDurationAndAge(t *testing.T) {
	assert.Equal(t, "1h", shortDuration(time.Hour))
	assert.Equal(t, "1h30m", shortDuration(90*time.Minute))
	assert.Equal(t, "5m", shortDuration(5*time.Minute))
	assert.Equal(t, "45s", shortDuration(45*time.Second))
	assert.Equal(t, "0s", shortDuration(0))
	assert.Equal(t, "3d", age(72*time.Hour))
	assert.Equal(t, "5h", age(5*time.Hour))
	assert.Equal(t, "12m", age(12*time.Minute))
}
