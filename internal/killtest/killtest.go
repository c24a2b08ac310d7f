// Package killtest picks the moments at which the crash tests SIGKILL a
// writer, so that the kills land on both sides of its commit however fast
// or loaded the machine is. It is imported by tests only.
//
// A crash test times one undisturbed run, then kills runs after a random
// delay within a window a little longer than that run. On a loaded machine
// the timed run can be unrepresentative (a CI run once timed 52 ms, then
// all 50 kills landed before the commit), so the window adapts: every
// Step rounds with no kill after the commit, it doubles (up to 16 times
// its first length, so that a writer that never commits costs the test
// about 200 rounds of 10 runs' time, not hours); with none before it, it
// halves. The test still fails when, after its last round, one side was
// never seen.
package killtest

import (
	"math/rand/v2"
	"time"
)

// Step is how many rounds pass between adjustments of the window.
const Step = 10

// Window hands out kill delays and counts where the kills landed.
type Window struct {
	max      time.Duration // delays are uniform in [0, max)
	limit    time.Duration // max stops doubling here: 16 times the first window
	rnd      *rand.Rand
	rounds   int
	Old, New int // kills that left the old content, and the new
}

// New returns a window of 1.3 times full, the duration of one undisturbed
// run, with its random delays drawn from seed.
func New(full time.Duration, seed uint64) *Window {
	if full <= 0 {
		full = time.Millisecond
	}
	w := full * 13 / 10
	return &Window{max: w, limit: 16 * w, rnd: rand.New(rand.NewPCG(seed, 0x6b696c6c))}
}

// Delay returns how long to wait before the next kill.
func (w *Window) Delay() time.Duration { return time.Duration(w.rnd.Int64N(int64(w.max))) }

// Max returns the window's current length.
func (w *Window) Max() time.Duration { return w.max }

// Saw records where a kill landed: newContent is whether the file held the
// new content afterwards. Every Step rounds the window doubles when no kill
// has left the new content yet, and halves when none has left the old.
func (w *Window) Saw(newContent bool) {
	if newContent {
		w.New++
	} else {
		w.Old++
	}
	w.rounds++
	if w.rounds%Step != 0 {
		return
	}
	switch {
	case w.New == 0 && w.max < w.limit:
		w.max *= 2
	case w.Old == 0 && w.max > 2*time.Millisecond:
		w.max /= 2
	}
}

// More reports whether to run another round: always before min rounds,
// then while one side of the commit has not been seen, up to max rounds.
func (w *Window) More(min, max int) bool {
	if w.rounds < min {
		return true
	}
	return w.rounds < max && (w.Old == 0 || w.New == 0)
}

// Covered reports whether kills landed on both sides of the commit.
func (w *Window) Covered() bool { return w.Old > 0 && w.New > 0 }
