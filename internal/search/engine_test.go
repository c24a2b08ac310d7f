package search

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// lineSession is a minimal line-file session: each line is
// {"id","role","text"} and the last line is the leaf.
type lineSession struct {
	ref     sessfmt.Ref
	decoded *int
}

func (s *lineSession) Ref() sessfmt.Ref { return s.ref }
func (s *lineSession) Meta() sessfmt.Meta {
	return sessfmt.Meta{Agent: "test", ID: "0123456789abcdef", Title: "t"}
}
func (s *lineSession) Problems() []problem.Problem { return nil }
func (s *lineSession) Leaf() string                { return "" }
func (s *lineSession) Close() error                { return nil }
func (s *lineSession) Texts(o sessfmt.TextOptions, fn func(*sessfmt.Text) error) error {
	f, err := os.Open(s.ref.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		if o.Candidate != nil && !o.Candidate(n, sc.Bytes()) {
			continue
		}
		*s.decoded++
		var e struct{ ID, Role, Text string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			continue
		}
		if err := fn(&sessfmt.Text{Kind: sessfmt.TextBody, Text: e.Text, EntryID: e.ID, Line: n, Role: e.Role, OnPath: e.Role != "off"}); err != nil {
			return err
		}
	}
	return sc.Err()
}

func TestRunDecodesOnlyCandidates(t *testing.T) {
	dir := t.TempDir()
	var targets []Target
	for i := 0; i < 30; i++ {
		p := filepath.Join(dir, fmt.Sprintf("s%02d.jsonl", i))
		var body strings.Builder
		lines := 50
		if i < 3 {
			lines = 20000 // searched longer: done after later ones
		}
		for j := 0; j < lines; j++ {
			text := fmt.Sprintf("hay %d %d", i, j)
			role := "user"
			if i%10 == 3 && j == 7 {
				text = "split by an escape: foo\nbar"
			}
			if i%10 == 3 && j == 9 {
				text, role = "foo\nbar off the path", "off"
			}
			b, _ := json.Marshal(map[string]string{"id": fmt.Sprint(j), "role": role, "text": text})
			body.Write(b)
			body.WriteByte('\n')
		}
		if err := os.WriteFile(p, []byte(body.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		targets = append(targets, Target{Ref: sessfmt.Ref{Format: "test", Path: p}})
	}
	m, err := Compile("FOO\nBAR", Options{IgnoreCase: true})
	if err != nil {
		t.Fatal(err)
	}
	decoded, opened := 0, 0
	open := func(r sessfmt.Ref) (sessfmt.Session, error) {
		opened++
		return &lineSession{ref: r, decoded: &decoded}, nil
	}
	var got []string
	err = Run(Config{Matcher: m, Open: open, Workers: 1}, targets, func(r *Result) error {
		for _, h := range r.Hits {
			got = append(got, fmt.Sprintf("%s:%d:%s:%v:%q", filepath.Base(h.Session), h.Line, h.EntryID, h.OnPath, h.Snippet[h.Spans[0][0]:h.Spans[0][1]]))
		}
		return r.Err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `[s03.jsonl:8:7:true:"foo\nbar" s03.jsonl:10:9:false:"foo\nbar" s13.jsonl:8:7:true:"foo\nbar" s13.jsonl:10:9:false:"foo\nbar" s23.jsonl:8:7:true:"foo\nbar" s23.jsonl:10:9:false:"foo\nbar"]`
	if fmtQ(got) != want {
		t.Fatalf("hits\n%s\nwant\n%s", fmtQ(got), want)
	}
	if opened != 3 || decoded != 6 {
		t.Fatalf("opened %d sessions and decoded %d lines; want 3 and 6 (only candidates)", opened, decoded)
	}
	// Active path only, first hit only, in parallel.
	got = nil
	err = Run(Config{Matcher: m, Open: open, ActiveOnly: true, FirstOnly: true, Workers: 4}, targets, func(r *Result) error {
		for _, h := range r.Hits {
			got = append(got, fmt.Sprintf("%s:%d", filepath.Base(h.Session), h.Line))
		}
		return nil
	})
	if err != nil || fmt.Sprint(got) != "[s03.jsonl:8 s13.jsonl:8 s23.jsonl:8]" {
		t.Fatalf("got %v %v", got, err)
	}
	// Collect: the same, from a channel, every result in the order sent.
	in := make(chan Target)
	go func() {
		defer close(in)
		for _, t := range targets {
			in <- t
		}
	}()
	open = func(r sessfmt.Ref) (sessfmt.Session, error) { return &lineSession{ref: r, decoded: new(int)}, nil }
	res := Collect(Config{Matcher: m, Open: open, ActiveOnly: true, FirstOnly: true, Workers: 4}, in)
	got = nil
	for i, r := range res {
		if r.Target.Ref.Path != targets[i].Ref.Path {
			t.Fatalf("Collect: result %d is %s's, sent %s", i, r.Target.Ref.Path, targets[i].Ref.Path)
		}
		for _, h := range r.Hits {
			got = append(got, fmt.Sprintf("%s:%d", filepath.Base(h.Session), h.Line))
		}
	}
	if len(res) != len(targets) || fmt.Sprint(got) != "[s03.jsonl:8 s13.jsonl:8 s23.jsonl:8]" {
		t.Fatalf("Collect: %d results, hits %v", len(res), got)
	}
}

func fmtQ(xs []string) string {
	out := "["
	for i, x := range xs {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out + "]"
}

// TestDescribeOnlyOnHit: a target without id and title gets them from its
// Describe (list's summary), only when it has a hit; the session's Meta is
// not read.
func TestDescribeOnlyOnHit(t *testing.T) {
	dir := t.TempDir()
	var targets []Target
	calls := map[string]int{}
	for i, text := range []string{"no luck here", "a needle here", "candidate: needle\\u0073 but no"} {
		p := filepath.Join(dir, fmt.Sprintf("d%d.jsonl", i))
		body := fmt.Sprintf(`{"id":"1","role":"user","text":"%s"}`+"\n", text)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		targets = append(targets, Target{Ref: sessfmt.Ref{Format: "test", Path: p}, Describe: func() (string, string, string, error) {
			calls[name]++
			return "agentx", "id-" + name, "title of " + name, nil
		}})
	}
	m, _ := Compile("needle here", Options{})
	decoded := 0
	open := func(r sessfmt.Ref) (sessfmt.Session, error) { return &lineSession{ref: r, decoded: &decoded}, nil }
	var got []string
	err := Run(Config{Matcher: m, Open: open, Workers: 1}, targets, func(r *Result) error {
		for _, h := range r.Hits {
			got = append(got, h.Agent+"|"+h.ID+"|"+h.Title)
		}
		return r.Err
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[agentx|id-d1.jsonl|title of d1.jsonl]" || fmt.Sprint(calls) != "map[d1.jsonl:1]" {
		t.Fatalf("hits %v, Describe calls %v", got, calls)
	}
}
