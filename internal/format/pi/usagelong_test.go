package pi

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/memtest"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeLongUsageSession writes a pi session with a user message line and
// an assistant line (text block, tool call, usage with cost) whose texts
// are each about size bytes, then the lines extra, then a short reply.
func writeLongUsageSession(t testing.TB, size int, extra ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "2026-01-01T00-00-00-000Z_s1.jsonl")
	fh, err := os.Create(p)
	require.NoError(t, err)
	w := bufio.NewWriterSize(fh, 1<<20)
	chunk := strings.Repeat("abcdefghij", 400) + `\n\t\"é\u00e9\ud83d\ude00 `
	text := func() {
		w.WriteString(`"`)
		for k := 0; k < size; k += len(chunk) {
			w.WriteString(chunk)
		}
		w.WriteString(`"`)
	}
	w.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + "\n")
	w.WriteString(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":`)
	text()
	w.WriteString(`,"timestamp":1}}` + "\n")
	w.WriteString(`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":`)
	text()
	w.WriteString(`},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}],"provider":"p","model":"m1",` +
		`"usage":{"input":10,"output":20,"cacheRead":30,"cacheWrite":40,"cost":{"total":0.25}},"timestamp":2}}` + "\n")
	for _, l := range extra {
		w.WriteString(l + "\n")
	}
	w.WriteString(`{"type":"message","id":"a9","parentId":"a2","timestamp":"2026-01-01T00:00:09Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"p","model":"m2","usage":{"input":1,"output":2,"cacheRead":3,"cacheWrite":4},"timestamp":9}}` + "\n")
	require.NoError(t, w.Flush())
	require.NoError(t, fh.Close())
	return p
}

// heldUsage is the events of the reading that holds every line.
func heldUsage(t testing.TB, p string) []sessfmt.UsageEvent {
	t.Helper()
	var evs []sessfmt.UsageEvent
	require.NoError(t, sessfmt.LineUsageEvents(p, piUsageEvent, func(ev sessfmt.UsageEvent) error {
		evs = append(evs, ev)
		return nil
	}))
	return evs
}

func sessionUsage(t testing.TB, p string) []sessfmt.UsageEvent {
	t.Helper()
	var evs []sessfmt.UsageEvent
	s := &Session{metaPath: p}
	require.NoError(t, s.UsageEvents(func(ev sessfmt.UsageEvent) error {
		evs = append(evs, ev)
		return nil
	}))
	return evs
}

// TestLongLineUsageNotHeld: stats' usage events of a session with a 6 MiB
// user line and a 6 MiB assistant text are read without holding either
// line (before: about 60 MiB allocated), and are the events of the
// reading that holds every line.
func TestLongLineUsageNotHeld(t *testing.T) {
	p := writeLongUsageSession(t, 6<<20)
	want := heldUsage(t, p)
	require.Len(t, want, 3)
	assert.Equal(t, []string{"bash"}, want[1].Tools)
	var got []sessfmt.UsageEvent
	a := memtest.Allocated(func() { got = sessionUsage(t, p) })
	assert.Equal(t, want, got)
	t.Logf("usage of two 6 MiB lines: %d MiB allocated", a>>20)
	assert.Less(t, a, uint64(16<<20))
}

// TestLongLineUsageSame: on long lines whose model or tool name is itself
// longer than the elided minimum (read whole again), a long string with an
// invalid escape or a raw control character (the line is skipped, as the
// held reading skips it), a torn long line at the end, and a non-message
// line, the events equal the held reading's.
func TestLongLineUsageSame(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	longName := strings.Repeat("n", 100<<10)
	lines := []string{
		`{"type":"message","id":"b1","parentId":"a2","timestamp":"2026-01-01T00:00:03Z","message":{"role":"assistant","content":[{"type":"text","text":"` + big + `"}],"model":"` + longName + `","usage":{"input":5},"timestamp":3}}`,
		`{"type":"message","id":"b2","parentId":"b1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"` + longName + `","arguments":{"x":"` + big + `"}}],"model":"m3","timestamp":4}}`,
		`{"type":"message","id":"b3","parentId":"b2","timestamp":"2026-01-01T00:00:05Z","message":{"role":"user","content":"` + big + `\q","timestamp":5}}`,
		`{"type":"message","id":"b4","parentId":"b2","timestamp":"2026-01-01T00:00:05Z","message":{"role":"user","content":"` + big + "\t" + `","timestamp":5}}`,
		`{"type":"custom","id":"b5","parentId":"b2","timestamp":"2026-01-01T00:00:06Z","data":"` + big + `"}`,
		`{"type":"message","id":"b6","parentId":"b2","timestamp":"` + big + `","message":{"role":"user","content":"x","timestamp":6000}}`,
	}
	p := writeLongUsageSession(t, 5<<20, lines...)
	want := heldUsage(t, p)
	require.Len(t, want, 6)
	assert.Equal(t, longName, want[2].Model)
	assert.Equal(t, []string{longName}, want[3].Tools)
	assert.Equal(t, want, sessionUsage(t, p))

	// A torn long line at the end of the file.
	fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = fh.WriteString(`{"type":"message","id":"b7","parentId":"b2","timestamp":"2026-01-01T00:00:07Z","message":{"role":"user","content":"` + big)
	require.NoError(t, err)
	require.NoError(t, fh.Close())
	want = heldUsage(t, p)
	require.Len(t, want, 6)
	assert.Equal(t, want, sessionUsage(t, p))
}
