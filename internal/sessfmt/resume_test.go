package sessfmt_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
)

// TestResumeFor asks the registry of every format, as the commands do.
func TestResumeFor(t *testing.T) {
	r := formats.New(func(string) string { return "" })
	cases := []struct {
		in   sessfmt.ResumeInfo
		want string
	}{
		{sessfmt.ResumeInfo{Agent: "claude", ID: "aaaa-1", Cwd: "/w/p"}, "cd /w/p && claude --resume aaaa-1"},
		{sessfmt.ResumeInfo{Agent: "pi", Path: "/s/x.jsonl", Cwd: "/w/my proj"}, "cd '/w/my proj' && pi --session /s/x.jsonl"},
		{sessfmt.ResumeInfo{Agent: "omp", Path: "/s/x.jsonl", Cwd: "/w"}, "cd /w && omp --session /s/x.jsonl"},
		{sessfmt.ResumeInfo{Agent: "xcsh", Path: "/s/x.jsonl"}, "xcsh --session /s/x.jsonl"},
		{sessfmt.ResumeInfo{Agent: "opencode", ID: "ses_1", Path: "/d/opencode.db#ses_1", Cwd: "/w"}, "cd /w && opencode --session ses_1"},
		{sessfmt.ResumeInfo{Agent: "openclaw", Keys: []string{"agent:main:main"}, Cwd: "/w"}, "openclaw tui --session agent:main:main"},
		{sessfmt.ResumeInfo{Agent: "openclaw", Keys: []string{"agent:main:direct:bob", "agent:main:main"}}, "openclaw tui --session agent:main:main"},
		{sessfmt.ResumeInfo{Agent: "openclaw", Keys: []string{"agent:x:telegram:group:-1:topic:4"}}, "openclaw tui --session agent:x:telegram:group:-1:topic:4"},
	}
	for _, c := range cases {
		got, ok := r.ResumeFor(c.in)
		if !ok || got.String() != c.want {
			t.Errorf("%+v: %q %v, want %q", c.in, got.String(), ok, c.want)
		}
	}
	for _, in := range []sessfmt.ResumeInfo{
		{Agent: "agentcore", Path: "/x.jsonl"},
		{Agent: "openclaw", Path: "/x.jsonl"},
		{Agent: "openclaw", Path: "/x.jsonl", Keys: []string{}},
		{Agent: "claude", ID: "agent-a1"},
		{Agent: "pi", Path: "/d/openclaw-agent.sqlite#k"},
		{Agent: "", Path: "/x.jsonl"},
	} {
		if c, ok := r.ResumeFor(in); ok {
			t.Errorf("%+v: %q, want none", in, c.String())
		}
	}
	// a relative path is made absolute: the command runs in another folder
	c, _ := r.ResumeFor(sessfmt.ResumeInfo{Agent: "pi", Path: "x.jsonl", Cwd: "/w"})
	if !filepath.IsAbs(c.Argv[2]) {
		t.Errorf("relative path kept: %v", c.Argv)
	}
	var none *sessfmt.Registry
	if _, ok := none.ResumeFor(sessfmt.ResumeInfo{Agent: "pi", Path: "/x.jsonl"}); ok {
		t.Error("a nil registry resumed a session")
	}
}

// TestResumeAgentsOwnedOnce: every agent is resumed by one format only, so
// the order of the registry never decides it.
func TestResumeAgentsOwnedOnce(t *testing.T) {
	owner := map[string]string{}
	for _, f := range formats.All(nil) {
		rs, ok := f.(sessfmt.Resumer)
		if !ok {
			continue
		}
		for _, a := range rs.ResumeAgents() {
			if o, dup := owner[a]; dup {
				t.Errorf("agent %s resumed by %s and %s", a, o, f.Name())
			}
			owner[a] = f.Name()
		}
	}
	for _, a := range []string{"pi", "omp", "xcsh", "claude", "opencode", "openclaw"} {
		if owner[a] == "" {
			t.Errorf("no format resumes %s", a)
		}
	}
}

// TestShellQuoteRoundTrip has sh read each quoted word back as it was.
func TestShellQuoteRoundTrip(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	words := []string{"", "plain", "a b", "it's", `"dq"`, "$HOME", "`id`", "a;b&&c|d", "new\nline", "tab\t", "back\\slash", "*?[x]", "~user", "-flag", "é ü", "'"}
	var line strings.Builder
	line.WriteString("printf '%s\\0'")
	for _, w := range words {
		line.WriteByte(' ')
		line.WriteString(sessfmt.ShellQuote(w))
	}
	cmd := exec.Command(sh, "-c", line.String())
	cmd.Env = append(os.Environ(), "HOME=/nowhere")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(got) != len(words) {
		t.Fatalf("got %q", got)
	}
	for i := range words {
		if got[i] != words[i] {
			t.Errorf("word %d: sh read %q, want %q (quoted %s)", i, got[i], words[i], sessfmt.ShellQuote(words[i]))
		}
	}
}
