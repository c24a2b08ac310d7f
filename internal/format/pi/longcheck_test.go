package pi

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sessctl/sessctl/internal/memtest"
)

// TestLongCaptureIsCapturedPrefix: what the index pass captures of a line
// longer than a chunk in check and list mode (ParallelOptions.LongTop,
// LongSub: the leading members of checkCaptured) is exactly what the
// index reads (captured), slot for slot.
func TestLongCaptureIsCapturedPrefix(t *testing.T) {
	require.GreaterOrEqual(t, len(checkCaptured.Top), len(captured.Top))
	require.Equal(t, captured.Top, checkCaptured.Top[:len(captured.Top)])
	require.Equal(t, captured.Sub, checkCaptured.Sub)
	require.Equal(t, captured.SubKeys, checkCaptured.SubKeys[:len(captured.SubKeys)])
}

// writeLongCheckSession writes a session whose long lines (each about size
// bytes, over jsonl.LongLine) are of every kind check's rules read: an
// assistant message with tool calls and a long text, the tool result with a
// long output, a compaction with a long summary; plus a long tool call
// whose id is itself long (the elided reading must give way to the whole
// line) and a dangling result after it.
func writeLongCheckSession(t testing.TB, size int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "2026-01-01T00-00-00-000Z_s1.jsonl")
	fh, err := os.Create(p)
	require.NoError(t, err)
	w := bufio.NewWriterSize(fh, 1<<20)
	long := func() string { return strings.Repeat(`abc\n\"é`, size/8) }
	w.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + "\n")
	w.WriteString(`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"go","timestamp":1}}` + "\n")
	w.WriteString(`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"` + long() + `"},{"type":"toolCall","id":"c1","name":"bash","arguments":{}},{"type":"toolCall","id":"c2","name":"read","arguments":{}}],"stopReason":"toolUse","provider":"p","model":"m","timestamp":2}}` + "\n")
	w.WriteString(`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"` + long() + `"}],"isError":false,"timestamp":3}}` + "\n")
	w.WriteString(`{"type":"compaction","id":"k1","parentId":"r1","timestamp":"2026-01-01T00:00:04Z","summary":"` + long() + `","firstKeptEntryId":"a1","tokensBefore":5}` + "\n")
	w.WriteString(`{"type":"message","id":"a2","parentId":"k1","timestamp":"2026-01-01T00:00:05Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"` + strings.Repeat("x", size) + `","name":"bash","arguments":{}}],"stopReason":"aborted","provider":"p","model":"m","timestamp":5}}` + "\n")
	w.WriteString(`{"type":"message","id":"r2","parentId":"a2","timestamp":"2026-01-01T00:00:06Z","message":{"role":"toolResult","toolCallId":"nope","toolName":"bash","content":[{"type":"text","text":"x"}],"isError":false,"timestamp":6}}` + "\n")
	require.NoError(t, w.Flush())
	require.NoError(t, fh.Close())
	return p
}

// TestLongLinesCheckSameAndNotHeld: on a session whose long lines are of
// every kind check reads, Check after the parallel pass (Options.Check)
// gives the problems of Check after a serial index reading the lines back
// whole, and the pass plus Check allocate far less than the long lines
// (they were captured whole: 967 MB peak for one 200 MB line).
func TestLongLinesCheckSameAndNotHeld(t *testing.T) {
	const size = 6 << 20 // over jsonl.LongLine and over a default chunk
	p := writeLongCheckSession(t, size)
	defer func() { serialIndex = false }()
	serialIndex = true
	a, err := Open(p, Options{})
	serialIndex = false
	require.NoError(t, err)
	want := a.Check(CheckOptions{})
	require.NotEmpty(t, want, "the dangling result and the cut-off call are problems")

	// A first pass keeps ReadParallel's chunk buffers, which later opens
	// reuse: they are not what is measured.
	_, err = Open(p, Options{Check: true})
	require.NoError(t, err)
	var got any
	n := memtest.Allocated(func() {
		b, err := Open(p, Options{Check: true})
		require.NoError(t, err)
		got = b.Check(CheckOptions{})
	})
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("problems differ:\nserial: %+v\nparallel: %+v", want, got)
	}
	// Four lines of 6 MiB each, one of them (the long call id) read whole
	// by design: 21 MiB. Capturing the long lines' members whole (as before
	// ParallelOptions.LongTop) allocated 143 MiB; reading the other three
	// back whole instead of elided, about 40 MiB.
	if n >= 32<<20 {
		t.Fatalf("Open with check facts and Check allocated %.1f MiB for 4 lines of %d MiB", float64(n)/(1<<20), size>>20)
	}
	t.Logf("allocated %.1f MiB", float64(n)/(1<<20))
}

// TestLongLineFactReadElided: check's fact of a long assistant message (its
// tool calls) is read from the elided line, not by reading the line whole;
// a long tool call id gives way to the whole line, with the same fact.
func TestLongLineFactReadElided(t *testing.T) {
	const size = 6 << 20
	p := writeLongCheckSession(t, size)
	f, err := Open(p, Options{Check: true})
	require.NoError(t, err)
	for i := range f.Entries {
		id := f.Index.ID(i)
		if id != "a1" && id != "a2" {
			continue
		}
		lr, err := f.openLines()
		require.NoError(t, err)
		var long *longRefs
		var lf lineFact
		n := memtest.Allocated(func() { lf, err = lr.fact(i, &long) })
		require.NoError(t, err)
		line, err := lr.raw(i)
		require.NoError(t, err)
		require.Equal(t, factFromLine(line, f.Entries[i].Type(), f.Entries[i].Role()), lf, id)
		lr.close()
		switch id {
		case "a1": // elided: far less than the 6 MiB line
			require.Len(t, lf.calls, 2)
			require.Less(t, n, uint64(1<<20), "a1's fact allocated %d bytes", n)
		case "a2": // the call id is the long string: read whole
			require.Len(t, lf.calls, 1)
			require.Len(t, lf.calls[0].id, size)
			require.Greater(t, n, uint64(size))
		}
	}
}
