package blob

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// execute runs a command built on fake IO with argv; the error is what the
// root command would turn into an exit code.
func execute(t *testing.T, build func(f *cmdutil.Factory) any, argv ...string) error {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IO: ios, Getenv: func(string) string { return "" }}
	c := build(f)
	cmd := c.(interface {
		SetArgs([]string)
		Execute() error
	})
	cmd.SetArgs(argv)
	return cmd.Execute()
}

func TestNewGCCmdFlags(t *testing.T) {
	var got *GCOptions
	build := func(f *cmdutil.Factory) any {
		c := NewGCCmd(f, func(o *GCOptions) error { got = o; return nil })
		c.SilenceErrors, c.SilenceUsage = true, true
		return c
	}
	require.NoError(t, execute(t, build, "--grace", "30m", "--apply", "--store", "/s", "--sessions-dir", "/a", "--sessions-dir", "/b", "-v"))
	require.NotNil(t, got)
	assert.Equal(t, 30*time.Minute, got.Grace)
	assert.True(t, got.Apply)
	assert.Equal(t, "/s", got.Store)
	assert.Equal(t, []string{"/a", "/b"}, got.SessionsDirs)
	assert.True(t, got.Verbose)
	assert.True(t, got.All, "--verbose implies --all")

	got = nil
	require.NoError(t, execute(t, build))
	assert.Equal(t, time.Hour, got.Grace, "default grace")
	assert.False(t, got.Apply, "a dry run by default")

	got = nil
	err := execute(t, build, "--grace", "-1h")
	var fe *cmdutil.FlagError
	require.True(t, errors.As(err, &fe), "negative grace is a usage error: %v", err)
	assert.Nil(t, got)

	err = execute(t, build, "extra")
	require.Error(t, err, "blob-gc takes no argument")
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
}

func TestNewVerifyCmdFlags(t *testing.T) {
	var got *VerifyOptions
	build := func(f *cmdutil.Factory) any {
		c := NewVerifyCmd(f, func(o *VerifyOptions) error { got = o; return nil })
		c.SilenceErrors, c.SilenceUsage = true, true
		return c
	}
	require.NoError(t, execute(t, build, "--all", "--store", "/s", "a.jsonl", "b"))
	require.NotNil(t, got)
	assert.True(t, got.All)
	assert.Equal(t, "/s", got.Store)
	assert.Equal(t, []string{"a.jsonl", "b"}, got.Sessions)
}

// The blob parent command routes to its subcommands and refuses others.
func TestBlobParentRoutes(t *testing.T) {
	var gc, verify bool
	build := func(f *cmdutil.Factory) any {
		c := NewCmd(f, func(*GCOptions) error { gc = true; return nil }, func(*VerifyOptions) error { verify = true; return nil })
		c.SilenceErrors, c.SilenceUsage = true, true
		return c
	}
	require.NoError(t, execute(t, build, "gc"))
	assert.True(t, gc)
	require.NoError(t, execute(t, build, "verify"))
	assert.True(t, verify)
	err := execute(t, build, "bogus")
	require.Error(t, err)
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
}

func runVerify(t *testing.T, fx *fixture, set func(*VerifyOptions)) (string, string, error) {
	t.Helper()
	io, _, out, errOut := iostreams.Test()
	getenv := func(k string) string {
		if k == "HOME" {
			return fx.home
		}
		return ""
	}
	f := &cmdutil.Factory{IO: io, Getenv: getenv, Registry: formats.New(getenv)}
	opts := &VerifyOptions{IO: io, Factory: f}
	if set != nil {
		set(opts)
	}
	err := RunVerify(opts)
	return out.String(), errOut.String(), err
}

// verify over the whole store: a blob whose bytes do not match its name is
// corrupt (exit 3); a session naming a blob that is gone makes it missing.
func TestVerifyStoreAndSessions(t *testing.T) {
	fx := newFixture(t)
	good := fx.put(t, "good", time.Hour)
	bad := fx.put(t, "bad", time.Hour)
	require.NoError(t, os.WriteFile(filepath.Join(fx.blobs, bad.String()), []byte("tampered"), 0o644))
	out, _, err := runVerify(t, fx, nil)
	assert.ErrorIs(t, err, cmdutil.ErrProblems)
	assert.Contains(t, out, "2 files checked: 1 ok, 1 corrupt")
	assert.Contains(t, out, bad.String())
	assert.NotContains(t, out, good.String(), "ok blobs are listed only with --all")

	out, _, err = runVerify(t, fx, func(o *VerifyOptions) { o.All = true })
	assert.ErrorIs(t, err, cmdutil.ErrProblems)
	assert.Contains(t, out, good.String())

	// Only what one session references: the good blob and one that is gone.
	gone := fx.put(t, "gone", time.Hour)
	require.NoError(t, os.Remove(filepath.Join(fx.blobs, gone.String())))
	fx.session(t, "s.jsonl", good, gone)
	sess := filepath.Join(fx.sessions, "-p", "s.jsonl")
	out, _, err = runVerify(t, fx, func(o *VerifyOptions) { o.Sessions = []string{sess}; o.JSON = true })
	assert.ErrorIs(t, err, cmdutil.ErrProblems)
	var rep VerifyReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	require.Len(t, rep.Stores, 1)
	assert.Equal(t, 1, rep.Problems)
	assert.Equal(t, 1, rep.Stores[0].Counts["missing"])
	assert.Equal(t, 1, rep.Stores[0].Counts["ok"])
	for _, r := range rep.Stores[0].Results {
		assert.Equal(t, []string{sess}, r.Sessions, "each result names the session referencing it")
	}

	// A session that does not exist is reported, exit 1.
	out, _, err = runVerify(t, fx, func(o *VerifyOptions) { o.Sessions = []string{filepath.Join(fx.sessions, "nope.jsonl")} })
	assert.ErrorIs(t, err, cmdutil.SilentError)
	assert.True(t, strings.Contains(out, "cannot check"), out)
}

// Issue 15 item 3: a reference list prints for a store session is accepted
// and answered "not supported for this agent" (it holds no blob refs).
func TestVerifyStoreSessionUnsupported(t *testing.T) {
	db, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "opencode", "real", "opencode.db"))
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "opencode.db")
	require.NoError(t, os.WriteFile(p, db, 0o644))
	fx := newFixture(t)
	io, _, out, _ := iostreams.Test()
	getenv := func(k string) string {
		if k == "HOME" {
			return fx.home
		}
		return ""
	}
	f := &cmdutil.Factory{IO: io, Getenv: getenv, Registry: formats.New(getenv)}
	err = RunVerify(&VerifyOptions{IO: io, Factory: f, Sessions: []string{p + "#ses_7e5f3a9b1c01Aa1Bb2Cc3Dd4Ee"}})
	assert.ErrorIs(t, err, cmdutil.SilentError)
	assert.Contains(t, out.String(), "not supported for this agent")
	assert.NotContains(t, out.String(), "no such file")
}
