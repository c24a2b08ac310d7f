package sessfmt

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
)

// TestEachLineLongEqualsEachLine: EachLineLong gives the lines EachLine
// gives (numbers and bytes, candidate asked alike) when long asks for each
// long line whole, and hands exactly the lines over jsonl.LongLine to long
// (offset and length, newline excluded) otherwise; lines around the
// reader's buffer size and a last line without a newline included.
func TestEachLineLongEqualsEachLine(t *testing.T) {
	sizes := []int{0, 1, 10, 64<<10 - 1, 64 << 10, 64<<10 + 1, 200 << 10, 0, jsonl.LongLine, jsonl.LongLine + 1, 5, 3 << 20, 7}
	var data []byte
	for i, n := range sizes {
		data = append(data, bytes.Repeat([]byte{byte('a' + i)}, n)...)
		if i < len(sizes)-1 {
			data = append(data, '\n')
		}
	}
	path := filepath.Join(t.TempDir(), "f.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	candidate := func(line int, raw []byte) bool { return line != 3 }
	var want, whole, streamed, longs strings.Builder
	record := func(b *strings.Builder) func(int, []byte) error {
		return func(line int, raw []byte) error {
			fmt.Fprintf(b, "%d %d %q\n", line, len(raw), bytes.Trim(raw, string(raw[:min(1, len(raw))])))
			return nil
		}
	}
	if err := EachLine(path, candidate, record(&want)); err != nil {
		t.Fatal(err)
	}
	if err := EachLineLong(path, candidate, record(&whole), func(fh *os.File, line int, off, n int64) error { return ErrReadWhole }); err != nil {
		t.Fatal(err)
	}
	if whole.String() != want.String() {
		t.Errorf("read whole:\n%s\nwant\n%s", whole.String(), want.String())
	}
	if err := EachLineLong(path, candidate, record(&streamed), func(fh *os.File, line int, off, n int64) error {
		b := make([]byte, n+1)
		fh.ReadAt(b, off)
		if int64(len(bytes.TrimRight(b[:n], string(b[0])))) != 0 || (off+n < int64(len(data)) && b[n] != '\n') {
			t.Errorf("line %d: off %d len %d is not the line", line, off, n)
		}
		fmt.Fprintf(&longs, "%d %d\n", line, n)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var wantLongs strings.Builder
	for i, n := range sizes {
		if n > jsonl.LongLine {
			fmt.Fprintf(&wantLongs, "%d %d\n", i+1, n)
		}
	}
	if longs.String() != wantLongs.String() || wantLongs.Len() == 0 {
		t.Errorf("long lines %q, want %q", longs.String(), wantLongs.String())
	}
	// The short lines, as EachLine gives them.
	var wantShort strings.Builder
	for _, l := range strings.SplitAfter(want.String(), "\n") {
		var line, n int
		fmt.Sscanf(l, "%d %d", &line, &n)
		if l != "" && n <= jsonl.LongLine {
			wantShort.WriteString(l)
		}
	}
	if streamed.String() != wantShort.String() {
		t.Errorf("short lines:\n%s\nwant\n%s", streamed.String(), wantShort.String())
	}
}
