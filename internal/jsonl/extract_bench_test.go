package jsonl

// Field-extraction measurement (see docs/benchmarks.md for the numbers).
//
//	go test -run='^$' -bench=Extract -benchtime=2s -count=5 ./internal/jsonl
//
// Each benchmark extracts the three structural fields (type, id, parent id)
// from every line of an in-memory synthetic corpus of about 48 MB and
// reports MB/s over the whole corpus, and MB/cpu-s: bytes per second of
// process CPU time (user+system, GC included), which stays meaningful when
// other processes compete for the cores. Corpora (deterministic, seeded):
//
//	pi      pi-style: type/id/parentId first, then a message of mixed size
//	        (70% 0.3–2 KB, 25% 2–30 KB, 5% 30–300 KB of text with \n, \t,
//	        \", é and 日本語 escapes)
//	claude  Claude-Code-style: the same messages, uuid/parentUuid after them
//	small   pi-style lines of about 1 KB (per-line overhead dominates)
//
// g measures jsonl.Fields (span.go), the reader's own non-validating member
// scanner, for comparison with the hand-rolled early-exit scanner e; h the
// validating Scanner (scan.go) alone and f2 the Reader in capture mode
// (SetCapture), which uses it instead of fastjson.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/valyala/fastjson"
)

const corpusSize = 48 << 20

type corpus struct {
	lines [][]byte // without '\n'
	all   []byte   // lines joined with '\n', trailing '\n'
	keys  [3]string
}

var (
	corpora   = map[string]*corpus{}
	corporaMu sync.Mutex
	sinkInt   int
)

var words = []string{"the", "session", "file", "line\n", "tab\there", `"quoted"`, "é", "日本語", "func", "main()",
	"{", "}", "return", "err", "nil", "path/to/file.go:42", "\\", "ok", "build", "test"}

func genText(r *rand.Rand, n int) string {
	var sb strings.Builder
	for sb.Len() < n {
		sb.WriteString(words[r.IntN(len(words))])
		sb.WriteByte(' ')
	}
	return sb.String()
}

func msgSize(r *rand.Rand, small bool) int {
	if small {
		return 700 + r.IntN(200)
	}
	switch p := r.IntN(100); {
	case p < 70:
		return 300 + r.IntN(1700)
	case p < 95:
		return 2000 + r.IntN(28000)
	default:
		return 30000 + r.IntN(270000)
	}
}

func getCorpus(style string) *corpus { return getCorpusN(style, corpusSize) }

func getCorpusN(style string, size int) *corpus {
	corporaMu.Lock()
	defer corporaMu.Unlock()
	name := fmt.Sprint(style, size)
	if c, ok := corpora[name]; ok {
		return c
	}
	r := rand.New(rand.NewPCG(42, 7))
	c := &corpus{keys: [3]string{"type", "id", "parentId"}}
	if style == "claude" {
		c.keys = [3]string{"type", "uuid", "parentUuid"}
	}
	prev := ""
	for i := 0; len(c.all) < size; i++ {
		text, _ := json.Marshal(genText(r, msgSize(r, style == "small")))
		var line string
		switch style {
		case "pi", "small":
			id := fmt.Sprintf("%08x", r.Uint32())
			parent := "null"
			if prev != "" {
				parent = `"` + prev + `"`
			}
			line = fmt.Sprintf(`{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-02-16T10:20:%02d.%03dZ",`+
				`"message":{"role":"assistant","content":[{"type":"text","text":%s}],"api":"anthropic-messages",`+
				`"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1200,"output":340,"cacheRead":0,"cacheWrite":0},`+
				`"stopReason":"stop","timestamp":1771237231000}}`, id, parent, i%60, i%1000, text)
			prev = id
		case "claude":
			id := fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xfff, r.Uint32()&0xfff, r.Uint64()&0xffffffffffff)
			parent := "null"
			if prev != "" {
				parent = `"` + prev + `"`
			}
			line = fmt.Sprintf(`{"isSidechain":false,"userType":"external","cwd":"/home/u/proj","sessionId":"0d3f5c2e-1b7a-4c59-9e0f-6a2b8c4d1e3f",`+
				`"version":"2.1.3","gitBranch":"main","type":"assistant","message":{"id":"msg_01","type":"message","role":"assistant",`+
				`"model":"claude-sonnet-4-5","content":[{"type":"text","text":%s}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":9}},`+
				`"requestId":"req_011","parentUuid":%s,"uuid":"%s","timestamp":"2026-02-16T10:20:%02d.%03dZ"}`, text, parent, id, i%60, i%1000)
			prev = id
		}
		c.all = append(c.all, line...)
		c.all = append(c.all, '\n')
	}
	for _, l := range bytes.SplitAfter(c.all, []byte{'\n'}) {
		if len(l) > 0 {
			c.lines = append(c.lines, l[:len(l)-1])
		}
	}
	corpora[name] = c
	return c
}

