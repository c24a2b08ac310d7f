package pi

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/tree"
)

// randomPathSession writes a pi session of n entries made from r: tool
// calls whose ids repeat (in one message and across messages), results
// before, after and without their calls, dropped calls, compactions whose
// firstKeptEntryId is on the path, off it, later, its own id or not a
// string, branches, parents that come later in the file, and messages
// pi's listing fails on.
//
// tidy sessions are as agents write them: results mostly answer a call of
// the assistant message before them, ids repeat seldom (40 of them); with
// sparse, results are left out more often than not, among many ids, some
// of one byte or none.
func randomPathSession(t testing.TB, r *rand.Rand, n int, tidy, sparse bool) string {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}` + "\n")
	pool := 6
	if tidy {
		pool = 40
	}
	if sparse {
		pool = 2000
	}
	var pending []string // the calls of the last assistant message
	call := func() string {
		if sparse && r.Intn(10) == 0 {
			return fmt.Sprint(r.Intn(10))[:r.Intn(2)]
		}
		return fmt.Sprintf("c%d", r.Intn(pool))
	}
	for k := range n {
		id := fmt.Sprintf("e%d", k)
		parent := `null`
		switch x := r.Intn(20); {
		case k == 0:
		case x < 14:
			parent = fmt.Sprintf(`"e%d"`, k-1)
		case x < 17:
			parent = fmt.Sprintf(`"e%d"`, r.Intn(k))
		case x < 18:
			parent = fmt.Sprintf(`"e%d"`, k+1+r.Intn(3)) // a later entry
		case x < 19:
			parent = `"nowhere"`
		}
		head := fmt.Sprintf(`{"id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:%02d.000Z",`, id, parent, k%60)
		switch x := r.Intn(12); {
		case x < 2:
			fmt.Fprintf(&b, `%s"type":"message","message":{"role":"user","content":"hi %d"}}`, head, k)
		case x < 6:
			var calls []string
			pending = pending[:0]
			for range r.Intn(4) {
				id := call()
				pending = append(pending, id)
				calls = append(calls, fmt.Sprintf(`{"type":"toolCall","id":"%s","name":"t%d","arguments":{}}`, id, r.Intn(3)))
			}
			stop := "toolUse"
			if r.Intn(6) == 0 {
				stop = []string{"error", "aborted"}[r.Intn(2)]
			}
			fmt.Fprintf(&b, `%s"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"x"}%s],"stopReason":"%s"}}`,
				head, strings.Repeat(",", min(1, len(calls)))+strings.Join(calls, ","), stop)
		case x < 10:
			cid := `"` + call() + `"`
			if tidy && len(pending) > 0 && r.Intn(20) != 0 {
				cid = `"` + pending[r.Intn(len(pending))] + `"`
			}
			if sparse && (len(pending) == 0 || r.Intn(3) != 0) {
				// most calls left unanswered, without a stray result
				fmt.Fprintf(&b, `%s"type":"message","message":{"role":"user","content":"go on"}}`, head)
				break
			}
			if r.Intn(15) == 0 && !sparse {
				cid = `7`
			}
			fmt.Fprintf(&b, `%s"type":"message","message":{"role":"toolResult","toolCallId":%s,"content":[]}}`, head, cid)
		case x < 11:
			fk := fmt.Sprintf(`"e%d"`, r.Intn(n))
			switch r.Intn(5) {
			case 0:
				fk = `"` + id + `"`
			case 1:
				fk = `3`
			}
			if r.Intn(6) == 0 {
				fmt.Fprintf(&b, `%s"type":"compaction","summary":"s","tokensBefore":1}`, head)
			} else {
				fmt.Fprintf(&b, `%s"type":"compaction","summary":"s","firstKeptEntryId":%s,"tokensBefore":1}`, head, fk)
			}
		default:
			switch r.Intn(6) {
			case 0:
				fmt.Fprintf(&b, `%s"type":"message","message":{"role":"assistant","content":null}}`, head)
			case 1:
				fmt.Fprintf(&b, `%s"type":"model_change","provider":"p","modelId":"m"}`, head)
			case 2:
				fmt.Fprintf(&b, `%s"type":"custom_message","customType":"x","content":"c","display":true}`, head)
			case 3:
				fmt.Fprintf(&b, `%s"type":"branch_summary","fromId":"e0","summary":%q}`, head, []string{"", "tried"}[r.Intn(2)])
			case 4:
				repl := []string{`null`, `{"content":"new"}`}[r.Intn(2)]
				fmt.Fprintf(&b, `%s"type":"context_edit","targetId":"e%d","replacement":%s}`, head, r.Intn(n), repl)
			default:
				fmt.Fprintf(&b, `%s"type":"message","message":{"role":"system","content":"s"}}`, head)
			}
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// oraclePathProblems is pathProblems as first written: the path from
// Index.Path, the facts from the path's lines, tool call ids in a map.
func oraclePathProblems(t testing.TB, f *File) []problem.Problem {
	leaf := f.Index.Last()
	if leaf == tree.None {
		return nil
	}
	path, _ := f.Index.Path(leaf)
	posOf := map[int]int{}
	for k, i := range path {
		posOf[i] = k
	}
	lines, err := f.ReadLines(path)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		line                  int
		name                  string
		dropped, call, result bool
	}
	recs := map[string]*rec{}
	var order []string
	var ps []problem.Problem
	for k, i := range path {
		e := &f.Entries[i]
		if e.Type() != "message" && e.Type() != "compaction" {
			continue
		}
		lf := factFromLine(lines[k], e.Type(), e.Role())
		get := func(id string) *rec {
			if recs[id] == nil {
				recs[id] = &rec{}
			}
			return recs[id]
		}
		switch e.Type() {
		case "message":
			if lf.listing != "" && f.Dialect == DialectPi {
				ps = append(ps, problem.Problem{Code: CodeListingFails, Severity: problem.Warning, Line: int(f.Line(i)), ID: f.DisplayID(i),
					Message: lf.listing + ": pi 1.5.2's session list fails on the file, so the session is missing from /resume"})
			}
			switch e.Role() {
			case "assistant":
				for _, tc := range lf.calls {
					c := get(tc.id)
					if !c.call {
						c.call = true
						order = append(order, tc.id)
					}
					c.line, c.name, c.dropped = int(f.Line(i)), tc.name, lf.dropped
				}
			case "toolResult":
				c := get(lf.resultID)
				if !c.call {
					ps = append(ps, problem.Problem{Code: CodeToolResultNoCall, Severity: problem.Warning, Line: int(f.Line(i)), ID: f.DisplayID(i),
						Message: fmt.Sprintf("tool result for call %s has no tool call before it on the active path", lf.resultID),
						Fix:     "providers reject an unpaired result; fork the session before it (sessctl fork --at)"})
				}
				c.result = true
			}
		case "compaction":
			if lf.fkOK && lf.fkStr && lf.fkID == f.Index.ID(i) && f.Dialect == DialectPi {
				continue
			}
			pos, on := -1, false
			if j, found := f.Index.Lookup(lf.fkID); found {
				pos, on = posOf[j]
			}
			if !lf.fkOK || !lf.fkStr || !on || pos >= k {
				what := "is missing"
				if lf.fkOK {
					what = fmt.Sprintf("%s is not on the path before it", lf.fkRaw)
				}
				ps = append(ps, problem.Problem{Code: CodeCompactionKeptOff, Severity: problem.Warning, Line: int(f.Line(i)), ID: f.DisplayID(i),
					Message: fmt.Sprintf("compaction's firstKeptEntryId %s: the agent keeps nothing from before this compaction", what)})
			}
		}
	}
	for _, id := range order {
		if c := recs[id]; !c.result && !c.dropped {
			ps = append(ps, problem.Problem{Code: CodeToolCallNoResult, Severity: problem.Warning, Line: c.line, ID: id,
				Message: fmt.Sprintf("tool call %s (%s) has no result on the active path", id, c.name),
				Fix:     "sessctl repair --close-tool-calls appends an error result for it"})
		}
	}
	return ps
}

