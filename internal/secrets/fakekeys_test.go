package secrets

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

var update = flag.Bool("update", false, "rewrite testdata/fakekeys.tsv")

// gen writes a string re matches, with random picks from classes so that
// the result has the entropy of a real key. rng makes it reproducible.
func gen(b *strings.Builder, re *syntax.Regexp, rng *rand.Rand) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && rng.Intn(2) == 0 {
				r = unicode.SimpleFold(r)
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		// Prefer letters and digits when the class has them (keys are).
		var pool []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1] && r < 0x80; r++ {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					pool = append(pool, r)
				}
			}
		}
		if len(pool) == 0 && classHas(re.Rune, ' ') {
			pool = []rune{' '}
		}
		if len(pool) == 0 {
			for i := 0; i+1 < len(re.Rune); i += 2 {
				for r := re.Rune[i]; r <= re.Rune[i+1] && r < 0x80; r++ {
					if r != '\n' && r != '\r' {
						pool = append(pool, r)
					}
				}
			}
		}
		if len(pool) == 0 {
			b.WriteRune(re.Rune[0])
			return
		}
		b.WriteRune(pool[rng.Intn(len(pool))])
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		// Often a dot written loosely (hooks.slack.com); else a key character.
		if rng.Intn(2) == 0 {
			b.WriteByte('.')
		} else {
			b.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789"[rng.Intn(36)])
		}
	case syntax.OpCapture:
		gen(b, re.Sub[0], rng)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			gen(b, s, rng)
		}
	case syntax.OpAlternate:
		gen(b, re.Sub[0], rng)
	case syntax.OpStar, syntax.OpQuest:
	case syntax.OpPlus:
		gen(b, re.Sub[0], rng)
	case syntax.OpRepeat:
		n := re.Min
		if n > 0 && (re.Max > n || re.Max == -1) {
			// Long enough for the entropy of a real key.
			n = 24
			if re.Max != -1 && re.Max < n {
				n = re.Max
			}
			if n < re.Min {
				n = re.Min
			}
		}
		for i := 0; i < n; i++ {
			gen(b, re.Sub[0], rng)
		}
	}
}

// fakeKey makes a text holding a fake key the rule finds: "<key>" alone, or
// after the rule's first keyword and " = ".
func fakeKey(r *Rule, rng *rand.Rand) string {
	re, err := syntax.Parse(r.re.String(), syntax.Perl)
	if err != nil {
		return ""
	}
	var b strings.Builder
	gen(&b, re, rng)
	return b.String()
}

// handMade are fake keys for rules whose expression the generator cannot
// satisfy: a Kubernetes Secret needs "kind: Secret" and a data: block over
// several lines (gen writes no newline). Each is checked like a generated
// one.
var handMade = map[string]string{
	"kubernetes-secret-yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\ndata:\n  password: c3VwZXJzZWNyZXRwYXNzd29yZDEyMw==\n",
}

// tsvKey writes a key for fakekeys.tsv: as is, or Go-quoted when it holds a
// tab, newline or carriage return, or starts with a double quote.
func tsvKey(k string) string {
	if strings.ContainsAny(k, "\t\n\r") || strings.HasPrefix(k, `"`) {
		return strconv.Quote(k)
	}
	return k
}

// readTSVKey reads a key written by tsvKey.
func readTSVKey(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		return strconv.Unquote(s)
	}
	return s, nil
}

func TestEveryRuleFindsAFakeKey(t *testing.T) {
	d, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rules) < 200 {
		t.Fatalf("only %d rules", len(d.Rules))
	}
	rng := rand.New(rand.NewSource(42))
	var lines []string
	var missed []string
	for _, r := range d.Rules {
		found := ""
		if k, ok := handMade[r.ID]; ok {
			for _, f := range d.Find("here it is: " + k + " \n") {
				if f.Kind == r.ID {
					found = k
				}
			}
		}
		for try := 0; try < 200 && found == ""; try++ {
			k := fakeKey(r, rng)
			if strings.ContainsAny(k, "\n\r\t") || k == "" {
				continue
			}
			if try%2 == 1 && len(r.keywords) > 0 {
				k = r.keywords[rng.Intn(len(r.keywords))] + " " + k // the rule's context word
			}
			text := "here it is: " + k + " \n"
			fs := d.Find(text)
			for _, f := range fs {
				if f.Kind == r.ID {
					found = k
				}
			}
		}
		if found == "" {
			missed = append(missed, r.ID)
			continue
		}
		lines = append(lines, r.ID+"\t"+tsvKey(found))
	}
	sort.Strings(lines)
	t.Logf("fake keys for %d of %d rules; no generated key for: %v", len(lines), len(d.Rules), missed)
	if len(missed) > 5 {
		t.Fatalf("no fake key for %d rules: %v", len(missed), missed)
	}
	if *update {
		if err := os.WriteFile("testdata/fakekeys.tsv", []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCorpusRedactsToZero reads the committed fake keys: each is found with
// its kind, and Redact leaves none (a second Find is empty) and no key text.
func TestCorpusRedactsToZero(t *testing.T) {
	d, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/fakekeys.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	var all strings.Builder
	for sc.Scan() {
		kind, key, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("bad line %q", sc.Text())
		}
		key, err := readTSVKey(key)
		if err != nil {
			t.Fatalf("bad key %q: %v", sc.Text(), err)
		}
		n++
		text := fmt.Sprintf("export KEY=%s\nnext line", key)
		fs := d.Find(text)
		kinds := []string{}
		for _, f := range fs {
			kinds = append(kinds, f.Kind)
		}
		if len(fs) == 0 {
			t.Errorf("%s: not found in %q", kind, text)
			continue
		}
		red, m := d.Redact(text)
		if m == 0 || len(d.Find(red)) != 0 || !strings.Contains(red, "[redacted:") {
			t.Errorf("%s: redacted %d, left %q", kind, m, red)
		}
		all.WriteString("msg: " + key + "\n")
	}
	if n < 200 {
		t.Fatalf("only %d fake keys", n)
	}
	red, m := d.Redact(all.String())
	if left := d.Find(red); len(left) != 0 || m < n {
		t.Fatalf("all keys in one text: redacted %d of %d, %d left", m, n, len(left))
	}
}

func TestAllowlistsAndEntropy(t *testing.T) {
	d, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"api_key = ${API_KEY}",                    // a template variable (global allowlist)
		"password = aaaaaaaaaaaaaaaaaaaaaaaaaaaa", // one letter repeated
		"token: 'abcdefghijklmnopqrstuvwxyz'",     // stopword
		"the quick brown fox",
	} {
		if fs := d.Find(s); len(fs) != 0 {
			t.Errorf("%q: found %v", s, fs)
		}
	}
	text := "aws: AKIAZ7Q3XK4WMBN5RT2P and more"
	fs := d.Find(text)
	if len(fs) != 1 || fs[0].Kind != "aws-access-token" || text[fs[0].Start:fs[0].End] != "AKIAZ7Q3XK4WMBN5RT2P" {
		t.Fatalf("aws key: %+v", fs)
	}
}

func classHas(ranges []rune, c rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] <= c && c <= ranges[i+1] {
			return true
		}
	}
	return false
}
