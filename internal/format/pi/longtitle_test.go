package pi

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/memtest"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeLongSession writes a pi session whose first user message is one
// line with a content of about size bytes: a JSON string (with escapes,
// non-ASCII text and a surrogate pair every few kilobytes) or, with
// array, that text split in two text blocks around a large image block.
func writeLongSession(t testing.TB, size int, array bool) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "2026-01-01T00-00-00-000Z_s1.jsonl")
	fh, err := os.Create(p)
	require.NoError(t, err)
	w := bufio.NewWriterSize(fh, 1<<20)
	w.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + "\n")
	w.WriteString(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":`)
	chunk := strings.Repeat("abcdefghij", 400) + `\n\t\"é\u00e9\ud83d\ude00 `
	text := func(n int) {
		w.WriteString(`"`)
		for k := 0; k < n; k += len(chunk) {
			w.WriteString(chunk)
		}
		w.WriteString(`"`)
	}
	if array {
		w.WriteString(`[{"type":"text","text":`)
		text(100)
		w.WriteString(`},{"type":"image","mimeType":"image/png","data":"`)
		for k := 0; k < size; k += 4096 {
			w.WriteString(strings.Repeat("QUJD", 1024))
		}
		w.WriteString(`"},{"type":"text","text":"after the image"}]`)
	} else {
		text(size)
	}
	w.WriteString(`,"timestamp":1}}` + "\n")
	w.WriteString(`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"p","model":"m","timestamp":2}}` + "\n")
	require.NoError(t, w.Flush())
	require.NoError(t, fh.Close())
	return p
}

// TestLongLineTitleNotHeld: the title of show's and tree's headers
// (headTitle, from the first user message) and the listing's summary
// (ReadListInfo) of a session whose first message is one 64 MiB line are
// computed without holding the line or decoding its text: each allocates a
// few MiB (before: about 200 MiB for the title, 400 MiB for the listing).
// Both stay equal to the held reading (ScanListInfo, which holds any line).
func TestLongLineTitleNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB file")
	}
	const size = 64 << 20
	p := writeLongSession(t, size, false)
	s, err := OpenSession(sessfmt.Ref{Path: p}, p, sessfmt.OpenOptions{})
	require.NoError(t, err)
	var title string
	n := memtest.Allocated(func() { title = s.headTitle() })
	t.Logf("headTitle allocated %.1f MiB", float64(n)/(1<<20))
	assert.Less(t, n, uint64(16<<20), "headTitle holds the long line")

	var li *ListInfo
	n = memtest.Allocated(func() { li, err = ReadListInfo(p) })
	require.NoError(t, err)
	t.Logf("ReadListInfo allocated %.1f MiB", float64(n)/(1<<20))
	assert.Less(t, n, uint64(24<<20), "ReadListInfo holds the long line")

	held := heldListInfo(t, p)
	li.heldRescan, held.heldRescan = false, false
	assert.True(t, reflect.DeepEqual(held, li), "streamed listing differs from the held one")
	assert.Len(t, li.FirstMessage, MaxFirstMessage+len("…"))
	assert.True(t, s.listMeta().Title == title, "header title differs from list's")
}

// heldListInfo is ScanListInfo over p, every line held.
func heldListInfo(t testing.TB, p string) *ListInfo {
	t.Helper()
	fh, err := os.Open(p)
	require.NoError(t, err)
	defer fh.Close()
	li, err := ScanListInfo(fh, p)
	require.NoError(t, err)
	st, err := fh.Stat()
	require.NoError(t, err)
	if li.Modified.IsZero() {
		li.Modified = st.ModTime()
	}
	return li
}

// TestLongLineTitleEqualsHeld: lines just over jsonl.LongLine, with a
// string content and with an array content (whose text blocks surround a
// long image: read held again), give the same title, first message and
// listing as the held reading.
func TestLongLineTitleEqualsHeld(t *testing.T) {
	for _, array := range []bool{false, true} {
		p := writeLongSession(t, jsonl.LongLine+12345, array)
		li, err := ReadListInfo(p)
		require.NoError(t, err)
		held := heldListInfo(t, p)
		li.heldRescan, held.heldRescan = false, false
		assert.True(t, reflect.DeepEqual(held, li), "array %v: streamed listing differs from the held one", array)
		if array {
			assert.True(t, strings.HasSuffix(li.FirstMessage, "after the image"), "array: text blocks after the image are joined")
		}
		s, err := OpenSession(sessfmt.Ref{Path: p}, p, sessfmt.OpenOptions{})
		require.NoError(t, err)
		assert.True(t, s.listMeta().Title == s.headTitle(), "array %v: header title differs from list's", array)
		txt, obj, err := s.File.MessageText(0)
		require.NoError(t, err)
		assert.True(t, obj)
		assert.True(t, held.FirstMessage == txt, "array %v: MessageText differs from the held first message", array)
	}
}
