package blob

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func appendLine(t testing.TB, path, line string) {
	t.Helper()
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Error(err)
		return
	}
	defer fh.Close()
	if _, err := fh.WriteString(line); err != nil {
		t.Error(err)
	}
}

// putAtomic writes a blob the way oh-my-pi does: temp file, then rename.
func putAtomic(t testing.TB, s Store, data []byte) Hash {
	t.Helper()
	h := Hash(sha256.Sum256(data))
	tmp := fmt.Sprintf("%s.%d.tmp", s.Path(h), os.Getpid())
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Error(err)
	}
	if err := os.Rename(tmp, s.Path(h)); err != nil {
		t.Error(err)
	}
	return h
}

// A new blob and the session line referencing it are written while the mark
// is running, into a session file the mark has already scanned. The grace
// period keeps the blob; with no grace at all the rescan before deleting
// still finds the line.
func TestRaceLineAppearsDuringMark(t *testing.T) {
	for _, g := range []time.Duration{time.Hour, 0} {
		t.Run(fmt.Sprintf("grace=%v", g), func(t *testing.T) {
			f := newFixture(t)
			f.build()
			var once sync.Once
			var late Hash
			testHookScanned = func(p string) {
				once.Do(func() {
					late = putAtomic(t, f.store, []byte("pasted while gc runs"))
					appendLine(t, p, sessionLine("late", late))
				})
			}
			defer func() { testHookScanned = nil }()
			m, err := Mark(context.Background(), f.source(), 2)
			if err != nil {
				t.Fatal(err)
			}
			testHookScanned = nil
			p, err := Plan(f.store, m, g, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			res, err := Apply(context.Background(), p, ApplyOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if st := f.store.Verify(late); st.Status != StatusOK {
				t.Fatalf("late blob: %v", st.Status)
			}
			if res.Rescanned == 0 && g == 0 {
				t.Error("no file rescanned although one changed during the mark")
			}
			want := countReasons(f.wantReason, ReasonDelete)
			if g == 0 {
				want += countReasons(f.wantReason, ReasonGrace) // nothing is young without a grace period
			}
			if len(res.Deleted) != want {
				t.Errorf("deleted %d groups, want %d", len(res.Deleted), want)
			}
		})
	}
}

func countReasons(m map[Hash]Reason, rs ...Reason) int {
	n := 0
	for _, r := range m {
		for _, x := range rs {
			if r == x {
				n++
			}
		}
	}
	return n
}

// An old, unreferenced blob (outside any grace period) becomes referenced
// after the plan: by a line appended to an existing session file, and by a
// brand new session file. Apply's rescan keeps both.
func TestRaceOldBlobReferencedAfterPlan(t *testing.T) {
	f := newFixture(t)
	f.build()
	reused := f.put("old blob pasted again", f.old)
	inNewFile := f.put("old blob in a new session file", f.old)
	m, err := Mark(context.Background(), f.source(), 2)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Plan(f.store, m, 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[Hash]Reason{}
	for _, g := range p.Groups {
		reasons[g.Hash] = g.Reason
	}
	if reasons[reused] != ReasonDelete || reasons[inNewFile] != ReasonDelete {
		t.Fatalf("precondition: %v %v", reasons[reused], reasons[inNewFile])
	}
	appendLine(t, filepath.Join(f.extra, "custom.jsonl"), sessionLine("again", reused))
	appendLine(t, filepath.Join(f.sessions, "-proj", "new-session.jsonl"), sessionLine("n", inNewFile))
	res, err := Apply(context.Background(), p, ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []Hash{reused, inNewFile} {
		if st := f.store.Verify(h); st.Status != StatusOK {
			t.Errorf("%s: %v", h, st.Status)
		}
	}
	if len(res.Skipped) != 2 || res.Rescanned != 2 {
		t.Errorf("skipped %v, rescanned %d", res.Skipped, res.Rescanned)
	}
}

// A writer keeps pasting images (blob first, then the line, as the agents
// do) into several sessions, sometimes creating new session files, while the
// collector runs in a loop with a short grace period. No referenced blob may
// ever disappear, and the old unreferenced blobs must still be collected.
func TestRaceConcurrentWriter(t *testing.T) {
	f := newFixture(t)
	f.build()
	var garbage []Hash
	for i := 0; i < 50; i++ {
		garbage = append(garbage, f.put(fmt.Sprintf("garbage %d", i), f.old))
	}
	const grace = 200 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var written []Hash
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ctx.Err() == nil; i++ {
			h := putAtomic(t, f.store, []byte(fmt.Sprintf("pasted image %d", i)))
			file := filepath.Join(f.sessions, "-live", fmt.Sprintf("s%d.jsonl", i%7+i/50))
			os.MkdirAll(filepath.Dir(file), 0o755)
			appendLine(t, file, sessionLine(fmt.Sprint(i), h))
			written = append(written, h)
			time.Sleep(time.Duration(i%5) * 100 * time.Microsecond)
		}
	}()
	deadline := time.Now().Add(1500 * time.Millisecond)
	runs := 0
	for time.Now().Before(deadline) {
		m, err := Mark(context.Background(), f.source(), 2)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Plan(f.store, m, grace, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Apply(context.Background(), p, ApplyOptions{RefreshEvery: time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		runs++
	}
	cancel()
	wg.Wait()
	if len(written) < 100 || runs < 3 {
		t.Fatalf("race did not happen: %d writes, %d gc runs", len(written), runs)
	}
	for _, h := range written {
		if st := f.store.Verify(h); st.Status != StatusOK {
			t.Fatalf("referenced blob %s lost: %v (after %d writes, %d gc runs)", h, st.Status, len(written), runs)
		}
	}
	for _, h := range garbage {
		if _, err := os.Lstat(f.store.Path(h)); !os.IsNotExist(err) {
			t.Errorf("garbage %s not collected: %v", h, err)
		}
	}
	t.Logf("%d blobs written, %d gc runs", len(written), runs)
}