type fields3 struct {
	Type     string  `json:"type"`
	ID       string  `json:"id"`
	ParentID *string `json:"parentId"`
}

type fields3Claude struct {
	Type     string  `json:"type"`
	ID       string  `json:"uuid"`
	ParentID *string `json:"parentUuid"`
}

// benchSkipString returns the index after the string starting at b[i] == '"',
// or -1. No validation.
func benchSkipString(b []byte, i int) int {
	start := i
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		k := i + j
		n := 0
		for m := k - 1; m > start && b[m] == '\\'; m-- {
			n++
		}
		if n%2 == 0 {
			return k + 1
		}
		i = k + 1
	}
}

// benchSkipComposite returns the index after the object or array at b[i].
func benchSkipComposite(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i = benchSkipString(b, i)
			if i < 0 {
				return -1
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return -1
}

func benchSkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// benchScanKeys is a hand-rolled top-level key scanner without validation: it
// walks the top-level members of the object in b, skips values it does not
// need, stores the raw (still escaped) string values of keys and stops as
// soon as all of them are found. It returns false if b does not look like
// an object.
func benchScanKeys(b []byte, keys *[3]string, out *[3][]byte) bool {
	*out = [3][]byte{}
	found := 0
	i := benchSkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i++
	for {
		i = benchSkipSpace(b, i)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return true
		}
		if b[i] != '"' {
			return false
		}
		ke := benchSkipString(b, i)
		if ke < 0 {
			return false
		}
		key := b[i+1 : ke-1]
		i = benchSkipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = benchSkipSpace(b, i+1)
		if i >= len(b) {
			return false
		}
		var ve int
		switch b[i] {
		case '"':
			ve = benchSkipString(b, i)
		case '{', '[':
			ve = benchSkipComposite(b, i)
		default:
			ve = i
			for ve < len(b) && b[ve] != ',' && b[ve] != '}' && b[ve] != ' ' {
				ve++
			}
		}
		if ve < 0 {
			return false
		}
		if b[i] == '"' {
			for k := range keys {
				if out[k] == nil && string(key) == keys[k] {
					out[k] = b[i+1 : ve-1]
					found++
				}
			}
			if found == len(keys) {
				return true
			}
		}
		i = benchSkipSpace(b, ve)
		if i < len(b) && b[i] == ',' {
			i++
		}
	}
}

func TestBenchScanKeys(t *testing.T) {
	keys := [3]string{"type", "id", "parentId"}
	var out [3][]byte
	ok := benchScanKeys([]byte(`{"x":{"id":"no"},"s":"a\"b\\","type":"m","n":12,"parentId":null,"arr":[1,"]"],"id":"i1"}`), &keys, &out)
	if !ok || string(out[0]) != "m" || string(out[1]) != "i1" || out[2] != nil {
		t.Fatalf("benchScanKeys: %v %q", ok, out)
	}
	for _, style := range []string{"pi", "claude"} {
		c := getCorpusN(style, 4<<20)
		var p fastjson.Parser
		for i, l := range c.lines {
			if !benchScanKeys(l, &c.keys, &out) {
				t.Fatalf("%s line %d: not scanned", style, i)
			}
			v, err := p.ParseBytes(l)
			if err != nil {
				t.Fatal(err)
			}
			for k, key := range c.keys {
				if string(v.GetStringBytes(key)) != string(out[k]) {
					t.Fatalf("%s line %d key %s: scan %q, fastjson %q", style, i, key, out[k], v.GetStringBytes(key))
				}
			}
		}
	}
}

