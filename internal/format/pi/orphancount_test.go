package pi

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOrphans holds orphans (a set of the parents that the ids mark) to
// counting, for each parent, whether some id is it and it is not the
// root: few and many parents, repeated ones, the hash 0 among ids and
// parents or not, hashes that collide in the table's low bits, a root or
// none, sets reused between rounds.
func TestOrphans(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pick := func(kind int) uint64 {
		switch kind {
		case 0:
			return uint64(r.IntN(8)) << 40 // same low bits
		case 1:
			return uint64(r.IntN(3)) // 0 and neighbours
		default:
			return r.Uint64()
		}
	}
	for round := 0; round < 2000; round++ {
		ids := make([]uint64, r.IntN(400))
		for k := range ids {
			ids[k] = pick(r.IntN(4))
		}
		parents := make([]uint64, []int{1, 5, 8, 9, 30, 300}[r.IntN(6)])
		for k := range parents {
			if len(ids) > 0 && r.IntN(2) == 0 {
				parents[k] = ids[r.IntN(len(ids))]
			} else {
				parents[k] = pick(r.IntN(4))
			}
		}
		root, hasRoot := pick(r.IntN(4)), r.IntN(2) == 0
		if r.IntN(3) == 0 {
			root = parents[r.IntN(len(parents))]
		}
		want := 0
		for _, p := range parents {
			if !slices.Contains(ids, p) && !(hasRoot && p == root) {
				want++
			}
		}
		if got := orphans(ids, parents, root, hasRoot); got != want {
			t.Fatalf("round %d (%d ids, %d parents): %d orphans, want %d", round, len(ids), len(parents), got, want)
		}
	}
}
