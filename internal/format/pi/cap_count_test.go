package pi

import (
	"testing"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

type countSink int

func (c *countSink) Header([]string) error        { return nil }
func (c *countSink) Message(*model.Message) error { *c++; return nil }

// TestCountMessagesSameAsTranscript: the count list takes from the index
// (CountMessages) is the number of messages Transcript gives, on every
// .jsonl of testdata (and the shared corpus when present), read as each
// dialect and as pi 0.73.
func TestCountMessagesSameAsTranscript(t *testing.T) {
	files := checkFiles(t)
	if len(files) < 20 {
		t.Fatalf("only %d files found", len(files))
	}
	fromIndex, compared := 0, 0
	for _, p := range files {
		for _, d := range []string{"", "pi-0.73", "omp", "xcsh"} {
			s, err := OpenSession(sessfmt.Ref{Path: p}, p, sessfmt.OpenOptions{Dialect: d})
			if err != nil {
				continue
			}
			var want countSink
			errT := s.Transcript(sessfmt.ContextOptions{}, &want)
			got, errC := s.CountMessages()
			if (errT == nil) != (errC == nil) {
				t.Fatalf("%s (%q): Transcript error %v, CountMessages error %v", p, d, errT, errC)
			}
			if got != int(want) {
				t.Fatalf("%s (%q): CountMessages %d, Transcript gave %d messages", p, d, got, int(want))
			}
			if leaf, err := s.LeafIndex(); err == nil {
				if _, ok, _ := s.File.countPi(leaf); ok {
					fromIndex++
				}
			}
			compared++
		}
	}
	if fromIndex < 100 {
		t.Fatalf("counted from the index only %d times", fromIndex)
	}
	t.Logf("%d files, %d sessions compared, %d counted from the index", len(files), compared, fromIndex)
}