func BenchmarkExtract(b *testing.B) {
	for _, style := range []string{"pi", "claude", "small"} {
		c := getCorpus(style)
		run := func(name string, fn func()) {
			b.Run(style+"/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(c.all)))
				cpu0, n := processCPU(), 0
				for b.Loop() {
					fn()
					n++
				}
				if cpu := processCPU() - cpu0; cpu > 0 {
					b.ReportMetric(float64(len(c.all))*float64(n)/cpu/1e6, "MB/cpu-s")
				}
			})
		}
		run("split-bufio", func() {
			br := bufio.NewReaderSize(bytes.NewReader(c.all), BufferSize)
			for {
				l, err := br.ReadSlice('\n')
				sinkInt += len(l)
				if err != nil {
					break
				}
			}
		})
		run("a-std-unmarshal", func() {
			for _, l := range c.lines {
				if style == "claude" {
					var f fields3Claude
					if json.Unmarshal(l, &f) == nil {
						sinkInt += len(f.ID)
					}
				} else {
					var f fields3
					if json.Unmarshal(l, &f) == nil {
						sinkInt += len(f.ID)
					}
				}
			}
		})
		run("b-std-valid-unmarshal", func() {
			for _, l := range c.lines {
				if !json.Valid(l) {
					continue
				}
				if style == "claude" {
					var f fields3Claude
					if json.Unmarshal(l, &f) == nil {
						sinkInt += len(f.ID)
					}
				} else {
					var f fields3
					if json.Unmarshal(l, &f) == nil {
						sinkInt += len(f.ID)
					}
				}
			}
		})
		var p fastjson.Parser
		run("c-fastjson-parse-get", func() {
			for _, l := range c.lines {
				v, err := p.ParseBytes(l)
				if err != nil {
					continue
				}
				for _, k := range c.keys {
					sinkInt += len(v.GetStringBytes(k))
				}
			}
		})
		run("c2-fastjson-parse-validate-get", func() {
			for _, l := range c.lines {
				v, err := p.ParseBytes(l)
				if err != nil || fastjson.ValidateBytes(l) != nil {
					continue
				}
				for _, k := range c.keys {
					sinkInt += len(v.GetStringBytes(k))
				}
			}
		})
		run("d-fastjson-validate", func() {
			for _, l := range c.lines {
				if fastjson.ValidateBytes(l) == nil {
					sinkInt++
				}
			}
		})
		run("e-scan-keys-novalidate", func() {
			var out [3][]byte
			for _, l := range c.lines {
				if benchScanKeys(l, &c.keys, &out) {
					sinkInt += len(out[1])
				}
			}
		})
		run("g-jsonl-fields-novalidate", func() {
			for _, l := range c.lines {
				f := Fields(l, c.keys[0], c.keys[1], c.keys[2])
				sinkInt += len(f[1])
			}
		})
		scanner := NewScanner(&Capture{Top: c.keys[:]})
		run("h-jsonl-scanner-validate-capture", func() {
			for _, l := range c.lines {
				if scanner.Scan(l) && scanner.IsObject() {
					sinkInt += len(scanner.Top[1])
				}
			}
		})
		run("f2-jsonl-reader-capture", func() {
			rd := NewReader(bytes.NewReader(c.all))
			rd.SetCapture(&Capture{Top: c.keys[:]})
			for rd.Next() {
				r := rd.Record()
				if r.Kind == Object {
					sinkInt += len(r.Top[1])
				}
			}
		})
		run("f-jsonl-reader", func() {
			rd := NewReader(bytes.NewReader(c.all))
			for rd.Next() {
				r := rd.Record()
				if r.Kind == Object {
					for _, k := range c.keys {
						sinkInt += len(r.Str(k))
					}
				}
			}
		})
	}
}