// TestPathProblemsOracle (and CountMessages): the path rules (one shared path walk, results
// matched against the last assistant message's calls first, positions on
// the path filled only for a compaction) give what the rules as first
// written give, on random sessions, with the facts of the parallel pass
// (as list and check read) and from the lines (a serial index); and the
// shared path is the index's own.
func TestPathProblemsOracle(t *testing.T) {
	r := rand.New(rand.NewSource(14))
	seen := map[string]int{}
	counted := map[bool]int{}
	for round := range 400 {
		n := 1 + r.Intn(80)
		if round%4 == 3 {
			n = 200 + r.Intn(400)
		}
		p := randomPathSession(t, r, n, round%2 == 1, round%4 == 3)
		for _, mode := range []string{"facts", "serial", "list"} {
			var f *File
			var s *Session
			var err error
			switch mode {
			case "facts":
				f, err = Open(p, Options{Check: true})
			case "serial":
				serialIndex = true
				f, err = Open(p, Options{})
				serialIndex = false
			case "list":
				s, _, err = OpenForList(sessfmt.Ref{Format: "pi", Path: p}, p)
				if err == nil {
					f = s.File
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			want := oraclePathProblems(t, f)
			got := f.pathProblems()
			if !reflect.DeepEqual(want, got) {
				b, _ := os.ReadFile(p)
				t.Fatalf("round %d (%s): problems differ on\n%s\noracle: %+v\ngot:    %+v", round, mode, b, want, got)
			}
			for _, pr := range got {
				seen[pr.Code]++
			}
			leaf := f.Index.Last()
			wantPath, wantCycle := f.Index.Path(leaf)
			gotPath, gotCycle := f.activePath(leaf)
			if !reflect.DeepEqual(wantPath, gotPath) || wantCycle != gotCycle {
				t.Fatalf("round %d: activePath %v %v, Path %v %v", round, gotPath, gotCycle, wantPath, wantCycle)
			}
			if s != nil {
				// CountMessages (from the index, sharing Check's path)
				// is the number of messages Transcript streams, as
				// either pi release reads the file.
				for _, v := range []PiVersion{PiCurrent, Pi073} {
					f.PiVersion = v
					var want countSink
					errT := s.Transcript(sessfmt.ContextOptions{}, &want)
					got, errC := s.CountMessages()
					if (errT == nil) != (errC == nil) || got != int(want) {
						b, _ := os.ReadFile(p)
						t.Fatalf("round %d (pi %q): CountMessages %d (%v), Transcript %d (%v) on\n%s", round, v, got, errC, int(want), errT, b)
					}
					counted[got > 0]++
				}
				s.DoneListing()
			}
		}
	}
	for _, c := range []string{CodeToolCallNoResult, CodeToolResultNoCall, CodeCompactionKeptOff, CodeListingFails} {
		if seen[c] == 0 {
			t.Errorf("no %s found: the sessions do not exercise it", c)
		}
	}
	if counted[true] == 0 || counted[false] == 0 {
		t.Errorf("counts: %v", counted)
	}
	t.Logf("problems found: %v; counts zero/not %v", seen, counted)
}

// TestActivePathShared: the verdict's two walks (Check, then
// CountMessages) share one path, which is the index's; another leaf gets
// its own array, leaving the one returned before as it was.
func TestActivePathShared(t *testing.T) {
	p := randomPathSession(t, rand.New(rand.NewSource(3)), 40, true, false)
	s, _, err := OpenForList(sessfmt.Ref{Format: "pi", Path: p}, p)
	if err != nil {
		t.Fatal(err)
	}
	f := s.File
	leaf := f.Index.Last()
	v := sessfmt.VerdictOf(s, sessfmt.CheckOptions{})
	if !v.Checked || !v.Counted {
		t.Fatalf("verdict %+v", v)
	}
	a, _ := f.activePath(leaf)
	want, _ := f.Index.Path(leaf)
	if !reflect.DeepEqual(a, want) {
		t.Fatalf("activePath %v, Path %v", a, want)
	}
	_, b, err := f.PathTo(leaf)
	if err != nil || &a[0] != &b[0] {
		t.Fatalf("PathTo walked the path again (%v)", err)
	}
	keep := append([]int(nil), a...)
	other := f.Index.Len() / 2
	c, _ := f.activePath(other)
	wantC, _ := f.Index.Path(other)
	if !reflect.DeepEqual(c, wantC) || !reflect.DeepEqual(a, keep) {
		t.Fatalf("another leaf: %v (want %v); the first path is now %v (was %v)", c, wantC, a, keep)
	}
	s.DoneListing()
}

// TestCallPairsListedSameAsHashed: the calls and results of random paths,
// given to a callPairs that lists them and to one that hashes from the
// start, give the same answers to every result and the same unanswered
// records in the same order, whether few calls go unanswered or most do
// (more than unanswered settles from the list).
func TestCallPairsListedSameAsHashed(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	modes := map[string]int{}
	for round := range 300 {
		var listed, hashed callPairs
		listed.reset(0)
		hashed.reset(0)
		hashed.hash()
		pool := []int{5, 50, 5000}[round%3]
		answer := []int{1, 2, 10}[r.Intn(3)] // one result in answer is given
		msgs := 1 + r.Intn(400)
		for m := range msgs {
			listed.message()
			hashed.message()
			var ids []string
			for range r.Intn(4) {
				id := fmt.Sprintf("toolu_%d", r.Intn(pool))
				if r.Intn(30) == 0 {
					id = id[len(id)-1:]
				}
				ids = append(ids, id)
				drop := r.Intn(8) == 0
				listed.call(id, "n", m, drop)
				hashed.call(id, "n", m, drop)
			}
			for _, id := range ids {
				if r.Intn(answer) != 0 {
					continue
				}
				if r.Intn(50) == 0 {
					id = "stray" // answers no call of the message
				}
				if a, b := listed.result(id), hashed.result(id); a != b {
					t.Fatalf("round %d: result(%s) %v, hashed %v", round, id, a, b)
				}
			}
		}
		wasHashed := listed.hashed
		var got, want []pathID
		listed.unanswered(func(c *pathID) { got = append(got, pathID{id: c.id, line: c.line, name: c.name}) })
		hashed.unanswered(func(c *pathID) { want = append(want, pathID{id: c.id, line: c.line, name: c.name}) })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: unanswered\n%v\nhashed\n%v", round, got, want)
		}
		switch {
		case wasHashed:
			modes["hashed at a stray result"]++
		case listed.hashed:
			modes["hashed for many unanswered"]++
		case len(got) > 0:
			modes["settled from the list"]++
		default:
			modes["all answered"]++
		}
	}
	if len(modes) != 4 {
		t.Fatalf("not every way taken: %v", modes)
	}
	t.Log(modes)
}

// FuzzPathProblems: on any file, the path rules (read from the parallel
// pass's facts, as list and check read them) give what the rules as first
// written give, and CountMessages, which shares their path, the number of
// messages Transcript streams.
func FuzzPathProblems(f *testing.F) {
	r := rand.New(rand.NewSource(1))
	for k := range 6 {
		b, err := os.ReadFile(randomPathSession(f, r, 5+k*4, k%2 == 1, k == 5))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}` + "\n" +
		`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n"}]}}` + "\n" +
		`{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"toolResult","toolCallId":"c","content":[]}}` + "\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "s.jsonl")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, _, err := OpenForList(sessfmt.Ref{Format: "pi", Path: p}, p)
		if err != nil {
			return
		}
		defer s.DoneListing()
		f := s.File
		if f.HeaderErr != nil || f.Legacy != nil {
			return
		}
		if want, got := oraclePathProblems(t, f), f.pathProblems(); !reflect.DeepEqual(want, got) {
			t.Fatalf("problems differ:\noracle: %+v\ngot:    %+v", want, got)
		}
		var want countSink
		errT := s.Transcript(sessfmt.ContextOptions{}, &want)
		got, errC := s.CountMessages()
		if (errT == nil) != (errC == nil) || errT == nil && got != int(want) {
			t.Fatalf("CountMessages %d (%v), Transcript %d (%v)", got, errC, int(want), errT)
		}
	})
}

