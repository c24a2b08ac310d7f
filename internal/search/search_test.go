package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// escapeAll writes s as a JSON string the way a strict ASCII writer does
// (Python's ensure_ascii), also escaping the ASCII characters in extra and
// '/' as \/.
func escapeAll(s string, extra string) []byte {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '/':
			b.WriteString(`\/`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || strings.ContainsRune(extra, r):
			fmt.Fprintf(&b, `\u%04X`, r)
		case r >= 0x80 && r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x10000:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.Bytes()
}

// checkNeverDrops asserts that a record whose decoded text matches is a
// candidate, for every way of writing it.
func checkNeverDrops(t *testing.T, text, pattern string, o Options) {
	t.Helper()
	m, err := Compile(pattern, o)
	if err != nil {
		return
	}
	if !m.Match(text) || m.Prefilter() == nil {
		return
	}
	std, _ := json.Marshal(text) // Go: escapes < > & and U+2028/9
	writings := [][]byte{std, escapeAll(text, ""), escapeAll(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 <>&'")}
	for _, raw := range writings {
		rec := append([]byte(`{"content":`), raw...)
		rec = append(rec, '}')
		if !m.Prefilter().Candidate(rec) {
			t.Fatalf("pattern %q (%+v) matches %q but the prefilter drops %s", pattern, o, text, rec)
		}
		var lines []int
		in := append(append([]byte("{}\n"), rec...), []byte("\n{}\n")...)
		if err := m.Prefilter().ScanLines(bytes.NewReader(in), make([]byte, 8192), func(l int) error { lines = append(lines, l); return nil }); err != nil {
			t.Fatal(err)
		}
		if !contains(lines, 2) {
			t.Fatalf("ScanLines misses line 2 for %q in %s (got %v)", pattern, rec, lines)
		}
	}
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func TestPrefilterNeverDropsAMatch(t *testing.T) {
	cases := []struct {
		text, pattern string
		o             Options
	}{
		{"foo\nbar", "foo\nbar", Options{}},
		{`say "hi" now`, `"hi" now`, Options{}},
		{"a <b> & c", "<b> & c", Options{}},
		{"path/to/file", "to/file", Options{}},
		{"café au lait", "café", Options{}},
		{"CAFÉ", "café", Options{IgnoreCase: true}},
		{"\u212a\u212aelvin", "kkelvin", Options{Regexp: true, IgnoreCase: true}},
		{"long \u017fpeech", "SPEECH", Options{Regexp: true, IgnoreCase: true}},
		{"emoji 😀 here", "😀 here", Options{}},
		{"tab\there", "tab\there", Options{}},
		{"Hello World", "hello world", Options{IgnoreCase: true}},
		{"error: 42 failed", `error: \d+ failed`, Options{Regexp: true}},
		{"ERROR: 42", `(?i)error`, Options{Regexp: true}},
		{"x-api-key", `api.key`, Options{Regexp: true}},
	}
	for _, c := range cases {
		m, err := Compile(c.pattern, c.o)
		if err != nil {
			t.Fatal(err)
		}
		if !m.Match(c.text) {
			t.Fatalf("%q does not match %q", c.pattern, c.text)
		}
		checkNeverDrops(t, c.text, c.pattern, c.o)
	}
}

func TestPrefilterRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []rune("abcKkSsſK/\"\\\n<>&' é😀xyz")
	for i := 0; i < 20000; i++ {
		n := 1 + rng.Intn(20)
		rs := make([]rune, n)
		for j := range rs {
			rs[j] = alphabet[rng.Intn(len(alphabet))]
		}
		text := string(rs)
		a := rng.Intn(n)
		b := a + 1 + rng.Intn(n-a)
		pattern := string(rs[a:b])
		o := Options{IgnoreCase: rng.Intn(2) == 0}
		if rng.Intn(2) == 0 {
			pattern = strings.ToUpper(pattern)
		}
		if rng.Intn(3) == 0 { // the same as a regular expression: Unicode folding, alarms
			o.Regexp = true
			pattern = regexp.QuoteMeta(pattern)
		}
		checkNeverDrops(t, text, pattern, o)
	}
}

func TestPrefilterPicksOnlyLinesWithTheLiteral(t *testing.T) {
	m, _ := Compile("needle", Options{IgnoreCase: true})
	var in bytes.Buffer
	want := []int{}
	for i := 1; i <= 5000; i++ {
		switch {
		case i%997 == 0:
			fmt.Fprintf(&in, `{"text":"%s NeEdLe %s"}`+"\n", strings.Repeat("x", i), strings.Repeat("y", i))
			want = append(want, i)
		case i%1013 == 0:
			fmt.Fprintf(&in, `{"text":"ne\u0065dle"}`+"\n") // an escaped letter raises the alarm
			want = append(want, i)
		default:
			fmt.Fprintf(&in, `{"text":"hay %d \u001b[0m nee dle"}`+"\n", i)
		}
	}
	for _, size := range []int{4096, 1 << 20} {
		var got []int
		if err := m.Prefilter().ScanLines(bytes.NewReader(in.Bytes()), make([]byte, size), func(l int) error { got = append(got, l); return nil }); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("buffer %d: candidate lines %v, want %v", size, got, want)
		}
	}
}

func TestLongLineAcrossBuffers(t *testing.T) {
	m, _ := Compile("straddle", Options{})
	line := strings.Repeat("z", 4096-3) + "straddle" + strings.Repeat("z", 9000)
	in := "{}\n" + line + "\n{}\n"
	var got []int
	if err := m.Prefilter().ScanLines(strings.NewReader(in), make([]byte, 4096+14), func(l int) error { got = append(got, l); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[2]" {
		t.Fatalf("got %v", got)
	}
}

func TestRequiredLiteral(t *testing.T) {
	for expr, want := range map[string]string{
		`foo`:             "foo",
		`error: \d+ fail`: "error: ",
		`(abc)+x`:         "x",
		`a|b`:             "",
		`.*`:              "",
	} {
		lit, _, ok := requiredLiteral(expr)
		if (want == "") == ok || lit != want {
			t.Errorf("%q: got %q %v, want %q", expr, lit, ok, want)
		}
	}
}

func TestCompileRefusesEmptyMatches(t *testing.T) {
	for _, p := range []string{"", "a*"} {
		if _, err := Compile(p, Options{Regexp: true}); err == nil {
			t.Errorf("%q accepted", p)
		}
	}
}

func TestSnippet(t *testing.T) {
	text := "first line\n" + strings.Repeat("é", 50) + " the NEEDLE is here " + strings.Repeat("x", 200) + "\nlast"
	m, _ := Compile("needle", Options{IgnoreCase: true})
	spans, n := m.Find(text, 0)
	if n != 1 {
		t.Fatalf("matches %d", n)
	}
	s, at := Snippet(text, spans, 40)
	if !utf8.ValidString(s) || strings.Contains(s, "\n") {
		t.Fatalf("snippet %q", s)
	}
	if len(at) != 1 || s[at[0][0]:at[0][1]] != "NEEDLE" {
		t.Fatalf("spans %v in %q", at, s)
	}
}

func FuzzPrefilter(f *testing.F) {
	f.Add("foo\nbar", "o\nb", false)
	f.Add("KELVIN \u212a", "k", true)
	f.Add(`a "quoted" <tag>`, `"quoted" <t`, false)
	f.Fuzz(func(t *testing.T, text, pattern string, fold bool) {
		if !utf8.ValidString(text) || !utf8.ValidString(pattern) {
			return
		}
		checkNeverDrops(t, text, pattern, Options{IgnoreCase: fold})
	})
}

func TestFixedIgnoreCaseFoldsASCIIWithASCII(t *testing.T) {
	m, _ := Compile("Kelvin's", Options{IgnoreCase: true})
	if !m.Match("KELVIN'S") || !m.Match("kelvin's") || m.Match("\u212aelvin's") || m.Match("Kelvin'\u017f") {
		t.Fatal("-F -i must fold ASCII letters with ASCII only")
	}
	m, _ = Compile("ÉTÉ", Options{IgnoreCase: true})
	if !m.Match("été") {
		t.Fatal("-F -i must fold other letters")
	}
}
