package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	exportcmd "github.com/sessctl/sessctl/internal/cmd/export"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
)

func TestFlagsIntoOptions(t *testing.T) {
	f, st := cmdtest.Factory(t, nil)
	var got *exportcmd.Options
	cmd := exportcmd.NewCmd(f, func(o *exportcmd.Options) error { got = o; return nil })
	if _, _, err := cmdtest.Exec(cmd, st, "--format", "html", "-o", "x.html", "--force", "--leaf", "ab", "--all-branches", "--no-tools", "--no-thinking", "--redact", "s.jsonl"); err != nil {
		t.Fatal(err)
	}
	if got.Session != "s.jsonl" || got.Format != "html" || got.Output != "x.html" || !got.Force || got.Leaf != "ab" || !got.AllBranches || !got.NoTools || !got.NoThinking || !got.Redact {
		t.Fatalf("%+v", got)
	}
	f, st = cmdtest.Factory(t, nil)
	_, _, err := cmdtest.Exec(exportcmd.NewCmd(f, func(*exportcmd.Options) error { return nil }), st, "--format", "docx", "s.jsonl")
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Fatalf("--format docx: %v", err)
	}
}

func TestRunWritesOnceAndRefusesLinks(t *testing.T) {
	path := cmdtest.Testdata(t, "pi", "parity", "sessions", "058-everything.jsonl")
	dir := t.TempDir()
	out := filepath.Join(dir, "s.md")
	f, st := cmdtest.Factory(t, nil)
	if _, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, "-o", out, path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(b), "# everything\n") {
		t.Fatalf("%.200s", b)
	}
	f, st = cmdtest.Factory(t, nil)
	if _, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, "-o", out, "--format", "html", path); err == nil {
		t.Fatal("replaced an existing file without --force")
	}
	link := filepath.Join(dir, "link.html")
	os.Symlink(out, link)
	f, st = cmdtest.Factory(t, nil)
	if _, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, "--force", "-o", link, path); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("wrote through a symlink: %v", err)
	}
	if b2, _ := os.ReadFile(out); string(b2) != string(b) {
		t.Fatal("the link's target changed")
	}
}