// TestKindClass: an entry's class bits say what its type and role say.
func TestKindClass(t *testing.T) {
	types := []string{"", "message", "compaction", "custom_message", "branch_summary", "context_edit", "label", "Message", "compaction "}
	roles := []string{"", "user", "assistant", "toolResult", "system", "bashExecution", "Assistant"}
	for _, typ := range types {
		for _, role := range roles {
			e := newEntry(0, 0, kindOf(typ, role), 0)
			c := kindClass(kindTable(), &e)
			want := map[uint8]bool{
				kcMessage:       typ == "message",
				kcCompaction:    typ == "compaction",
				kcCustomMessage: typ == "custom_message",
				kcBranchSummary: typ == "branch_summary",
				kcContextEdit:   typ == "context_edit",
				kcSystem:        typ == "message" && role == "system",
				kcAssistant:     typ == "message" && role == "assistant",
				kcToolResult:    typ == "message" && role == "toolResult",
			}
			for bit, w := range want {
				if (c&bit != 0) != w {
					t.Errorf("(%q, %q): class %08b, bit %08b should be %v", typ, role, c, bit, w)
				}
			}
			if e.Type() != typ || e.Role() != role {
				t.Errorf("(%q, %q) reads back as (%q, %q)", typ, role, e.Type(), e.Role())
			}
		}
	}
}
