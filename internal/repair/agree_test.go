package repair

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/stretchr/testify/require"
)

// progLine makes a legacy progress line.
func progLine(uuid, parent, ts string) string {
	par := "null"
	if parent != "" {
		par = `"` + parent + `"`
	}
	return fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"sessionId":"s1","data":{"type":"hook_progress"},"type":"progress","uuid":"%s","timestamp":"%s"}`, par, uuid, ts)
}

// The shape of the real main transcripts of issue 15: check finds them
// healthy (one info note: records hang on legacy progress lines, which the
// loader bridges), so repair plans nothing unless asked to bridge.
func TestClaudeLegacyProgressNotRewrittenUnasked(t *testing.T) {
	in := strings.Join([]string{
		progLine("p0", "", "2025-10-01T08:59:59.000Z"), // a SessionStart hook before the first prompt
		uuidLine("user", "u1", "p0", "2025-10-01T09:00:00.000Z", false, `"a"`),
		uuidLine("assistant", "a1", "u1", "2025-10-01T09:00:01.000Z", false, `[]`),
		progLine("p1", "a1", "2025-10-01T09:00:01.500Z"),
		progLine("p2", "p1", "2025-10-01T09:00:01.600Z"),
		uuidLine("user", "u2", "p2", "2025-10-01T09:00:02.000Z", false, `"b"`),
	}, "\n") + "\n"
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(in), 0o600))
	for _, pr := range claudeCheck(t, p) {
		require.Equal(t, problem.Info, pr.Severity, "check finds the file healthy: %s", pr)
	}
	res, err := Claude(p, Options{DryRun: true})
	require.NoError(t, err)
	require.Empty(t, res.Fixes, "repair must plan nothing on a file check finds healthy")
	require.False(t, res.Changed)

	res, err = Claude(p, Options{DryRun: true, BridgeProgress: true})
	require.NoError(t, err)
	require.Len(t, res.Fixes, 2, "asked to bridge: both records hanging on progress lines")
	for _, f := range res.Fixes {
		require.Equal(t, "bridged", f.Action)
		require.NotContains(t, f.Detail, ") (", "one reason per fix: %s", f.Detail)
	}
	require.Contains(t, res.Fixes[0].Detail, "→ null (a root")
}

// A progress line written after the record hanging on it is a warning of
// check; repair bridges it without being asked.
func TestClaudeProgressForwardBridgedByDefault(t *testing.T) {
	in := strings.Join([]string{
		uuidLine("user", "u1", "", "2025-10-01T09:00:00.000Z", false, `"a"`),
		uuidLine("assistant", "a1", "u1", "2025-10-01T09:00:01.000Z", false, `[]`),
		uuidLine("user", "u2", "p1", "2025-10-01T09:00:02.000Z", false, `"b"`),
		progLine("p1", "a1", "2025-10-01T09:00:01.500Z"),
	}, "\n") + "\n"
	res, out := repairString(t, in, Options{})
	require.Len(t, res.Fixes, 1)
	require.Equal(t, claude.ProbProgressForward, res.Fixes[0].Code)
	require.Contains(t, string(splitLines([]byte(out))[2]), `"parentUuid":"a1"`)
}

// claudeCheck is check's verdict on a Claude Code file.
func claudeCheck(t *testing.T, path string) []problem.Problem {
	f, err := claude.Open(path)
	require.NoError(t, err)
	defer f.Close()
	return f.ProblemList()
}

// Every fix repair plans answers a warning or an error check reports on the
// same file (finding 2 of issue 15): the fixtures and the shared corpus.
func TestClaudeRepairFixesOnlyWhatCheckReports(t *testing.T) {
	files := claudeFixtures(t)
	shared, _ := filepath.Glob("../../../shared/corpus/claude-code/*/*.jsonl")
	files = append(files, shared...)
	for _, fx := range files {
		res, err := Claude(fx, Options{DryRun: true})
		if err != nil {
			continue // refused (e.g. an agent lock); nothing planned
		}
		sev := map[string]problem.Severity{}
		for _, pr := range claudeCheck(t, fx) {
			if s, ok := sev[pr.Code]; !ok || s == problem.Info {
				sev[pr.Code] = pr.Severity
			}
		}
		for _, f := range res.Fixes {
			s, ok := sev[f.Code]
			require.True(t, ok, "%s: repair fixes %s, which check does not report: %+v", fx, f.Code, f)
			require.True(t, s == problem.Warning || s == problem.Error, "%s: repair fixes %s, which check reports only as %s: %+v", fx, f.Code, s, f)
		}
	}
}

// Problems left after a repair are numbered as the original file, like the
// fixes (the repaired file dropped a line before them).
func TestClaudeRemainingUsesOriginalLineNumbers(t *testing.T) {
	in := strings.Join([]string{
		uuidLine("user", "u1", "", "2025-10-01T09:00:00.000Z", false, `"a"`),
		`{"parentUuid":"u1","isSidechain":false,"type":"assis`, // torn: rejected
		uuidLine("assistant", "a1", "u1", "2025-10-01T09:00:01.000Z", false, `"draft"`),
		uuidLine("user", "u2", "a1", "2025-10-01T09:00:02.000Z", false, `"go"`),
		uuidLine("assistant", "a1", "u1", "2025-10-01T09:00:03.000Z", false, `"final"`), // a re-append: left as is
	}, "\n") + "\n"
	res, _ := repairString(t, in, Options{})
	require.True(t, res.Changed)
	var dup *problem.Problem
	for i, pr := range res.Remaining {
		if pr.Code == claude.ProbDuplicateUUID {
			dup = &res.Remaining[i]
		}
	}
	require.NotNil(t, dup, "%+v", res.Remaining)
	require.Equal(t, 5, dup.Line, "the re-append is line 5 of the file repaired")
	require.Equal(t, 2, res.Fixes[0].Line)
}

