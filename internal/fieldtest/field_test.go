// Package fieldtest runs the built sessctl binary over the field corpus:
// session files from public repositories (see testdata/field/README.md),
// each with a verdict reasoned out for it in testdata/field/MANIFEST.tsv.
//
// The corpus itself lives outside the repository: in ../shared/corpus (the
// field/ folder beside the shared Claude Code samples), or wherever
// SESSCTL_FIELD_CORPUS points. Without it the tests are skipped.
package fieldtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// manifestPath is the manifest, relative to this package.
const manifestPath = "../../testdata/field/MANIFEST.tsv"

var (
	corpusRoot string // "" when no corpus is present
	bin        string // the sessctl built by TestMain
)

// findCorpus returns the corpus root: $SESSCTL_FIELD_CORPUS, else the shared
// corpus beside the repository.
func findCorpus() string {
	if r := os.Getenv("SESSCTL_FIELD_CORPUS"); r != "" {
		return r
	}
	r, _ := filepath.Abs("../../../shared/corpus")
	if st, err := os.Stat(r); err == nil && st.IsDir() {
		return r
	}
	return ""
}

// TestMain builds sessctl once (only when there is a corpus to run it on;
// SESSCTL_FIELD_BIN names a binary to test instead); the tests drive the
// binary, not the packages, so that they keep testing what a user runs
// while the command code moves.
func TestMain(m *testing.M) {
	corpusRoot = findCorpus()
	var dir string
	if b := os.Getenv("SESSCTL_FIELD_BIN"); b != "" && corpusRoot != "" {
		bin = b // a given build (e.g. a release) instead of this tree's
	} else if corpusRoot != "" {
		var err error
		dir, err = os.MkdirTemp("", "sessctl-field-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		bin = filepath.Join(dir, "sessctl")
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/sessctl")
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building sessctl: %v\n%s", err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// result is one run of sessctl.
type result struct {
	stdout, stderr []byte
	code           int
}

// run runs sessctl with args in a clean environment (no config, an empty
// home and cache) and fails the test on a crash, a hang or an exit code
// sessctl does not document (0 ok, 1 error, 2 usage, 3 problems found).
func run(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	home := t.TempDir()
	full := append([]string{args[0], "--no-config"}, args[1:]...)
	cmd := exec.CommandContext(ctx, bin, full...)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home+"/.config", "XDG_CACHE_HOME="+home+"/.cache",
		"XDG_DATA_HOME="+home+"/.local/share", "NO_COLOR=1", "CLAUDE_CONFIG_DIR="+home+"/.claude")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.Bytes(), stderr: errb.Bytes()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("sessctl %s: no answer within 3 minutes", strings.Join(args, " "))
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("sessctl %s: %v", strings.Join(args, " "), err)
	}
	if r.code < 0 || r.code > 3 {
		t.Errorf("sessctl %s: exit code %d is not a documented one (0-3)\n%s", strings.Join(args, " "), r.code, r.stderr)
	}
	if bytes.Contains(r.stderr, []byte("panic:")) || bytes.Contains(r.stderr, []byte("goroutine ")) {
		t.Errorf("sessctl %s crashed:\n%s", strings.Join(args, " "), r.stderr)
	}
	return r
}

// problem is one problem of check --json.
type problem struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Line     int    `json:"line"`
	Message  string `json:"message"`
}

type checkFile struct {
	Path     string    `json:"path"`
	Problems []problem `json:"problems"`
	Error    string    `json:"error"`
}

func check(t *testing.T, ref string) (checkFile, result) {
	t.Helper()
	r := run(t, "check", "--json", ref)
	var out struct {
		Files []checkFile `json:"files"`
	}
	if err := json.Unmarshal(r.stdout, &out); err != nil || len(out.Files) != 1 {
		t.Fatalf("check --json %s: not one file's verdict (%v; exit %d)\n%s%s", ref, err, r.code, r.stdout, r.stderr)
	}
	return out.Files[0], r
}

// serious are the warnings and errors of a verdict.
func serious(ps []problem) []problem {
	var out []problem
	for _, p := range ps {
		if p.Severity == "warning" || p.Severity == "error" {
			out = append(out, p)
		}
	}
	return out
}

func hasError(ps []problem) bool {
	for _, p := range ps {
		if p.Severity == "error" {
			return true
		}
	}
	return false
}

