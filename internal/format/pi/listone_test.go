package pi

import (
	"bytes"
	"os"
	"reflect"
	"runtime"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

// TestListInfoFromIndexPass: the listing summary the parallel index pass
// computes (Options.List) is the one the listing scan (ScanListInfo)
// computes, on every .jsonl of testdata (and the shared corpus when
// present), with chunks of 300 and 4096 bytes and the default, and 1 to 3
// workers, with and without check's facts; when the pass cannot give it (a line longer than a chunk) it
// says so (nil).
func TestListInfoFromIndexPass(t *testing.T) {
	files := checkFiles(t)
	if len(files) < 20 {
		t.Fatalf("only %d files found", len(files))
	}
	defer func(p int) { indexChunkSize = 0; runtime.GOMAXPROCS(p) }(runtime.GOMAXPROCS(0))
	given, missing, withLine1 := 0, 0, 0
	for _, p := range files {
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ScanListInfo(fh, p)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		for k := range 6 {
			// With Check the workers read the listing's facts of each
			// line (inspect, listFactOf); without, the merge reads them.
			chunk, check := []int{0, 300, 4096}[k%3], k >= 3
			runtime.GOMAXPROCS(1 + k%3)
			indexChunkSize = chunk
			f, err := Open(p, Options{List: true, Check: check})
			if err != nil {
				continue
			}
			got := f.listInfo
			if got == nil {
				missing++
				continue
			}
			given++
			// line1 is the pass's own: the file's first line when it is
			// an object line without BOM (checked here), never the scan's.
			if got.line1 != nil {
				withLine1++
				raw, _ := os.ReadFile(p)
				if n := bytes.IndexByte(raw, '\n'); n < 0 || !bytes.Equal(got.line1, raw[:n+1]) || bytes.HasPrefix(raw, jsonl.BOM) {
					t.Fatalf("%s (chunk %d): FirstLine %q is not the first line", p, chunk, got.line1)
				}
				cp := *got
				cp.line1 = nil
				got = &cp
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("%s (chunk %d): listing differs:\nscan: %+v\npass: %+v", p, chunk, want, got)
			}
		}
	}
	if given < 300 || withLine1 < given/2 {
		t.Fatalf("the pass gave the listing only %d times (%d not), with the first line %d times", given, missing, withLine1)
	}
	t.Logf("%d files: listing from the index pass %d times, left to ReadListInfo %d times", len(files), given, missing)
}

// TestOpenForList: the session OpenForList gives has the check verdict and
// count of the one the registry's pi format opens.
func TestOpenForList(t *testing.T) {
	files := checkFiles(t)
	n := 0
	for _, p := range files {
		a, errA := OpenSession(sessfmt.Ref{Path: p}, p, sessfmt.OpenOptions{Check: true})
		b, _, errB := OpenForList(sessfmt.Ref{Path: p}, p)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("%s: %v vs %v", p, errA, errB)
		}
		if errA != nil {
			continue
		}
		if a.Ref() != b.Ref() {
			t.Fatalf("%s: ref %+v vs %+v", p, a.Ref(), b.Ref())
		}
		va, vb := sessfmt.VerdictOf(a, sessfmt.CheckOptions{}), sessfmt.VerdictOf(b, sessfmt.CheckOptions{})
		if !reflect.DeepEqual(va, vb) {
			t.Fatalf("%s: verdict %+v vs %+v", p, va, vb)
		}
		n++
	}
	if n < 100 {
		t.Fatalf("only %d sessions", n)
	}
}

// TestBufStack: listBufs gives back the buffers put last first, keeps at
// most four and says when it has none.
func TestBufStack(t *testing.T) {
	var s bufStack
	_, ok := s.get()
	require.False(t, ok)
	var idx [6]*tree.Index
	for i := range idx {
		idx[i] = tree.New(tree.LastWins, 0)
		s.put(listBuf{index: idx[i]})
	}
	for i := 3; i >= 0; i-- {
		b, ok := s.get()
		require.True(t, ok)
		require.Same(t, idx[i], b.index)
	}
	_, ok = s.get()
	require.False(t, ok)
}
