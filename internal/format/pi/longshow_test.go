package pi

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/memtest"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// drawSink prints a transcript as show does; it takes text references
// (model.TextRefTaker) only when refs is set.
type drawSink struct {
	w    io.Writer
	o    render.TranscriptOptions
	refs bool
}

func (k *drawSink) Header(lines []string) error {
	render.DrawTranscriptHeader(k.w, lines, k.o)
	return nil
}

func (k *drawSink) Message(m *model.Message) error { return render.WriteMessage(k.w, m, k.o) }

type refSink struct{ *drawSink }

func (k refSink) TakesTextRefs() bool { return true }

// transcript prints s's transcript into w, with text references or held.
func transcript(t testing.TB, s *Session, w io.Writer, o render.TranscriptOptions, refs bool) {
	t.Helper()
	var sink sessfmt.TranscriptSink = &drawSink{w: w, o: o}
	if refs {
		sink = refSink{&drawSink{w: w, o: o, refs: true}}
	}
	require.NoError(t, s.Transcript(sessfmt.ContextOptions{}, sink))
}

// TestLongLineShowNotHeld: show's human transcript of a session whose
// first message is one 64 MiB line (escapes, non-ASCII text, surrogate
// pairs) allocates a few MiB, not the line and its text (before: about
// 200 MiB for this 64 MiB line), and prints the same bytes as the held
// reading; show --json writes the stored message bytes without holding
// them, and the count of shown messages (Meta, used by show's header)
// does not hold the line either.
func TestLongLineShowNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB file")
	}
	const size = 64 << 20
	p := writeLongSession(t, size, false)
	open := func() *Session {
		s, err := OpenSession(sessfmt.Ref{Path: p}, p, sessfmt.OpenOptions{})
		require.NoError(t, err)
		return s
	}
	s := open()
	o := render.TranscriptOptions{Styles: render.Plain()}
	streamed := sha256.New()
	var n int64
	cw := &hashCounter{h: streamed, n: &n}
	sw := bufio.NewWriterSize(cw, 1<<16)
	a := memtest.Allocated(func() { transcript(t, s, sw, o, true) })
	sw.Flush()
	t.Logf("transcript with text references allocated %.1f MiB, printed %.1f MiB", float64(a)/(1<<20), float64(n)/(1<<20))
	assert.Less(t, a, uint64(16<<20), "show's transcript holds the long line")
	assert.Greater(t, n, int64(size/2), "the text was not printed")

	held := sha256.New()
	bw := bufio.NewWriterSize(held, 1<<16)
	transcript(t, open(), bw, o, false)
	bw.Flush()
	assert.Equal(t, held.Sum(nil), streamed.Sum(nil), "the transcript printed from the file differs from the held one")

	// show --json writes the stored message bytes, copied from the file.
	s = open()
	jw := sha256.New()
	var jn int64
	bw = bufio.NewWriterSize(&hashCounter{h: jw, n: &jn}, 1<<16)
	a = memtest.Allocated(func() { require.NoError(t, s.WriteContextJSON(bw, sessfmt.ContextOptions{})) })
	bw.Flush()
	t.Logf("show --json allocated %.1f MiB, wrote %.1f MiB", float64(a)/(1<<20), float64(jn)/(1<<20))
	assert.Less(t, a, uint64(16<<20), "show --json holds the long line")
	var out bytes.Buffer
	require.NoError(t, open().WriteContextJSON(&out, sessfmt.ContextOptions{}))
	sum := sha256.Sum256(out.Bytes())
	assert.Equal(t, sum[:], jw.Sum(nil), "show --json differs between two runs")
	var got struct{ Messages []json.RawMessage }
	require.NoError(t, json.Unmarshal(out.Bytes(), &got))
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	line := bytes.Split(data, []byte("\n"))[1]
	stored, _ := jsonl.Field(line, "message")
	require.Len(t, got.Messages, 2)
	assert.True(t, bytes.Equal(stored, got.Messages[0]), "show --json does not write the stored message")
	out.Reset()
	data, line, stored, got.Messages = nil, nil, nil, nil

	s = open()
	var m sessfmt.Meta
	a = memtest.Allocated(func() { m = s.Meta() })
	t.Logf("Meta allocated %.1f MiB", float64(a)/(1<<20))
	assert.Equal(t, 2, m.Messages)
	assert.Less(t, a, uint64(40<<20), "counting the shown messages holds the long line")
}

type hashCounter struct {
	h hash.Hash
	n *int64
}

func (c *hashCounter) Write(p []byte) (int, error) {
	*c.n += int64(len(p))
	return c.h.Write(p)
}

