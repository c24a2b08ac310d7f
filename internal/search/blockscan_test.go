package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// minBuf is the smallest buffer the block scan uses as given: blocks of
// about 4 KiB, so tests can put a match on every side of a block boundary.
func minBuf(p *Prefilter) []byte {
	keep := len(p.s) - 1
	if p.maxAlm-1 > keep {
		keep = p.maxAlm - 1
	}
	return make([]byte, 2*keep+4096)
}

// truth says which lines of a JSONL input hold a match in a decoded string
// (what search finally decides), and which the prefilter takes line by line
// (Candidate on each raw line, CR included).
func truth(t *testing.T, m *Matcher, in []byte) (matching, candidates []int) {
	t.Helper()
	for i, raw := range bytes.Split(in, []byte{'\n'}) {
		if len(raw) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("line %d is not JSON: %v: %q", i+1, err, raw)
		}
		if anyStringMatches(m, v) {
			matching = append(matching, i+1)
		}
		if m.Prefilter().Candidate(raw) {
			candidates = append(candidates, i+1)
		}
	}
	return matching, candidates
}

func anyStringMatches(m *Matcher, v any) bool {
	switch x := v.(type) {
	case string:
		return m.Match(x)
	case []any:
		for _, e := range x {
			if anyStringMatches(m, e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if anyStringMatches(m, e) {
				return true
			}
		}
	}
	return false
}

// checkBlocks runs the block scan on in with the smallest buffer and checks
// it against the line-by-line truth: every matching line is a candidate,
// the candidates are exactly those Candidate takes on each line, and Any
// says whether there is one.
func checkBlocks(t *testing.T, m *Matcher, in []byte, label string) {
	t.Helper()
	matching, want := truth(t, m, in)
	var got []int
	p := m.Prefilter()
	if err := p.ScanLines(bytes.NewReader(in), minBuf(p), func(l int) error { got = append(got, l); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: block scan found lines %v, line by line %v", label, got, want)
	}
	for _, l := range matching {
		if !contains(got, l) {
			t.Fatalf("%s: line %d matches but is no candidate (%v)", label, l, got)
		}
	}
	// ScanLineBytes: the same lines, each with its exact bytes when it lies
	// whole in a block (always when the buffer holds the whole input).
	all := bytes.Split(in, []byte{'\n'})
	for _, size := range []int{len(minBuf(p)), len(in) + 2*len(minBuf(p))} {
		var lines []int
		err := p.ScanLineBytes(bytes.NewReader(in), make([]byte, size), 0, func(l int, raw []byte) error {
			lines = append(lines, l)
			if raw != nil && !bytes.Equal(raw, all[l-1]) {
				t.Fatalf("%s: line %d given as %q, is %q", label, l, raw, all[l-1])
			}
			if raw == nil && size > len(in) {
				t.Fatalf("%s: line %d not given whole with a buffer holding the input", label, l)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(lines) != fmt.Sprint(want) {
			t.Fatalf("%s: ScanLineBytes found lines %v, line by line %v", label, lines, want)
		}
	}
	// A first block of minBuf's size, then blocks of a buffer holding four
	// times the input: a line the first block cuts, whose part in it is a
	// candidate, is carried to the next block and given whole; so is
	// every line that starts after the first block.
	first := len(minBuf(p))
	starts := []int{0}
	for i, c := range in {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	var lines []int
	err := p.ScanLineBytes(bytes.NewReader(in), make([]byte, 4*(len(in)+first)), first, func(l int, raw []byte) error {
		lines = append(lines, l)
		s := starts[l-1]
		if raw == nil && (s >= first || p.Candidate(in[s:first])) {
			t.Fatalf("%s: first block %d: line %d (at %d) not given whole", label, first, l, s)
		}
		if raw != nil && !bytes.Equal(raw, all[l-1]) {
			t.Fatalf("%s: first block %d: line %d given as %.80q, is %.80q", label, first, l, raw, all[l-1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Fatalf("%s: first block %d: ScanLineBytes found lines %v, line by line %v", label, first, lines, want)
	}
	any, err := p.Any(bytes.NewReader(in), minBuf(p))
	if err != nil {
		t.Fatal(err)
	}
	if any != (len(want) > 0) {
		t.Fatalf("%s: Any = %v with candidates %v", label, any, want)
	}
}

// TestBlockScanAtEveryBoundary moves a record holding a match across the
// first block boundary byte by byte, for plain and escaped writings,
// LF and CRLF line ends, a match split by an escape, and -i with non-ASCII
// letters in the pattern.
func TestBlockScanAtEveryBoundary(t *testing.T) {
	cases := []struct {
		pattern string
		o       Options
		text    string // holds a match
		miss    string // holds none
	}{
		{"Kubernetes", Options{}, "we run Kubernetes here", "we run Kubernete s here"},
		{"foo\nbar", Options{}, "say foo\nbar now", "say foo bar now"}, // split by \n
		{`say "hi"`, Options{}, `they say "hi" twice`, `they say hi twice`},
		{"Ärger mit Kubernetes", Options{IgnoreCase: true}, "viel äRGER MIT kubernetes heute", "viel Ärger mit Kubern etes"},
		{"straße", Options{IgnoreCase: true}, "die STRASSE und die Straße", "die Strasse"},
		{"kube(rnetes|ctl)", Options{Regexp: true, IgnoreCase: true}, "run KUBECTL apply", "run kube ctl"},
	}
	for _, c := range cases {
		m, err := Compile(c.pattern, c.o)
		if err != nil {
			t.Fatal(err)
		}
		if m.Prefilter() == nil {
			t.Fatalf("%q: no prefilter", c.pattern)
		}
		block := len(minBuf(m.Prefilter()))
		for _, text := range []string{c.text, c.miss} {
			std, _ := json.Marshal(text)
			for wi, raw := range [][]byte{std, escapeAll(text, ""), escapeAll(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ")} {
				rec := `{"type":"message","text":` + string(raw) + `}`
				eols := []string{"\n", "\r\n"}
				if wi > 0 {
					eols = eols[:1] // CRLF with the plain writing is enough
				}
				for _, eol := range eols {
					// The record starts up to len(rec)+8 bytes before the
					// block end, down to 8 bytes after it.
					for shift := -8; shift <= len(rec)+8; shift++ {
						fill := block - shift - len(`{"f":""}`) - len(eol)
						if fill < 0 {
							continue
						}
						in := `{"f":"` + strings.Repeat("x", fill) + `"}` + eol + rec + eol + `{"f":"after"}` + eol
						checkBlocks(t, m, []byte(in), fmt.Sprintf("%q writing %d eol %q shift %d", text, wi, eol, shift))
					}
				}
			}
		}
	}
}

// TestBlockScanLineLongerThanBlocks: a match at the start, middle and end
// of a line many blocks long, and a line after it; line numbers are right
// and the long line is reported once.
func TestBlockScanLineLongerThanBlocks(t *testing.T) {
	m, _ := Compile("needle", Options{IgnoreCase: true})
	block := len(minBuf(m.Prefilter()))
	for _, at := range []int{0, 1, block - 3, block, 2*block + 1, 5*block - 7} {
		body := []byte(strings.Repeat("y", 5*block))
		copy(body[at:], "NeEdLe")
		in := "{}\r\n" + `{"t":"` + string(body) + `"}` + "\r\n" + `{"t":"no"}` + "\n" + `{"t":"a needle"}` + "\n"
		checkBlocks(t, m, []byte(in), fmt.Sprintf("needle at %d", at))
		var got []int
		m.Prefilter().ScanLines(strings.NewReader(in), minBuf(m.Prefilter()), func(l int) error { got = append(got, l); return nil })
		if fmt.Sprint(got) != "[2 4]" {
			t.Fatalf("needle at %d: lines %v, want [2 4]", at, got)
		}
	}
	// An escape hiding a letter, many blocks into a line.
	body := strings.Repeat("z", 3*block) + `ne\u0065dle` + strings.Repeat("z", block)
	checkBlocks(t, m, []byte(`{"t":"`+body+`"}`+"\n"), "escaped letter in a long line")
}
