package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the indexer and runs every query on the
// result: nothing may panic or loop forever.
func FuzzRead(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(shapes, "*.jsonl"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"parentUuid":"a","type":"user","uuid":"a"}` + "\n"))
	f.Add([]byte(`{"parentUuid":"b","type":"progress","uuid":"a"}` + "\n" + `{"parentUuid":"a","type":"progress","uuid":"b"}` + "\n" + `{"parentUuid":"a","type":"user","uuid":"c"}`))
	f.Add([]byte(`{"type":"system","subtype":"compact_boundary","uuid":"b","parentUuid":null,"logicalParentUuid":"b","compactMetadata":{"preservedSegment":{"headUuid":"b","anchorUuid":"b","tailUuid":"b"}}}`))
	f.Fuzz(fuzzBody)
}

func fuzzBody(t *testing.T, data []byte) {
	{
		fl, err := Read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		_ = fl.Problems()
		lm := fl.LeafModes()
		_ = lm.Summary()
		for _, m := range AllLeafModes {
			leaf, err := fl.Leaf(m)
			if err != nil || leaf == "" {
				continue
			}
			for _, across := range []bool{false, true} {
				turns, _, err := fl.Chain(leaf, across)
				if err == nil && len(turns) == 0 {
					t.Fatalf("empty chain for leaf %q", leaf)
				}
			}
			if _, _, err := fl.Compactions(leaf); err != nil {
				t.Fatalf("compactions: %v", err)
			}
			tr, err := fl.Tree(m)
			if err != nil {
				t.Fatal(err)
			}
			_ = tr.JSON("", m, lm, nil)
			for _, n := range tr.Nodes {
				_ = fl.Preview(n.Line, 40)
			}
		}
	}
}
