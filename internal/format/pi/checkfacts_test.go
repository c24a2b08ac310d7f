package pi

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
)

// checkFiles lists the pi-family files of testdata and, when present, of
// the shared corpus.
func checkFiles(t *testing.T) []string {
	var files []string
	roots := []string{"../../../testdata/pi", "../../../testdata/omp", "../../../testdata/field", "../../../testdata"}
	if _, err := os.Stat("../../../../shared/corpus"); err == nil {
		roots = append(roots, "../../../../shared/corpus")
	}
	seen := map[string]bool{}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !seen[filepath.Clean(p)] {
				seen[filepath.Clean(p)] = true
				files = append(files, p)
			}
			return nil
		})
	}
	return files
}

// TestCheckFactsSameAsLines: Check with the facts the parallel index pass
// gathers (Options.Check) gives the same problems as Check reading the
// path's lines back after a serial index, on every .jsonl of testdata (and
// the shared corpus when present), with chunks of 64 bytes (most lines
// longer than a chunk: read back), 300 and 4096 bytes and the default,
// and 1 to 3 workers.
func TestCheckFactsSameAsLines(t *testing.T) {
	files := checkFiles(t)
	if len(files) < 20 {
		t.Fatalf("only %d files found", len(files))
	}
	defer func(p int) { serialIndex, indexChunkSize = false, 0; runtime.GOMAXPROCS(p) }(runtime.GOMAXPROCS(0))
	used, compared := 0, 0
	for _, p := range files {
		serialIndex = true
		a, errA := Open(p, Options{})
		serialIndex = false
		if errA != nil {
			continue
		}
		if a.facts != nil {
			t.Fatalf("%s: the serial pass gathered facts", p)
		}
		want := a.Check(CheckOptions{})
		for k, chunk := range []int{0, 64, 300, 4096} {
			runtime.GOMAXPROCS(1 + k%3)
			indexChunkSize = chunk
			b, errB := Open(p, Options{Check: true})
			if errB != nil {
				t.Fatalf("%s (chunk %d): %v", p, chunk, errB)
			}
			if b.facts != nil && b.Legacy == nil {
				used++
			}
			got := b.Check(CheckOptions{})
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("%s (chunk %d, %d workers): problems differ:\nlines: %+v\nfacts: %+v", p, chunk, 1+k%3, want, got)
			}
			compared++
		}
	}
	if used < 50 {
		t.Fatalf("facts used for only %d opens", used)
	}
	t.Logf("%d files, %d comparisons, facts used in %d", len(files), compared, used)
}

// inspectLine runs the workers' fact extraction on one line.
func inspectLine(line []byte) (lineFact, bool) {
	s := jsonl.NewScanner(checkCaptured)
	if !s.Scan(line) || !s.IsObject() {
		return lineFact{}, false
	}
	rec := &jsonl.Record{Kind: jsonl.Object, Raw: line, Newline: true, Top: s.Top, Sub: s.Sub}
	b := &jsonl.Batch{}
	inspectFacts(rec, b)
	st := b.Aux.(*idHashes).facts
	if st == nil || len(st.facts) == 0 {
		return lineFact{}, true
	}
	c := &checkFacts{stores: []*factStore{st}}
	return c.fact(&st.facts[0]), true
}

// FuzzCheckFacts: the fact the workers derive from a line's captures is
// the one the line rules derive from the line (for the type and role the
// index gives it), for any valid JSON object line.
func FuzzCheckFacts(f *testing.F) {
	for _, s := range []string{
		`{"type":"message","id":"a","message":{"role":"assistant","stopReason":"error","content":[{"type":"toolCall","id":"c1","name":"bash"},{"type":"text","text":"x"}]}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"tool\u0043all","i\u0064":"c\"2","name":"n","name":"m"},{"type":"toolCall","type":"text"},"s",[1],{}]}}`,
		`{"type":"message","message":{"role":"toolResult","toolCallId":"c1","toolCallId":7}}`,
		`{"type":"message","message":{"role":"user","content":null}}`,
		`{"type":"message","message":{"role":"assistant","content":{"a":1}}}`,
		`{"type":"message","message":[{"role":"assistant"}]}`,
		`{"type":"message","message":"x"}`,
		`{"type":"message"}`,
		`{"type":"message","message":{"role":"toolResult"},"message":{"role":"assistant","content":[{"type":"toolCall","id":1}]}}`,
		`{"type":"compaction","firstKeptEntryId":"abc"}`,
		`{"type":"compaction","firstKeptEntryId":12,"firstKeptEntryId":null}`,
		`{"type":"compaction"}`,
		`{"type":"mess\u0061ge","message":{"role":"toolResult","toolCallId":"\ud800"}}`,
		` {"type" : "message" , "message" : { "content" : [ { "type" : "toolCall" , "name" : "a" } ] , "role" : "assistant" } } `,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"say \"toolCall\" C"},{"type":"toolC\u0061ll","id":"x"}]}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"\"toolCall\""}]}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"thinking","thinking":"Call"},{"type":"toolCall","id":"C","name":"toolCall"}]}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got, ok := inspectLine([]byte(line))
		if !ok {
			return
		}
		typ, _ := jsonl.String(firstField([]byte(line), "type"))
		if typ != "message" && typ != "compaction" {
			return
		}
		role := ""
		if typ == "message" {
			role, _ = jsonl.String(sub(firstField([]byte(line), "message"), "role"))
		}
		want := factFromLine([]byte(line), typ, role)
		if typ == "message" && role != "assistant" && role != "toolResult" {
			want.calls, want.dropped = nil, false
		}
		if role == "assistant" && len(want.calls) == 0 {
			want.dropped = false // not stored: it only qualifies calls
		}
		if role == "assistant" && len(got.calls) == 0 {
			got.dropped = false
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%s (type %q role %q):\nline rules: %+v\nfacts:      %+v", line, typ, role, want, got)
		}
	})
}

func firstField(b []byte, key string) []byte {
	v, _ := jsonl.Field(b, key)
	return v
}

// TestFactLookup: the cursor lookup finds what a plain search finds, for
// entries asked in any order.
func TestFactLookup(t *testing.T) {
	var c checkFacts
	for e := 0; e < 200; e += 1 + e%3 {
		c.facts = append(c.facts, storedFact{entry: int32(e)})
	}
	has := map[int]bool{}
	for _, f := range c.facts {
		has[int(f.entry)] = true
	}
	orders := [][]int{{}, {}, {}}
	for i := -2; i < 205; i++ {
		orders[0] = append(orders[0], i)
		orders[1] = append(orders[1], 204-i)
		orders[2] = append(orders[2], (i*37+11)%207-2)
	}
	for _, order := range orders {
		cur := 0
		for _, i := range order {
			sf, ok := c.lookup(i, &cur)
			if ok != has[i] || ok && int(sf.entry) != i {
				t.Fatalf("lookup(%d) = %v, %v", i, sf, ok)
			}
		}
	}
}
