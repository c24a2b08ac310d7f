package formats

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/memtest"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawSniff is SniffFile's decision as it was made before the second look
// stopped holding long lines: every format asked about the file's first
// SniffMaxBytes bytes as they are.
func rawSniff(t *testing.T, r *sessfmt.Registry, p string) string {
	t.Helper()
	fh, err := os.Open(p)
	require.NoError(t, err)
	defer fh.Close()
	head, err := io.ReadAll(io.LimitReader(fh, sessfmt.SniffMaxBytes))
	require.NoError(t, err)
	name, _ := r.SniffHead(p, head)
	return name
}

// A file whose first lines are longer than the sniff head is sniffed on
// an elided copy of them, with the decision made on the raw bytes: lines
// that are valid objects (with long strings, a BOM, CRLF), lines that are
// not (a bad escape or a raw control byte inside a long string, a long
// array, a long blank line, a torn line), before short lines of each format.
func TestLongHeadSameSniff(t *testing.T) {
	r := New(nil)
	long := strings.Repeat(`x\n\"é→ `, sessfmt.SniffBytes/4)
	claudeLong := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","cwd":"/x","message":{"role":"user","content":"` + long + `"}}`
	piLong := `{"type":"message","id":"a0","parentId":null,"message":{"role":"user","content":[{"type":"text","text":"` + long + `"}]}}`
	acLong := `{"type":"user","id":"e0","timestamp":1700000000000,"content":"` + long + `"}`
	plainLong := `{"note":"` + long + `","n":[1,2,3]}`
	cases := []struct {
		name, dir, content, want string
	}{
		{"Claude line, long", "", lines(claudeLong), "claude"},
		{"pi entry, long, then Claude records", "", lines(piLong, claudeRec), "claude"},
		{"pi entries, long first", "", lines(piLong, piEntry, claudeRec), "pi"},
		{"pi header after a long line", "", lines(plainLong, piHeader, piEntry), "pi"},
		{"Agent Core, long", "", lines(acLong, acEntry), "agentcore"},
		{"BOM before a long Claude line", "", "\ufeff" + lines(claudeLong), "claude"},
		{"CRLF long line", "", strings.ReplaceAll(lines(claudeLong, claudeRec), "\n", "\r\n"), "claude"},
		{"bad escape in a long string is not a record", "", lines(strings.Replace(claudeLong, `x\n`, `x\q`, 1), piEntry), "pi"},
		{"raw tab in a long string is not a record", "", lines(strings.Replace(claudeLong, `x\n`, "x\t", 1), acEntry), "agentcore"},
		{"long array line", "", lines(`[`+strings.Repeat(`"ab",`, sessfmt.SniffBytes/5)+`"c"]`, claudeRec), "claude"},
		{"long blank line", "", lines(strings.Repeat(" ", sessfmt.SniffBytes+10), acEntry), "agentcore"},
		{"torn long line only, Claude folder", ".claude/projects/p", claudeLong[:len(claudeLong)-3], "claude"},
		{"long line of no format, pi folder", ".pi/agent/sessions/p", lines(plainLong, `{"x":1}`), "pi"},
		{"long line of no format anywhere", "elsewhere", lines(plainLong), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), c.dir)
			require.NoError(t, os.MkdirAll(dir, 0o755))
			p := filepath.Join(dir, "s.jsonl")
			require.NoError(t, os.WriteFile(p, []byte(c.content), 0o644))
			require.Equal(t, c.want, rawSniff(t, r, p), "the raw head's decision (the test's premise)")
			ref, err := r.SniffFile(p)
			if c.want == "" {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, ref.Format)
		})
	}
}

// A first line of 48 MiB (under SniffMaxBytes, so the raw head held all of
// it) is sniffed without being held.
func TestLongHeadNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 48 MiB file")
	}
	r := New(nil)
	p := filepath.Join(t.TempDir(), "s.jsonl")
	fh, err := os.Create(p)
	require.NoError(t, err)
	_, err = fh.WriteString(`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","cwd":"/x","message":{"role":"user","content":"`)
	require.NoError(t, err)
	chunk := bytes.Repeat([]byte(`output \"line\" `), 1<<16)
	for range (48 << 20) / len(chunk) {
		_, err = fh.Write(chunk)
		require.NoError(t, err)
	}
	_, err = fh.WriteString(`"}}` + "\n" + claudeRec + "\n")
	require.NoError(t, err)
	require.NoError(t, fh.Close())

	var ref sessfmt.Ref
	alloc := memtest.Allocated(func() { ref, err = r.SniffFile(p) })
	require.NoError(t, err)
	assert.Equal(t, "claude", ref.Format)
	assert.Less(t, alloc, uint64(8<<20), "SniffFile allocated %d bytes for a 48 MiB first line", alloc)
	assert.Equal(t, "claude", rawSniff(t, r, p))
}
