package search_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	searchcmd "github.com/sessctl/sessctl/internal/cmd/search"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/sessctl/sessctl/internal/discover"
)

func TestFlagsIntoOptions(t *testing.T) {
	f, st := cmdtest.Factory(t, nil)
	var got *searchcmd.Options
	cmd := searchcmd.NewCmd(f, func(o *searchcmd.Options) error { got = o; return nil })
	if _, _, err := cmdtest.Exec(cmd, st, "-i", "-E", "--in", "text,thinking", "--role", "user", "-l", "--all-branches=false", "--agent", "pi", "--since", "7d", "fo+", "a.jsonl", "b.jsonl"); err != nil {
		t.Fatal(err)
	}
	if got.Pattern != "fo+" || strings.Join(got.Args, ",") != "a.jsonl,b.jsonl" || !got.IgnoreCase || !got.Regexp || !got.FilesOnly ||
		got.AllBranches || strings.Join(got.In, ",") != "text,thinking" || got.Roles[0] != "user" || got.Agents[0] != "pi" || got.Since != "7d" {
		t.Fatalf("%+v", got)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, argv := range [][]string{
		{}, {"-E", "-F", "x"}, {"--in", "bogus", "x"}, {"-E", "("}, {"-E", "a*"}, {"--agent", "nope", "x"}, {"--since", "yesterday", "x"}, {"--titles", "x"},
	} {
		f, st := cmdtest.Factory(t, nil)
		_, _, err := cmdtest.Exec(searchcmd.NewCmd(f, func(*searchcmd.Options) error { return nil }), st, argv...)
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%q: exit %d (%v), want 2", argv, cmdutil.ExitCode(err), err)
		}
	}
}

func TestRunHitsAndNoMatch(t *testing.T) {
	path := cmdtest.Testdata(t, "pi", "parity", "sessions", "058-everything.jsonl")
	f, st := cmdtest.Factory(t, nil)
	f.JSON = true // the global --json
	out, _, err := cmdtest.Exec(searchcmd.NewCmd(f, nil), st, "-i", "STREAM FIND", path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "\n"); n < 1 || !strings.Contains(out, `"kind":"text"`) {
		t.Fatalf("hits:\n%s", out)
	}
	f, st = cmdtest.Factory(t, nil)
	out, _, err = cmdtest.Exec(searchcmd.NewCmd(f, nil), st, "no such words at all", path)
	var pe *cmdutil.ProblemsError
	if !errors.As(err, &pe) || out != "" {
		t.Fatalf("no match: err %v, out %q", err, out)
	}
}

// TestIdentIsListsID: the id search -l prints without reading a session
// whole (discover's Provider.Ident, from the file's first lines) is the id
// list gives the file (the provider's Info), for every sample session of
// the agents it answers for, whatever part of the head it is given (nil:
// it reads it; a head cut inside a line).
func TestIdentIsListsID(t *testing.T) {
	var files []string
	for _, d := range []string{"pi", "omp", "xcsh", "openclaw", "claude", "agentcore", "home"} {
		files = append(files, jsonlFiles(t, cmdtest.Testdata(t, d))...)
	}
	if corpus := cmdtest.Testdata(t, "..", "..", "shared", "corpus"); dirExists(corpus) {
		files = append(files, jsonlFiles(t, corpus)...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d sample sessions", len(files))
	}
	files = append(files, oddHeads(t)...)
	told := map[string]int{}
	for _, agent := range []string{"pi", "omp", "xcsh", "openclaw", "claude", "agentcore"} {
		prov, ok := discover.Lookup(agent)
		if !ok {
			t.Fatal(agent)
		}
		for _, p := range files {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			s, err := prov.Info(p, st)
			if err != nil {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			heads := [][]byte{nil, data}
			for k := 0; k < len(data) && k < 4096; k += 97 {
				heads = append(heads, data[:k])
			}
			for i, b := range data[:min(len(data), 4096)] {
				if b == '\n' {
					heads = append(heads, data[:i], data[:i+1], data[:min(i+2, len(data))])
				}
			}
			for _, head := range heads {
				id, ok := prov.Ident(p, head)
				if !ok {
					continue
				}
				if id != s.ID {
					t.Fatalf("%s %s (head %d bytes): Ident %q, list %q", agent, p, len(head), id, s.ID)
				}
				if head == nil {
					told[agent]++
				}
			}
		}
	}
	t.Logf("ids told from the head: %v", told)
	for _, agent := range []string{"pi", "omp", "xcsh", "openclaw", "claude"} {
		if told[agent] < 5 {
			t.Errorf("%s: Ident told only %d ids", agent, told[agent])
		}
	}
}

func jsonlFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".jsonl") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// oddHeads writes sessions whose first lines are odd, under a pi and an
// oh-my-pi sessions folder (the dialect list reads them with).
func oddHeads(t *testing.T) []string {
	msg := `{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1767225601000}}` + "\n"
	hdr := func(id string) string {
		return `{"type":"session","version":3,"id":` + id + `,"timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n"
	}
	heads := map[string]string{
		"plain":     hdr(`"aaa"`) + msg,
		"bom-two":   "\ufeff" + hdr(`"aaa"`) + hdr(`"bbb"`) + msg, // oh-my-pi strips the mark, pi skips the line
		"bom-one":   "\ufeff" + hdr(`"aaa"`) + msg,
		"number-id": hdr(`5`) + msg,
		"empty-id":  hdr(`""`) + msg, // the file name's id
		"dup-id":    `{"type":"session","id":"aaa","id":"bbb"}` + "\n" + msg,
		"escaped":   hdr(`"\u0061b\u00e9"`) + msg,
		"crlf":      strings.TrimSuffix(hdr(`"aaa"`), "\n") + "\r\n" + msg,
		"slot":      `{"type":"title","title":"t"}` + "\n" + hdr(`"aaa"`) + msg,
		"bad-slot":  `{"type":"title","title":5}` + "\n" + hdr(`"aaa"`) + msg,
		"blank":     "\n" + hdr(`"aaa"`) + msg,
		"malformed": "{nope\n" + hdr(`"aaa"`) + msg,
		"no-header": msg + hdr(`"aaa"`),
		"two":       hdr(`"aaa"`) + hdr(`"bbb"`) + msg,
		"null":      "null\n" + hdr(`"aaa"`) + msg,
		"one-line":  strings.TrimSuffix(hdr(`"aaa"`), "\n"),
		"title-hdr": `{"type":"session","id":"aaa","title":"x"}` + "\n" + msg,
		"torn":      hdr(`"aaa"`) + msg + `{"type":"mess`,
	}
	var out []string
	for _, dir := range []string{".pi", ".omp", ".xcsh"} {
		d := filepath.Join(t.TempDir(), dir, "agent", "sessions", "p")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range heads {
			p := filepath.Join(d, "2026-01-01T00-00-00-000Z_"+name+".jsonl")
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
	}
	return out
}
