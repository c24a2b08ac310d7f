package sessfmt

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestResumeFor(t *testing.T) {
	cases := []struct {
		in   ResumeInfo
		want string
	}{
		{ResumeInfo{Agent: "claude", ID: "aaaa-1", Cwd: "/w/p"}, "cd /w/p && claude --resume aaaa-1"},
		{ResumeInfo{Agent: "pi", Path: "/s/x.jsonl", Cwd: "/w/my proj"}, "cd '/w/my proj' && pi --session /s/x.jsonl"},
		{ResumeInfo{Agent: "omp", Path: "/s/x.jsonl", Cwd: "/w"}, "cd /w && omp --session /s/x.jsonl"},
		{ResumeInfo{Agent: "xcsh", Path: "/s/x.jsonl"}, "xcsh --session /s/x.jsonl"},
		{ResumeInfo{Agent: "opencode", ID: "ses_1", Path: "/d/opencode.db#ses_1", Cwd: "/w"}, "cd /w && opencode --session ses_1"},
		{ResumeInfo{Agent: "openclaw", Keys: []string{"agent:main:main"}, Cwd: "/w"}, "openclaw tui --session agent:main:main"},
		{ResumeInfo{Agent: "openclaw", Keys: []string{"agent:main:direct:bob", "agent:main:main"}}, "openclaw tui --session agent:main:main"},
		{ResumeInfo{Agent: "openclaw", Keys: []string{"agent:x:telegram:group:-1:topic:4"}}, "openclaw tui --session agent:x:telegram:group:-1:topic:4"},
	}
	for _, c := range cases {
		got, ok := ResumeFor(c.in)
		if !ok || got.String() != c.want {
			t.Errorf("%+v: %q %v, want %q", c.in, got.String(), ok, c.want)
		}
	}
	for _, in := range []ResumeInfo{
		{Agent: "agentcore", Path: "/x.jsonl"},
		{Agent: "openclaw", Path: "/x.jsonl"},
		{Agent: "claude", ID: "agent-a1"},
		{Agent: "pi", Path: "/d/openclaw-agent.sqlite#k"},
	} {
		if c, ok := ResumeFor(in); ok {
			t.Errorf("%+v: %q, want none", in, c.String())
		}
	}
	// a relative path is made absolute: the command runs in another folder
	c, _ := ResumeFor(ResumeInfo{Agent: "pi", Path: "x.jsonl", Cwd: "/w"})
	if !filepath.IsAbs(c.Argv[2]) {
		t.Errorf("relative path kept: %v", c.Argv)
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
		line.WriteString(ShellQuote(w))
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
			t.Errorf("word %d: sh read %q, want %q (quoted %s)", i, got[i], words[i], ShellQuote(words[i]))
		}
	}
}
