package migrate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonedit"
)

const fixtures = "../../testdata/pi/migrate"

// splitLines splits keeping each line's "\n".
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}

// entry is one parsed object line of a file, as the agents' loader sees it.
type entry struct {
	line int
	raw  []byte
	keys []string
	obj  map[string]any
}

func parsedEntries(t *testing.T, lines [][]byte) []entry {
	t.Helper()
	var out []entry
	for i, l := range lines {
		body := bytes.TrimPrefix(l, []byte("\xef\xbb\xbf"))
		if !json.Valid(body) || firstByte(body) != '{' {
			continue
		}
		o, err := jsonedit.Parse(body)
		if err != nil {
			t.Fatal(err)
		}
		e := entry{line: i, raw: body}
		for _, m := range o.Members {
			e.keys = append(e.keys, m.Key)
		}
		d := json.NewDecoder(bytes.NewReader(body))
		d.UseNumber()
		if err := d.Decode(&e.obj); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// normalize replaces entry ids by "#<entry index>" (or "?<id>" when the id
// names no entry) so files with different random ids can be compared.
func normalize(es []entry) []map[string]any {
	index := map[string]int{}
	for i, e := range es {
		if id, ok := e.obj["id"].(string); ok && e.obj["type"] != "session" {
			index[id] = i
		}
	}
	ref := func(v any) any {
		s, ok := v.(string)
		if !ok {
			return v
		}
		if i, ok := index[s]; ok {
			return "#" + strconv.Itoa(i)
		}
		return "?" + s
	}
	var out []map[string]any
	for _, e := range es {
		m := map[string]any{}
		for k, v := range e.obj {
			m[k] = v
		}
		if m["type"] != "session" {
			for _, k := range []string{"id", "parentId", "firstKeptEntryId"} {
				if v, ok := m[k]; ok {
					m[k] = ref(v)
				}
			}
		}
		out = append(out, m)
	}
	return out
}

type expectedMigrate struct {
	File      *string `json:"file"`
	Throws    string  `json:"throws"`
	Rewritten bool    `json:"rewritten"`
	Cases     []struct {
		Leaf    *string         `json:"leaf"`
		Context json.RawMessage `json:"context"`
	} `json:"cases"`
}

// TestParityWithPi migrates every input in testdata/pi/migrate and compares
// with what pi 0.73.1 wrote (X.pi-migrated.jsonl): same entries once ids are
// mapped by position, same key order, same chain and firstKeptEntryId
// targets, byte-identical lines where pi changed nothing. The context
// comparison (X.expected.json) is in ./piparity, which needs the pi format
// package.
func TestParityWithPi(t *testing.T) {
	inputs, _ := filepath.Glob(filepath.Join(fixtures, "*.jsonl"))
	var n int
	for _, in := range inputs {
		if strings.HasSuffix(in, ".pi-migrated.jsonl") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(in), ".jsonl")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			var exp expectedMigrate
			eb, err := os.ReadFile(filepath.Join(fixtures, name+".expected.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(eb, &exp); err != nil {
				t.Fatal(err)
			}
			inLines := splitLines(src)
			out, sum, err := Lines(inLines, Options{})
			if err != nil {
				t.Fatal(err)
			}
			outBytes := bytes.Join(out, nil)
			if exp.Throws != "" {
				// pi cannot open this file (a non-object line in a v1 file);
				// we migrate it and keep the odd line.
				if sum.KeptNonObject == 0 || len(sum.Warnings) == 0 {
					t.Fatalf("expected a kept non-object line and a warning: %+v", sum)
				}
			}
			if sum.Needed != exp.Rewritten && exp.Throws == "" {
				t.Errorf("Needed=%v but pi rewritten=%v", sum.Needed, exp.Rewritten)
			}

			inEntries := parsedEntries(t, inLines)
			ourEntries := parsedEntries(t, out)
			// Unchanged lines are byte-identical; pi-unchanged lines must
			// be unchanged here too.
			if exp.File != nil {
				piLines := splitLines(mustRead(t, filepath.Join(fixtures, *exp.File)))
				piEntries := parsedEntries(t, piLines)
				if len(piEntries) != len(ourEntries) {
					t.Fatalf("%d entries, pi has %d", len(ourEntries), len(piEntries))
				}
				gotN, wantN := normalize(ourEntries), normalize(piEntries)
				for i := range gotN {
					if !reflect.DeepEqual(gotN[i], wantN[i]) {
						t.Errorf("entry %d differs from pi's:\n ours %v\n pi   %v", i, gotN[i], wantN[i])
					}
					if !reflect.DeepEqual(ourEntries[i].keys, piEntries[i].keys) {
						t.Errorf("entry %d key order %v, pi %v", i, ourEntries[i].keys, piEntries[i].keys)
					}
					if reflect.DeepEqual(inEntries[i].obj, piEntries[i].obj) && !bytes.Equal(ourEntries[i].raw, inEntries[i].raw) {
						t.Errorf("entry %d needs no change but its bytes changed", i)
					}
				}
			}
			// Every line that is not an entry is kept byte for byte, and
			// no line was added or dropped.
			if len(out) != len(inLines) {
				t.Fatalf("%d lines out, %d in", len(out), len(inLines))
			}
			for i := range inLines {
				if !json.Valid(bytes.TrimPrefix(inLines[i], []byte("\xef\xbb\xbf"))) && !bytes.Equal(inLines[i], out[i]) {
					t.Errorf("unparsed line %d changed", i+1)
				}
			}
			// Unique ids.
			seen := map[string]bool{}
			for _, e := range ourEntries {
				if id, ok := e.obj["id"].(string); ok && e.obj["type"] != "session" {
					if seen[id] {
						t.Errorf("duplicate id %s", id)
					}
					seen[id] = true
				}
			}
			// Migrating twice is a no-op.
			n++
			again, sum2, err := Lines(out, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if sum2.Needed || sum2.LinesChanged != 0 || !bytes.Equal(bytes.Join(again, nil), outBytes) {
				t.Errorf("second migration changed something: %+v", sum2)
			}
		})
	}
	if n == 0 {
		t.Skip("no migration fixtures found")
	}
	t.Logf("%d files compared with pi's migration", n)
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
