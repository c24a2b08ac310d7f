package pi

import (
	"os"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/problem"
)

// TestHeaderParentIsARoot: OpenClaw transcripts start their chain at the
// session header's id (field corpus: OpenClaw stage0 and Hermes pi
// fixtures). pi and OpenClaw stop the walk there and lose nothing, so the
// entries naming the header are roots with one info note, not
// orphaned-parent errors, in check, tree and the list scan; an entry whose
// parent is truly missing is still an orphan.
func TestHeaderParentIsARoot(t *testing.T) {
	const path = "testdata/headerparent/openclaw-style.jsonl"
	f, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var orphans, notes []problem.Problem
	for _, p := range f.Problems {
		switch p.Code {
		case problem.Orphan:
			orphans = append(orphans, p)
		case CodeHeaderParent:
			notes = append(notes, p)
		}
	}
	if len(orphans) != 1 || orphans[0].Line != 5 || orphans[0].Severity != problem.Error {
		t.Errorf("orphaned-parent: %+v, want one error on line 5 (parent gone)", orphans)
	}
	if len(notes) != 1 || notes[0].Severity != problem.Info || notes[0].Line != 2 || !strings.HasPrefix(notes[0].Message, "2 entries") {
		t.Errorf("header-parent: %+v, want one info on line 2 for 2 entries", notes)
	}
	if got := f.Orphans(); len(got) != 1 || f.Index.ID(got[0]) != "m3" {
		t.Errorf("Orphans: %v, want only m3", got)
	}

	tm := f.TreeModel(-1)
	for _, n := range tm.Nodes {
		orphanMark := false
		for _, m := range n.Marks {
			orphanMark = orphanMark || strings.HasPrefix(m, "orphan")
		}
		if orphanMark != (n.ID == "m3") {
			t.Errorf("tree node %s marks %q", n.ID, n.Marks)
		}
	}
	if len(tm.Orphans) != 1 {
		t.Errorf("tree orphans %v, want 1", tm.Orphans)
	}

	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	li, err := ScanListInfo(r, path)
	if err != nil {
		t.Fatal(err)
	}
	if li.Problems[problem.Orphan] != 1 {
		t.Errorf("list scan: %d orphans, want 1 (m3)", li.Problems[problem.Orphan])
	}
}