// pi: an orphan with no earlier entry becomes a root, and the reason says
// so (not "now the previous entry in file order").
func TestPiOrphanReasonMatchesTarget(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2025-10-01T09:00:00.000Z","cwd":"/w"}`,
		`{"type":"message","id":"e1","parentId":"gone","timestamp":"2025-10-01T09:00:01.000Z","message":{"role":"user","content":"a","timestamp":1}}`,
		`{"type":"message","id":"e2","parentId":"e1","timestamp":"2025-10-01T09:00:02.000Z","message":{"role":"user","content":"b","timestamp":2}}`,
	}, "\n") + "\n"
	dir := t.TempDir()
	p := filepath.Join(dir, "2025-10-01T09-00-00-000Z_s1.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(in), 0o600))
	src, err := pi.Open(p, pi.Options{})
	require.NoError(t, err)
	codes := map[string]bool{}
	for _, pr := range src.Check(pi.CheckOptions{}) {
		codes[pr.Code] = true
	}
	res, err := Pi(p, Options{DryRun: true})
	require.NoError(t, err)
	for _, f := range res.Fixes {
		require.True(t, codes[f.Code], "repair fixes %s, which check does not report", f.Code)
		if strings.Contains(f.Detail, "→ null") {
			require.NotContains(t, f.Detail, "previous entry", "the reason must match the new parent: %s", f.Detail)
		}
	}
}

// When repair plans nothing, what it leaves as is is exactly what check
// reports: the two agree on what is wrong.
func TestClaudeNothingToRepairListsCheckVerdict(t *testing.T) {
	files := claudeFixtures(t)
	shared, _ := filepath.Glob("../../../shared/corpus/claude-code/*/*.jsonl")
	for _, fx := range append(files, shared...) {
		res, err := Claude(fx, Options{DryRun: true})
		if err != nil || len(res.Fixes) > 0 {
			continue
		}
		f, err := claude.Open(fx)
		require.NoError(t, err)
		ps := f.Problems()
		pp, err := f.PathProblems()
		require.NoError(t, err)
		f.Close()
		var want, got []string
		for _, p := range claude.ToProblems(append(ps, pp...)) {
			want = append(want, p.String())
		}
		for _, p := range res.Remaining {
			got = append(got, p.String())
		}
		require.Equal(t, want, got, "%s", fx)
	}
}

// pi: problems left after a repair are numbered as the original file.
func TestPiRemainingUsesOriginalLineNumbers(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2025-10-01T09:00:00.000Z","cwd":"/w"}`,
		`garbage {not json`, // rejected
		`{"type":"message","id":"e1","parentId":null,"timestamp":"2025-10-01T09:00:01.000Z","message":{"role":"user","content":"a","timestamp":1}}`,
		`{"type":"session","version":3,"id":"s2","timestamp":"2025-10-01T09:00:02.000Z","cwd":"/w"}`, // a second header: left as is
	}, "\n") + "\n"
	dir := t.TempDir()
	p := filepath.Join(dir, "2025-10-01T09-00-00-000Z_s1.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(in), 0o600))
	res, err := Pi(p, Options{NoBackup: true})
	require.NoError(t, err)
	require.True(t, res.Changed)
	var extra *problem.Problem
	for i, pr := range res.Remaining {
		if pr.Line > 1 {
			extra = &res.Remaining[i]
		}
	}
	require.NotNil(t, extra, "%+v", res.Remaining)
	require.Equal(t, 4, extra.Line, "the second header is line 4 of the file repaired: %+v", *extra)
}

// A compaction subagent's first records name parents in the parent
// session: check finds no fault with them, so repair leaves them, also when
// it fixes something else in the same file (and its verification does not
// take them for dangling parents).
func TestClaudeSubagentParentsInSessionLeftAlone(t *testing.T) {
	dir := t.TempDir()
	main := strings.Join([]string{
		uuidLine("user", "m1", "", "2025-10-01T09:00:00.000Z", false, `"a"`),
		uuidLine("assistant", "m2", "m1", "2025-10-01T09:00:01.000Z", false, `[]`),
	}, "\n") + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(main), 0o600))
	sub := strings.Join([]string{
		uuidLine("user", "c1", "m2", "2025-10-01T09:00:02.000Z", true, `"summarise"`),
		uuidLine("assistant", "c2", "c1", "2025-10-01T09:00:03.000Z", true, `[]`),
		uuidLine("user", "c3", "c3", "2025-10-01T09:00:04.000Z", true, `"self"`), // damage: its own parent
	}, "\n") + "\n"
	sp := filepath.Join(dir, "s1", "subagents", "agent-acompact-1.jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(sp), 0o700))
	require.NoError(t, os.WriteFile(sp, []byte(sub), 0o600))
	for _, pr := range claudeCheck(t, sp) {
		if pr.Code == claude.ProbDanglingParent {
			t.Skip("check does not resolve subagent parents against the parent session here")
		}
	}
	res, err := Claude(sp, Options{NoBackup: true})
	require.NoError(t, err)
	require.Len(t, res.Fixes, 1, "%+v", res.Fixes)
	require.Equal(t, claude.ProbSelfParent, res.Fixes[0].Code)
	out, _ := os.ReadFile(sp)
	require.Contains(t, string(splitLines(out)[0]), `"parentUuid":"m2"`, "the parent in the session is kept")
	for _, pr := range res.Remaining {
		require.NotEqual(t, claude.ProbDanglingParent, pr.Code, "not reported as left: check finds no fault with it")
	}
	for _, pr := range claudeCheck(t, sp) {
		require.NotEqual(t, problem.Error, pr.Severity, "%s", pr)
	}
}
