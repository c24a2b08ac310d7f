package killtest

import (
	"testing"
	"time"
)

// A writer whose commit comes later than the timed run (a kill before it
// always leaves the old content) is still covered: the window widens.
func TestWindowWidensUntilAKillLandsAfterTheCommit(t *testing.T) {
	full := 50 * time.Millisecond
	commit := 8 * full // the timed run was unrepresentatively fast
	w := New(full, 1)
	for w.More(50, 200) {
		w.Saw(w.Delay() >= commit)
	}
	if !w.Covered() {
		t.Fatalf("old %d new %d, window %v", w.Old, w.New, w.Max())
	}
	if w.Max() <= full*13/10 {
		t.Fatalf("window did not widen: %v", w.Max())
	}
}

// A commit far earlier than the timed run is covered too.
func TestWindowCoversACommitFarBeforeTheTimedRun(t *testing.T) {
	full := 400 * time.Millisecond
	commit := full / 1000
	for seed := uint64(0); seed < 20; seed++ {
		w := New(full, seed)
		for w.More(50, 200) {
			w.Saw(w.Delay() >= commit)
		}
		if !w.Covered() {
			t.Fatalf("seed %d: old %d new %d, window %v", seed, w.Old, w.New, w.Max())
		}
	}
}

// The window doubles after Step rounds with no kill after the commit and
// halves after Step rounds with none before it, and stays put otherwise.
func TestWindowSteps(t *testing.T) {
	for _, c := range []struct {
		sides []bool
		want  time.Duration
	}{
		{[]bool{false}, 2 * 1300 * time.Millisecond},
		{[]bool{true}, 1300 * time.Millisecond / 2},
		{[]bool{true, false}, 1300 * time.Millisecond},
	} {
		w := New(time.Second, 1)
		for i := 0; i < Step; i++ {
			if got := w.Max(); got != 1300*time.Millisecond {
				t.Fatalf("%v: window %v after %d rounds", c.sides, got, i)
			}
			w.Saw(c.sides[i%len(c.sides)])
		}
		if got := w.Max(); got != c.want {
			t.Fatalf("%v: window %v after %d rounds, want %v", c.sides, got, Step, c.want)
		}
	}
}

// A writer that is never killed after its commit (it cannot commit) is
// not called covered after the last round: the test using it fails.
func TestWindowGivesUpAtMaxRounds(t *testing.T) {
	w := New(10*time.Millisecond, 3)
	n := 0
	for w.More(50, 120) {
		w.Saw(false)
		n++
	}
	if n != 120 || w.Covered() {
		t.Fatalf("%d rounds, covered %v", n, w.Covered())
	}
}

// With both sides seen, More stops at min rounds.
func TestWindowStopsAtMinWhenCovered(t *testing.T) {
	w := New(10*time.Millisecond, 4)
	n := 0
	for w.More(50, 200) {
		w.Saw(n%2 == 0)
		n++
	}
	if n != 50 {
		t.Fatalf("%d rounds", n)
	}
}

// A writer that never commits does not make the window grow without end:
// it stops at 16 times its first length.
func TestWindowGrowthIsBounded(t *testing.T) {
	w := New(time.Second, 5)
	for w.More(50, 200) {
		if d := w.Delay(); d >= 16*1300*time.Millisecond {
			t.Fatalf("delay %v", d)
		}
		w.Saw(false)
	}
	if w.Max() != 16*1300*time.Millisecond {
		t.Fatalf("window %v", w.Max())
	}
}
