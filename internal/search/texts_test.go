package search

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
)

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// TestEveryFormatFindsEveryText opens sample sessions of every agent, takes
// pieces of each text the Texter gives, and checks that the engine (raw
// prefilter, candidate lines, decoding) finds each where the text is.
func TestEveryFormatFindsEveryText(t *testing.T) {
	root := repoRoot(t)
	reg := formats.New(func(string) string { return "" })
	args := []string{
		"testdata/pi/parity/sessions/058-everything.jsonl",
		"testdata/claude/home/projects/-home-dev-shop/cccccccc-0000-4000-8000-00000000000a.jsonl",
		"testdata/agentcore/branched.jsonl",
		"testdata/openclaw/state/agents/main/sessions/a1b2c3d4-0000-4000-8000-000000000009.jsonl",
		"testdata/openclaw/sqlite-state/agents/ops/agent/openclaw-agent.sqlite#c1",
		"testdata/opencode/real/opencode.db#ses_7e5f3a9b1c01Aa1Bb2Cc3Dd4Ee",
	}
	for _, arg := range args {
		t.Run(filepath.Base(arg), func(t *testing.T) {
			ref, err := reg.Resolve(filepath.Join(root, arg))
			if err != nil {
				t.Fatal(err)
			}
			s, err := reg.OpenRef(ref, sessfmt.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tx, ok := s.(sessfmt.Texter)
			if !ok {
				t.Fatalf("%T has no Texts", s)
			}
			var texts []sessfmt.Text
			kinds := sessfmt.TextKind(0)
			onPath := 0
			if err := tx.Texts(sessfmt.TextOptions{}, func(x *sessfmt.Text) error {
				texts = append(texts, *x)
				kinds |= x.Kind
				if x.OnPath {
					onPath++
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(texts) == 0 || onPath == 0 || kinds&sessfmt.TextBody == 0 {
				t.Fatalf("%d texts (kinds %s, %d on the path)", len(texts), kinds, onPath)
			}
			t.Logf("%d texts, kinds %s, %d on the path", len(texts), kinds, onPath)
			open := func(r sessfmt.Ref) (sessfmt.Session, error) { return reg.OpenRef(r, sessfmt.OpenOptions{}) }
			for i, x := range texts {
				if i > 40 {
					break
				}
				rs := []rune(x.Text)
				n := len(rs)
				if n > 14 {
					n = 14
				}
				piece := string(rs[len(rs)/3 : len(rs)/3+n/2+1])
				if strings.TrimSpace(piece) == "" {
					continue
				}
				m, err := Compile(piece, Options{IgnoreCase: i%2 == 0})
				if err != nil {
					t.Fatal(err)
				}
				found := false
				err = Run(Config{Matcher: m, Open: open, Kinds: sessfmt.TextAll, Workers: 1}, []Target{{Ref: ref}}, func(r *Result) error {
					for _, h := range r.Hits {
						if h.Line == x.Line && h.EntryID == x.EntryID && h.Kind == x.Kind.String() {
							found = true
						}
					}
					return r.Err
				})
				if err != nil {
					t.Fatal(err)
				}
				if !found {
					t.Errorf("%q (text %d, line %d, entry %s, %s) not found", piece, i, x.Line, x.EntryID, x.Kind)
				}
			}
		})
	}
}
