package pi

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"

	"github.com/sessctl/sessctl/internal/problem"
)

// TestListOrphansRandom: the listing's orphan count (ids and parents as
// hashes, the parent that is the entry before skipped, a linear or sorted
// search at the end) equals a count over the ids as strings, on random
// files whose parents are the entry before, any earlier or later entry,
// the entry itself, the header, or no entry at all.
func TestListOrphansRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for n := 0; n < 400; n++ {
		var b bytes.Buffer
		b.WriteString(`{"type":"session","version":3,"id":"H","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}` + "\n")
		entries := rng.Intn(60)
		ids := map[string]bool{}
		var parents []string
		for i := 0; i < entries; i++ {
			id := fmt.Sprintf("e%d", i)
			if rng.Intn(10) == 0 {
				id = fmt.Sprintf("e%d", rng.Intn(entries+1)) // a duplicate or a later one
			}
			var parent string
			switch r := rng.Intn(10); {
			case r < 5:
				parent = fmt.Sprintf("e%d", i-1)
			case r == 5:
				parent = fmt.Sprintf("e%d", rng.Intn(entries+3))
			case r == 6:
				parent = "H"
			case r == 7:
				parent = id
			case r == 8:
				parent = fmt.Sprintf("x%d", rng.Intn(4))
			}
			ids[id] = true
			if parent == "" {
				fmt.Fprintf(&b, `{"type":"label","id":%q,"parentId":null,"timestamp":"2026-01-01T00:00:01Z"}`+"\n", id)
				continue
			}
			parents = append(parents, parent)
			fmt.Fprintf(&b, `{"type":"label","id":%q,"parentId":%q,"timestamp":"2026-01-01T00:00:01Z"}`+"\n", id, parent)
		}
		want := 0
		for _, p := range parents {
			if !ids[p] && p != "H" {
				want++
			}
		}
		li, err := ScanListInfo(bytes.NewReader(b.Bytes()), "/t/a.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if got := li.Problems[problem.Orphan]; got != want {
			t.Fatalf("file %d (%d parents): %d orphans, want %d\n%s", n, len(parents), got, want, b.Bytes())
		}
	}
}
