package pi

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

// expectedFile is what testdata/pi/parity/gen.mjs writes: the contexts pi's
// own buildSessionContext returned for the default leaf (leaf null) and
// other leaves.
type expectedFile struct {
	File  string `json:"file"`
	Cases []struct {
		Leaf    *string         `json:"leaf"`
		Context json.RawMessage `json:"context"`
		Hangs   bool            `json:"hangs"`
	} `json:"cases"`
}

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v), "%s", b)
	return v
}

// contextJSON renders the agent-visible part of a context (messages and the
// dialect's fields) as the agent's JSON.stringify would.
func contextJSON(ctx *Context) []byte {
	var b bytes.Buffer
	b.WriteString(`{"messages":[`)
	for i, m := range ctx.Messages {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
	}
	b.WriteByte(']')
	for _, f := range ctx.Fields {
		if f.Value == nil {
			continue
		}
		k, _ := json.Marshal(f.Key)
		b.WriteByte(',')
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func runParity(t *testing.T, sessions, expected string, dialect Dialect) {
	runParityOpts(t, sessions, expected, Options{Dialect: dialect})
}

func runParityOpts(t *testing.T, sessions, expected string, opts Options) {
	files, err := filepath.Glob(filepath.Join(expected, "*.json"))
	require.NoError(t, err)
	if len(files) == 0 {
		t.Skipf("no parity fixtures in %s", expected)
	}
	cases := 0
	for _, ef := range files {
		raw, err := os.ReadFile(ef)
		require.NoError(t, err)
		var exp expectedFile
		require.NoError(t, json.Unmarshal(raw, &exp), ef)
		t.Run(exp.File, func(t *testing.T) {
			f, err := Open(filepath.Join(sessions, exp.File), opts)
			require.NoError(t, err)
			require.NoError(t, f.HeaderErr)
			for _, c := range exp.Cases {
				if c.Hangs {
					continue
				}
				leaf := tree.None
				name := "default"
				if c.Leaf != nil {
					name = *c.Leaf
					if i, ok := f.Index.Lookup(*c.Leaf); ok {
						leaf = i
					} // else: pi falls back to the last entry, as tree.None does
				}
				ctx, err := f.BuildContext(leaf)
				require.NoError(t, err)
				got := decodeJSON(t, contextJSON(ctx))
				want := decodeJSON(t, c.Context)
				require.Equal(t, want, got, "leaf %s", name)
				cases++
			}
		})
	}
	t.Logf("%d contexts compared", cases)
}

// TestParityPi runs the 0.73.1 suite in the default (1.5.2) mode, which
// gives the same contexts on these files (testdata/pi/parity/v152/rerun
// proves it with 1.5.2 itself), and in the 0.73 mode.
func TestParityPi(t *testing.T) {
	runParity(t, "../../../testdata/pi/parity/sessions", "../../../testdata/pi/parity/expected", DialectPi)
	t.Run("pi-0.73", func(t *testing.T) {
		runParityOpts(t, "../../../testdata/pi/parity/sessions", "../../../testdata/pi/parity/expected", Options{Dialect: DialectPi, PiVersion: Pi073})
	})
}

func TestParityPiDamaged(t *testing.T) {
	dir := "../../../testdata/pi/parity/damaged"
	files, _ := filepath.Glob(filepath.Join(dir, "*.expected.json"))
	if len(files) == 0 {
		t.Skip("no damaged fixtures")
	}
	for _, ef := range files {
		raw, err := os.ReadFile(ef)
		require.NoError(t, err)
		var exp struct {
			expectedFile
			// What resuming through SessionManager gives, when it differs
			// from buildSessionContext without a leaf.
			SessionManagerContext json.RawMessage `json:"session_manager_context"`
		}
		require.NoError(t, json.Unmarshal(raw, &exp))
		name := strings.TrimSuffix(filepath.Base(ef), ".expected.json")
		t.Run(name, func(t *testing.T) {
			// These are 0.73.1's results: bom.jsonl is the one file 1.5.2
			// reads differently (TestParityPi152Rerun), so the 0.73 mode.
			f, err := Open(filepath.Join(dir, exp.File), Options{Dialect: DialectPi, PiVersion: Pi073})
			require.NoError(t, err)
			for _, c := range exp.Cases {
				if c.Hangs {
					// pi would loop forever; we must terminate and say so.
					leaf := tree.None
					if c.Leaf != nil {
						var ok bool
						leaf, ok = f.Index.Lookup(*c.Leaf)
						require.True(t, ok)
					}
					ctx, err := f.BuildContext(leaf)
					require.NoError(t, err)
					require.True(t, ctx.Cycle, "a hanging case must be reported as a cycle")
					continue
				}
				if f.HeaderErr != nil {
					// pi loads nothing from a file without a valid header.
					require.JSONEq(t, `{"messages":[],"thinkingLevel":"off","model":null}`, string(c.Context))
					continue
				}
				leaf := tree.None
				want := c.Context
				if c.Leaf != nil {
					var ok bool
					leaf, ok = f.Index.Lookup(*c.Leaf)
					require.True(t, ok)
				} else if exp.SessionManagerContext != nil {
					want = exp.SessionManagerContext // show follows what the agent resumes
				}
				ctx, err := f.BuildContext(leaf)
				require.NoError(t, err)
				require.Equal(t, decodeJSON(t, want), decodeJSON(t, contextJSON(ctx)))
			}
		})
	}
}
