package pi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

// TestPlainKey holds plainKey to noBackslash and utf8.Valid for every
// length up to 40, with a backslash or a non-ASCII byte (a valid
// character, an encoded surrogate ED A0 80, a lone 0xff) at every place.
func TestPlainKey(t *testing.T) {
	inserts := [][]byte{{'\\'}, []byte("é"), []byte("😀"), {0xed, 0xa0, 0x80}, {0xff}, {0x80}, []byte("\ufffd")}
	for n := 0; n <= 40; n++ {
		for _, f := range []byte{'a', '0', 0x7f, 0x5c ^ 0x80} {
			for _, ins := range append(inserts, nil) {
				for at := 0; at <= n; at++ {
					if ins == nil && at > 0 {
						break
					}
					b := bytes.Repeat([]byte{f}, n)
					b = append(b[:at:at], append(append([]byte(nil), ins...), b[at:]...)...)
					if got, want := plainKey(b), noBackslash(b) && utf8.Valid(b); got != want {
						t.Fatalf("plainKey(%q) = %v, want %v", b, got, want)
					}
				}
			}
		}
	}
}

// surrogateSession is a pi session whose ids JSON.parse tells apart where
// encoding/json does not: "\ud800" and "\ud801" (lone surrogates, U+FFFD
// both to encoding/json) are two branch points under r0, each with a child
// naming it by the same escape; and one id the agent finds under two
// spellings, "\ud83d\ude00" escaped and the raw UTF-8 emoji.
func surrogateSession(extra ...string) []byte {
	lines := []string{
		`{"type":"session","version":3,"id":"01a08c9d-0000-4000-8000-000000000001","timestamp":"2026-09-10T18:39:01.496Z","cwd":"/home/dev/x"}`,
		surrogateMsg(`"r0"`, `null`, "user", 1),
		surrogateMsg(`"\ud800"`, `"r0"`, "assistant", 2),
		surrogateMsg(`"\ud801"`, `"r0"`, "assistant", 3),
		surrogateMsg(`"c1"`, `"\ud800"`, "user", 4),
		surrogateMsg(`"c2"`, `"\ud801"`, "user", 5),
		surrogateMsg(`"\ud83d\ude00"`, `"c2"`, "assistant", 6),
		surrogateMsg(`"c3"`, "\"\U0001F600\"", "user", 7),
	}
	return []byte(strings.Join(append(lines, extra...), "\n") + "\n")
}

func surrogateMsg(id, parent, role string, n int) string {
	msg := fmt.Sprintf(`{"role":"user","content":"message %d","timestamp":%d}`, n, 1789065616000+n)
	if role == "assistant" {
		msg = fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":"message %d"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":%d}`, n, 1789065616000+n)
	}
	return fmt.Sprintf(`{"type":"message","id":%s,"parentId":%s,"timestamp":"2026-09-10T18:50:%02d.000Z","message":%s}`, id, parent, n, msg)
}

// openAllWays opens the file at p with the serial index pass and the
// parallel one (whole chunks and 64-byte chunks, lines straddling them),
// which must agree, and returns the serial one's File.
func openAllWays(t *testing.T, p string) *File {
	t.Helper()
	defer func() { serialIndex, indexChunkSize = false, 0 }()
	serialIndex = true
	a, err := Open(p, Options{})
	require.NoError(t, err)
	serialIndex = false
	for _, chunk := range []int{0, 64} {
		indexChunkSize = chunk
		b, err := Open(p, Options{})
		require.NoError(t, err)
		require.Equal(t, indexSummary(a), indexSummary(b), "chunk %d", chunk)
	}
	return a
}

func writeSession(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(p, b, 0o600))
	return p
}

// parentLine is the line of entry id's parent (0: a root), id a key.
func parentLine(t *testing.T, f *File, id string) int {
	t.Helper()
	i, ok := f.Index.Lookup(id)
	require.True(t, ok, "no entry %q", id)
	p := f.Index.Parent(i)
	if p == tree.None {
		return 0
	}
	return int(f.Line(p))
}

// TestSurrogateIDsApart: ids "\ud800" and "\ud801" are two entries, as to
// the agent (JSON.parse keeps lone surrogates): no duplicate-id, no
// self-parent, each child under its own parent, the escaped and the raw
// emoji one id; check finds nothing, the listing no orphan, and tree
// --json writes the ids back as JSON.stringify does.
func TestSurrogateIDsApart(t *testing.T) {
	p := writeSession(t, surrogateSession())
	f := openAllWays(t, p)
	require.Empty(t, f.Problems)
	require.Empty(t, f.Check(CheckOptions{}))
	require.Empty(t, f.Index.Duplicates())
	require.Equal(t, 7, f.Index.Len())
	hi, _ := jsonl.KeyString([]byte(`"\ud800"`))
	lo, _ := jsonl.KeyString([]byte(`"\ud801"`))
	require.NotEqual(t, hi, lo)
	for id, want := range map[string]int{"r0": 0, hi: 2, lo: 2, "c1": 3, "c2": 4, "\U0001F600": 6, "c3": 7} {
		require.Equal(t, want, parentLine(t, f, id), "parent of %q", id)
	}

	li, err := ReadListInfo(p)
	require.NoError(t, err)
	require.Zero(t, li.Problems[problem.Orphan], "%v", li.Problems)
	require.Equal(t, 7, li.Entries)

	var out bytes.Buffer
	require.NoError(t, f.WriteTreeJSON(&out, tree.None))
	var tr struct {
		Nodes []struct {
			ID       string   `json:"id"`
			ParentID *string  `json:"parentId"`
			Children []string `json:"children"`
		} `json:"nodes"`
		Duplicates []string `json:"duplicates"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &tr), out.String())
	require.Contains(t, out.String(), `{"id":"\ud800","parentId":"r0"`)
	require.Contains(t, out.String(), `{"id":"c2","parentId":"\ud801"`)
	require.Contains(t, out.String(), `"children":["\ud800","\ud801"]`)
	require.Empty(t, tr.Duplicates)
}