// TestLongLineShowEqualsHeld: every kind of long text in lines just over
// jsonl.LongLine prints the same transcript from the file as held, folded
// and with --full: a string content (escaped, and without escapes with
// invalid UTF-8 kept verbatim), thinking and text blocks, tool results
// (string and array content, a bash execution's output), a branch
// summary, a custom message, a compaction summary; and the cases read back
// whole: long tool arguments, a long image, a tool result joined from
// several texts, a long model name.
func TestLongLineShowEqualsHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 60 MiB file")
	}
	big := func(seed string) string {
		chunk := "line " + seed + " \"quoted\" \\ é 日本 \U0001F600 \x1b[31m\u202e\ttab\n\n"
		var b strings.Builder
		for k := 0; b.Len() < jsonl.LongLine+1000; k++ {
			b.WriteString(chunk)
			fmt.Fprintf(&b, "%d\n", k)
		}
		return "\n\n  " + b.String() + "\n\n"
	}
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	verbatim := `"` + strings.Repeat("plain text \xff\xe2\x82 no escapes ", (jsonl.LongLine+1000)/20) + `"`
	lines := []string{
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":` + js(big("user")) + `,"timestamp":1}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":` + js(big("think")) + `},{"type":"text","text":` + js(big("answer")) + `},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}],"provider":"p","model":"m","timestamp":2}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":` + js(big("result")) + `}],"isError":false,"timestamp":3}}`,
		`{"type":"message","id":"u2","parentId":"r1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"user","content":` + verbatim + `,"timestamp":4}}`,
		`{"type":"message","id":"r2","parentId":"u2","timestamp":"2026-01-01T00:00:05Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":` + js(big("string result")) + `,"isError":true,"timestamp":5}}`,
		`{"type":"message","id":"b1","parentId":"r2","timestamp":"2026-01-01T00:00:06Z","message":{"role":"bashExecution","command":"cat x","output":` + js(big("bash")) + `,"exitCode":0,"timestamp":6}}`,
		`{"type":"branch_summary","id":"s1","parentId":"b1","timestamp":"2026-01-01T00:00:07Z","fromId":"u1","summary":` + js(big("branch")) + `}`,
		`{"type":"custom_message","id":"m1","parentId":"s1","timestamp":"2026-01-01T00:00:08Z","customType":"note","content":` + js(big("custom")) + `,"display":true}`,
		`{"type":"message","id":"a2","parentId":"m1","timestamp":"2026-01-01T00:00:09Z","message":{"role":"assistant","content":[{"type":"text","text":"short"},{"type":"toolCall","id":"c2","name":"write","arguments":{"content":` + js(big("args")) + `}}],"provider":"p","model":"m","timestamp":9}}`,
		`{"type":"message","id":"u3","parentId":"a2","timestamp":"2026-01-01T00:00:10Z","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","mimeType":"","data":"` + strings.Repeat("iVBORw0KGgo", (jsonl.LongLine+1000)/11) + `"}],"timestamp":10}}`,
		`{"type":"message","id":"r3","parentId":"u3","timestamp":"2026-01-01T00:00:11Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"write","content":[{"type":"text","text":` + js(big("part one")) + `},{"type":"text","text":"part two"}],"timestamp":11}}`,
		`{"type":"message","id":"a3","parentId":"r3","timestamp":"2026-01-01T00:00:12Z","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"provider":"p","model":` + js(big("model")) + `,"timestamp":12}}`,
	}
	dir := t.TempDir()
	write := func(name string, lines []string) string {
		p := filepath.Join(dir, name)
		var b bytes.Buffer
		b.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + "\n")
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
		require.NoError(t, os.WriteFile(p, b.Bytes(), 0o600))
		return p
	}
	// A compaction whose summary is long, then a long message after it.
	compacted := []string{lines[0],
		`{"type":"compaction","id":"c9","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","summary":` + js(big("compaction")) + `,"firstKeptEntryId":"u1","tokensBefore":5}`,
		strings.Replace(strings.Replace(lines[1], `"parentId":"u1"`, `"parentId":"c9"`, 1), `"id":"a1"`, `"id":"a9"`, 1)}
	for _, p := range []string{write("all.jsonl", lines), write("compacted.jsonl", compacted)} {
		for _, o := range []render.TranscriptOptions{{Styles: render.Plain()}, {Styles: render.Plain(), Full: true}} {
			s, err := OpenSession(sessfmt.Ref{Path: p}, p, sessfmt.OpenOptions{})
			require.NoError(t, err)
			var held, streamed bytes.Buffer
			transcript(t, s, &held, o, false)
			transcript(t, s, &streamed, o, true)
			require.Greater(t, held.Len(), 1000)
			if !bytes.Equal(held.Bytes(), streamed.Bytes()) {
				h, g := held.Bytes(), streamed.Bytes()
				k := 0
				for k < len(h) && k < len(g) && h[k] == g[k] {
					k++
				}
				t.Fatalf("%s full=%v: differs at byte %d: held %q, from the file %q", filepath.Base(p), o.Full, k, clipB(h[k:]), clipB(g[k:]))
			}
		}
	}
}

func clipB(b []byte) []byte {
	if len(b) > 120 {
		return b[:120]
	}
	return b
}
