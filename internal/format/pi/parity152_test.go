package pi

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

// v152 is what testdata/pi/parity/v152/gen.mjs writes: pi 1.5.2's own
// contexts for its own sessions, hand-written files and every 0.73.1 case.
const v152 = "../../../testdata/pi/parity/v152"

type expected152 struct {
	File     string `json:"file"`
	HeaderOK bool   `json:"header_ok"`
	Cases    []struct {
		Leaf    *string         `json:"leaf"`
		Context json.RawMessage `json:"context"`
		Hangs   bool            `json:"hangs"`
		Throws  string          `json:"throws"`
	} `json:"cases"`
	SessionManagerContext json.RawMessage `json:"session_manager_context"`
	OpenError             string          `json:"open_error"`
}

// run152 compares every case of one expectation file with sessctl's
// context for the same leaf, read with opts; it returns the leaves compared.
func run152(t *testing.T, file string, exp *expected152, opts Options) int {
	t.Helper()
	f, err := Open(file, opts)
	require.NoError(t, err)
	if !exp.HeaderOK {
		require.Error(t, f.HeaderErr, "pi 1.5.2 does not load %s", exp.File)
		return 0
	}
	require.NoError(t, f.HeaderErr)
	n := 0
	for _, c := range exp.Cases {
		leaf := tree.None
		name := "default"
		if c.Leaf != nil {
			name = *c.Leaf
			if i, ok := f.Index.Lookup(*c.Leaf); ok {
				leaf = i
			}
		}
		ctx, err := f.BuildContext(leaf)
		require.NoError(t, err)
		show := showJSON(t, file, opts, leaf, f)
		switch {
		case c.Hangs:
			require.True(t, ctx.Cycle, "leaf %s: pi loops; sessctl must say so", name)
		case c.Throws != "":
			require.Contains(t, strings.Join(ctx.Warnings, "\n"), "pi 1.5.2 fails", "leaf %s: pi throws %q", name, c.Throws)
		default:
			want := c.Context
			if c.Leaf == nil && exp.SessionManagerContext != nil {
				want = exp.SessionManagerContext
			}
			require.Equal(t, decodeJSON(t, want), decodeJSON(t, contextJSON(ctx)), "leaf %s", name)
			require.Equal(t, decodeJSON(t, want), show, "show --json, leaf %s", name)
		}
		n++
	}
	return n
}

// showJSON is what `show --json` prints for the leaf (through the format
// registry's session, as the command does), without sessctl's own members
// (format, dialect, path, sessionId, leafId, warnings): the agent's context.
func showJSON(t *testing.T, file string, opts Options, leaf int, f *File) any {
	t.Helper()
	o := sessfmt.OpenOptions{Dialect: string(opts.Dialect)}
	if opts.PiVersion == Pi073 {
		o.Dialect = "pi-0.73"
	}
	if leaf != tree.None {
		o.Leaf = f.DisplayID(leaf)
	}
	s, err := OpenSession(sessfmt.Ref{Path: file}, file, o)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, s.WriteContextJSON(&b, sessfmt.ContextOptions{}))
	v := decodeJSON(t, b.Bytes()).(map[string]any)
	for _, k := range []string{"format", "dialect", "path", "sessionId", "leafId", "warnings"} {
		delete(v, k)
	}
	return v
}

func globExpected(t *testing.T, pattern string) []string {
	files, err := filepath.Glob(pattern)
	require.NoError(t, err)
	if len(files) == 0 {
		t.Skipf("no fixtures match %s", pattern)
	}
	return files
}

func readExpected152(t *testing.T, path string) *expected152 {
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var exp expected152
	require.NoError(t, json.Unmarshal(raw, &exp), path)
	return &exp
}

// TestParityPi152 compares with pi 1.5.2 on sessions 1.5.2 wrote itself
// (context_edit, system messages, usage, compaction systemMessage, …).
func TestParityPi152(t *testing.T) {
	files, leaves := 0, 0
	for _, ef := range globExpected(t, filepath.Join(v152, "expected", "*.json")) {
		exp := readExpected152(t, ef)
		t.Run(exp.File, func(t *testing.T) {
			leaves += run152(t, filepath.Join(v152, "sessions", exp.File), exp, Options{Dialect: DialectPi})
		})
		files++
	}
	t.Logf("pi 1.5.2 sessions: %d files, %d contexts equal", files, leaves)
}

// TestParityPi152Hand compares with pi 1.5.2 on hand-written files.
func TestParityPi152Hand(t *testing.T) {
	files, n := 0, 0
	for _, ef := range globExpected(t, filepath.Join(v152, "hand", "*.expected.json")) {
		exp := readExpected152(t, ef)
		t.Run(exp.File, func(t *testing.T) {
			n += run152(t, filepath.Join(v152, "hand", exp.File), exp, Options{Dialect: DialectPi})
		})
		files++
	}
	t.Logf("hand-written: %d files, %d cases agree with pi 1.5.2", files, n)
}

// TestParityPi152Rerun compares with pi 1.5.2 on every 0.73.1 fixture.
func TestParityPi152Rerun(t *testing.T) {
	for _, kind := range []string{"sessions", "damaged"} {
		src := "../../../testdata/pi/parity/" + kind
		n := 0
		for _, ef := range globExpected(t, filepath.Join(v152, "rerun", kind, "*.json")) {
			exp := readExpected152(t, ef)
			t.Run(kind+"/"+exp.File, func(t *testing.T) {
				n += run152(t, filepath.Join(src, exp.File), exp, Options{Dialect: DialectPi})
			})
		}
		t.Logf("%s: %d contexts equal to pi 1.5.2", kind, n)
	}
}