// TestSurrogateIDsEqual: ids JavaScript calls equal stay one key: a
// repeated "\ud800" (spelled \uD800 the second time) is a duplicate, and
// one id points at itself; raw bytes ED A0 80 (invalid UTF-8: U+FFFD
// three times to the agent) are not "\ud800" but are "\ufffd\ufffd\ufffd".
func TestSurrogateIDsEqual(t *testing.T) {
	p := writeSession(t, surrogateSession(
		surrogateMsg(`"\uD800"`, `"c3"`, "assistant", 8),
		surrogateMsg("\"\xed\xa0\x80\"", `"\ud800"`, "user", 9),
		surrogateMsg(`"c4"`, `"\ufffd\ufffd\ufffd"`, "assistant", 10),
		surrogateMsg(`"\udc00x"`, `"\udc00\u0078"`, "user", 11),
	))
	f := openAllWays(t, p)
	c := codes(f.Check(CheckOptions{}))
	require.Equal(t, 1, c[problem.DuplicateID], "%v", c)
	require.Equal(t, 1, c[problem.SelfParent], "%v", c)
	hi, _ := jsonl.KeyString([]byte(`"\ud800"`))
	require.Equal(t, []string{hi}, f.Index.Duplicates())
	require.Equal(t, 9, parentLine(t, f, "\ufffd\ufffd\ufffd"), "the raw ED A0 80 id's parent is the last \\ud800")
	require.Equal(t, 10, parentLine(t, f, "c4"), "c4's parent is the raw ED A0 80 id")
}

// TestSurrogateToolCallIDs: a tool call and a result pair by id as the
// agent pairs them: "\ud800" answers "\ud800" only, not "\ud801".
func TestSurrogateToolCallIDs(t *testing.T) {
	call := func(id string, callID string) string {
		return fmt.Sprintf(`{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-09-10T18:51:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":%s,"name":"bash","arguments":{}}],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1789065617000}}`, id, "c3", callID)
	}
	result := func(id, parent, callID string) string {
		return fmt.Sprintf(`{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-09-10T18:51:01.000Z","message":{"role":"toolResult","toolCallId":%s,"toolName":"bash","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":1789065618000}}`, id, parent, callID)
	}
	for _, c := range []struct {
		call, result string
		paired       bool
	}{
		{`"\ud800"`, `"\ud800"`, true},
		{`"\ud800"`, `"\uD800"`, true},
		{`"\ud83d\ude00"`, "\"\U0001F600\"", true},
		{`"\ud800"`, `"\ud801"`, false},
		{`"\ud800"`, "\"\xed\xa0\x80\"", false},
	} {
		p := writeSession(t, surrogateSession(call("t1", c.call), result("t2", "t1", c.result)))
		f := openAllWays(t, p)
		got := codes(f.Check(CheckOptions{}))
		if c.paired {
			require.Empty(t, got, "call %s, result %s", c.call, c.result)
		} else {
			require.Equal(t, 1, got[CodeToolCallNoResult], "call %s, result %s: %v", c.call, c.result, got)
			require.Equal(t, 1, got[CodeToolResultNoCall], "call %s, result %s: %v", c.call, c.result, got)
		}
	}
}