func describe(ps []problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "\n  line %d %s %s: %s", p.Line, p.Severity, p.Code, p.Message)
	}
	return b.String()
}

// matchVerdict compares check's warnings and errors with the expectation.
func matchVerdict(ex expectation, got []problem) error {
	got = serious(got)
	named := map[string]bool{}
	for _, w := range ex.Wants {
		if w.Code != "*" {
			named[w.Severity+":"+w.Code] = true
		}
	}
	var errs []string
	claimed := make([]bool, len(got))
	for _, w := range ex.Wants {
		var lines []int
		found := false
		for i, p := range got {
			if p.Severity != w.Severity {
				continue
			}
			if w.Code == "*" && named[p.Severity+":"+p.Code] || w.Code != "*" && p.Code != w.Code {
				continue
			}
			found = true
			claimed[i] = true
			lines = append(lines, p.Line)
		}
		if !found && !w.Optional {
			errs = append(errs, "missing "+w.String())
		}
		if found && len(w.Lines) > 0 {
			sort.Ints(lines)
			lines = uniq(lines)
			if fmt.Sprint(lines) != fmt.Sprint(w.Lines) {
				errs = append(errs, fmt.Sprintf("%s reported on lines %v", w, lines))
			}
		}
	}
	for i, p := range got {
		if !claimed[i] {
			errs = append(errs, fmt.Sprintf("unexpected %s:%s (line %d: %s)", p.Severity, p.Code, p.Line, p.Message))
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

func uniq(xs []int) []int {
	var out []int
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// repairResult is one file's result of repair --json.
type repairResult struct {
	Changed bool `json:"changed"`
	Fixes   []struct {
		Line   int    `json:"line"`
		Code   string `json:"code"`
		Action string `json:"action"`
		Detail string `json:"detail"`
	} `json:"fixes"`
}

func repair(t *testing.T, args ...string) (repairResult, result) {
	t.Helper()
	r := run(t, append([]string{"repair", "--json"}, args...)...)
	var out []repairResult
	if err := json.Unmarshal(r.stdout, &out); err != nil || len(out) != 1 {
		t.Fatalf("repair --json %s: not one file's result (%v; exit %d)\n%s%s", strings.Join(args, " "), err, r.code, r.stdout, r.stderr)
	}
	return out[0], r
}

// messages is show's message count: for Claude Code the user and assistant
// messages (show also lists the system records it keeps beside them), for
// the other agents every message of the context.
func messages(t *testing.T, agent, ref string) (int, []byte) {
	t.Helper()
	r := run(t, "show", "--json", ref)
	if r.code != 0 {
		t.Fatalf("show --json %s: exit %d\n%s", ref, r.code, r.stderr)
	}
	var out struct {
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.stdout, &out); err != nil {
		t.Fatalf("show --json %s: %v", ref, err)
	}
	n := 0
	for _, m := range out.Messages {
		if agent != "claude" || m.Role == "user" || m.Role == "assistant" {
			n++
		}
	}
	return n, r.stdout
}

func TestManifest(t *testing.T) {
	es, err := readManifest(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	agents := map[string]int{}
	seen := map[string]bool{}
	for _, e := range es {
		if seen[e.File] {
			t.Errorf("manifest line %d: %s listed twice", e.Line, e.File)
		}
		seen[e.File] = true
		agents[e.Agent]++
		switch e.Licence {
		case "MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause":
		default:
			t.Errorf("manifest line %d: licence %q is not one the corpus may hold", e.Line, e.Licence)
		}
		if len(e.Commit) != 40 || e.Repo == "" || e.Path == "" {
			t.Errorf("manifest line %d: repository, commit and path must be recorded", e.Line)
		}
	}
	if len(es) < 50 || len(agents) < 4 {
		t.Errorf("the field corpus lists %d sessions of %d agents; want at least 50 of 4", len(es), len(agents))
	}
}

// TestField runs every session of the manifest: check gives the recorded
// verdict; repair plans only what check reports (nothing on a healthy
// file); a damaged copy repairs to a clean file that a second repair leaves
// alone; show's message count is the recorded one, and show says the same
// twice.
func TestField(t *testing.T) {
	if corpusRoot == "" {
		t.Skip("no field corpus: ../shared/corpus is absent and SESSCTL_FIELD_CORPUS is not set")
	}
	es, err := readManifest(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, e := range es {
		file, id, _ := strings.Cut(e.File, "#")
		path := filepath.Join(corpusRoot, filepath.FromSlash(file))
		if _, err := os.Stat(path); err != nil {
			t.Run(e.File, func(t *testing.T) { t.Skipf("not in this corpus (%s)", path) })
			continue
		}
		ran++
		ref := path
		if id != "" {
			ref += "#" + id
		}
		e := e
		t.Run(e.File, func(t *testing.T) {
			t.Parallel()
			fieldSession(t, e, ref, path, id != "")
		})
	}
	if ran == 0 {
		t.Skipf("none of the manifest's files is under %s", corpusRoot)
	}
}

func fieldSession(t *testing.T, e entry, ref, path string, store bool) {
	// check: the recorded verdict and the exit code that goes with it
	v, r := check(t, ref)
	if e.Expect.Unreadable {
		if r.code != 1 || v.Error == "" {
			t.Errorf("check: want it reported unreadable (exit 1), got exit %d%s", r.code, describe(v.Problems))
		}
		return
	}
	if v.Error != "" {
		t.Fatalf("check cannot read it (exit %d): %s", r.code, v.Error)
	}
	if err := matchVerdict(e.Expect, v.Problems); err != nil {
		t.Errorf("check: %v (expected %s)%s", err, expectString(e.Expect), describe(v.Problems))
	}
	if want := map[bool]int{true: 3, false: 0}[hasError(v.Problems)]; r.code != want {
		t.Errorf("check: exit %d, want %d for this verdict", r.code, want)
	}

	// show: the recorded count, the same twice
	n, first := messages(t, e.Agent, ref)
	if e.Messages >= 0 && n != e.Messages {
		t.Errorf("show: %d messages, want %d", n, e.Messages)
	}
	if _, again := messages(t, e.Agent, ref); !bytes.Equal(first, again) {
		t.Errorf("show --json differs between two runs")
	}

	if store {
		// repair does not apply to a store's session: it must say so
		r := run(t, "repair", "--dry-run", ref)
		if r.code != 0 && !bytes.Contains(bytes.ToLower(r.stderr), []byte("not supported")) {
			t.Errorf("repair --dry-run on an OpenCode session: exit %d without saying it is not supported for this agent: %s", r.code, r.stderr)
		}
		return
	}

	// repair --dry-run on a copy: only what check reports, nothing if healthy
	dir := t.TempDir()
	cp := copySession(t, path, dir)
	plan, rr := repair(t, "--dry-run", cp)
	reported := map[string]bool{}
	for _, p := range serious(v.Problems) {
		reported[p.Code] = true
	}
	for _, f := range plan.Fixes {
		if !reported[f.Code] {
			t.Errorf("repair --dry-run plans a %s fix (line %d: %s), which check does not report as a warning or error", f.Code, f.Line, f.Detail)
		}
	}
	if len(serious(v.Problems)) == 0 && (len(plan.Fixes) > 0 || rr.code != 0) {
		t.Errorf("repair --dry-run on a file check finds healthy plans %d fixes (exit %d), e.g. %+v", len(plan.Fixes), rr.code, plan.Fixes[0])
	}

	// a damaged copy: repair, then check is clean and a second repair
	// changes nothing
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := damage(src)
	if bad == nil {
		return
	}
	ddir := t.TempDir()
	dp := copySession(t, path, ddir)
	if err := os.WriteFile(dp, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, r := repair(t, "--no-backup", dp); r.code != 0 {
		t.Fatalf("repair of a damaged copy: exit %d\n%s", r.code, r.stderr)
	}
	after, _ := check(t, dp)
	if hasError(after.Problems) {
		t.Errorf("check after repair of a damaged copy still finds errors:%s", describe(serious(after.Problems)))
	}
	if again, _ := repair(t, "--dry-run", dp); again.Changed || len(again.Fixes) > 0 {
		t.Errorf("a second repair would change the repaired copy again: %+v", again.Fixes)
	}
	if e.Expect.healthy() && e.Messages >= 0 {
		// only damage was taken out: the conversation is the same
		if n, _ := messages(t, e.Agent, dp); n != e.Messages {
			t.Errorf("show of the repaired copy: %d messages, want %d (repair changed the conversation)", n, e.Messages)
		}
	}
}

func expectString(ex expectation) string {
	if ex.healthy() && len(ex.Wants) == 0 {
		return "healthy"
	}
	var s []string
	for _, w := range ex.Wants {
		s = append(s, w.String())
	}
	return strings.Join(s, ",")
}

// copySession copies a session file into dir and returns the copy's path. A
// subagent transcript (<session>/subagents/agent-*.jsonl) keeps its layout
// and its parent session's transcript beside it, where Claude Code has it.
func copySession(t *testing.T, path, dir string) string {
	t.Helper()
	target := filepath.Join(dir, filepath.Base(path))
	if i := strings.LastIndex(filepath.ToSlash(path), "/subagents/"); i >= 0 {
		sessDir := path[:i]
		rel := path[len(sessDir)+1:]
		target = filepath.Join(dir, filepath.Base(sessDir), rel)
		if b, err := os.ReadFile(sessDir + ".jsonl"); err == nil {
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(sessDir)+".jsonl"), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return target
}

// damage returns src with the damage crashes leave: a run of NUL bytes on a
// line of its own in the middle (a pre-allocated block never written) and a
// torn copy of the last line's first half at the end (an append cut short).
// nil for content with no line to tear.
func damage(src []byte) []byte {
	body := bytes.TrimRight(src, "\n")
	if len(body) == 0 {
		return nil
	}
	lines := bytes.Split(body, []byte("\n"))
	last := lines[len(lines)-1]
	if len(last) < 8 {
		return nil
	}
	mid := len(lines) / 2
	var out bytes.Buffer
	for i, l := range lines {
		if i == mid {
			out.Write(bytes.Repeat([]byte{0}, 64))
			out.WriteByte('\n')
		}
		out.Write(l)
		out.WriteByte('\n')
	}
	out.Write(last[:len(last)/2])
	return out.Bytes()
}

// fieldProjects are Claude Code project folders of the corpus holding main
// transcripts with compaction subagents (<session>/subagents/agent-acompact-*).
var fieldProjects = []string{"field/claude/marot__spotter/test/fixtures/transcripts"}

// TestFieldClaudeProject checks a whole real project, as a user running
// check in CI does: no error, exit 0; and repair plans nothing for any of
// its transcripts (issue 15, acceptance).
func TestFieldClaudeProject(t *testing.T) {
	if corpusRoot == "" {
		t.Skip("no field corpus")
	}
	for _, p := range fieldProjects {
		src := filepath.Join(corpusRoot, filepath.FromSlash(p))
		t.Run(p, func(t *testing.T) {
			if _, err := os.Stat(src); err != nil {
				t.Skipf("not in this corpus (%s)", src)
			}
			dir := t.TempDir()
			var files []string
			err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
					return err
				}
				rel, _ := filepath.Rel(src, path)
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				target := filepath.Join(dir, rel)
				if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
					return err
				}
				files = append(files, target)
				return os.WriteFile(target, b, 0o600)
			})
			if err != nil {
				t.Fatal(err)
			}
			r := run(t, "check", "--json", dir)
			var out struct {
				Files []checkFile `json:"files"`
			}
			if err := json.Unmarshal(r.stdout, &out); err != nil {
				t.Fatalf("check --json: %v\n%s", err, r.stderr)
			}
			for _, f := range out.Files {
				// warnings are the per-file verdicts' business (TestField)
				if hasError(f.Problems) || f.Error != "" {
					rel, _ := filepath.Rel(dir, f.Path)
					t.Errorf("check: %s %s%s", rel, f.Error, describe(serious(f.Problems)))
				}
			}
			if r.code != 0 {
				t.Errorf("check of the project: exit %d, want 0", r.code)
			}
			for _, f := range files {
				if plan, _ := repair(t, "--dry-run", f); len(plan.Fixes) > 0 {
					rel, _ := filepath.Rel(dir, f)
					t.Errorf("repair --dry-run %s plans %d fixes, e.g. line %d %s: %s", rel, len(plan.Fixes), plan.Fixes[0].Line, plan.Fixes[0].Code, plan.Fixes[0].Detail)
				}
			}
		})
	}
}
