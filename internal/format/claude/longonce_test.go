package claude

import (
	"bufio"
	"io"
	"os"
	"sync/atomic"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/require"
)

// countingFile counts the bytes read from a file by offset.
type countingFile struct {
	*os.File
	at atomic.Int64
}

func (c *countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.File.ReadAt(p, off)
	c.at.Add(int64(n))
	return n, err
}

// TestLongLineElidedOnce: the index's elided copy of a long line is the
// views' — walking the turns after the index reads nothing of the line
// from the file again (a text left out is read where it is printed).
// Without the copy kept (longLines.keep in applyElided) EachTurn reads
// the whole line again.
func TestLongLineElidedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a file of several MiB")
	}
	for _, kind := range longKinds {
		size := jsonl.LongLine + 1000
		p := writeLongClaude(t, t.TempDir(), kind, size, func(w *bufio.Writer, n int) { longJSON(w, n, "once") })
		fh, err := os.Open(p)
		require.NoError(t, err)
		st, err := fh.Stat()
		require.NoError(t, err)
		cf := &countingFile{File: fh}
		f, err := read(cf, st.Size(), false)
		require.NoError(t, err)
		indexed := cf.at.Load()
		require.Greater(t, indexed, int64(size), "%s: the index reads the long line by offset once (its elided copy)", kind)
		path, err := f.Walk("", false)
		require.NoError(t, err)
		turns := 0
		require.NoError(t, f.EachTurn(path, func(*Turn) error { turns++; return nil }))
		require.NotZero(t, turns)
		again := cf.at.Load() - indexed
		require.Less(t, again, int64(size/4), "%s: the turns read %d bytes of the file again", kind, again)
		fh.Close()
	}
}

// TestLongTextsLoose: Texts hands a long line to TextOptions.Long (through
// sessfmt.LongTexts) marked as decoded the way the format says it decodes
// strings (LooseStrings), with the line's place, and its texts read from
// its elided copy.
func TestLongTextsLoose(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a file of several MiB")
	}
	p := writeLongClaude(t, t.TempDir(), "user", jsonl.LongLine+1000, func(w *bufio.Writer, n int) { longJSON(w, n, "loose") })
	s, err := Format{}.Open(sessfmt.Ref{Path: p}, sessfmt.OpenOptions{})
	require.NoError(t, err)
	var longs []sessfmt.LongLine
	texts := 0
	err = s.(*Session).Texts(sessfmt.TextOptions{Long: func(l *sessfmt.LongLine) error {
		longs = append(longs, *l)
		small, err := jsonl.NewElider(jsonl.ElidedMin).Elide(nil, io.NewSectionReader(l.File, l.Off, l.Len), l.Off)
		require.NoError(t, err)
		return l.Texts(small, func(*sessfmt.Text) error { texts++; return nil })
	}}, func(*sessfmt.Text) error { return nil })
	require.NoError(t, err)
	require.Len(t, longs, 1)
	require.Equal(t, Format{}.LooseStrings(), longs[0].Loose)
	require.Greater(t, longs[0].Len, int64(jsonl.LongLine))
	require.NotZero(t, texts, "the elided copy's texts")
}
