package repair

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/stretchr/testify/require"
)

// claudeFixtures are every Claude Code transcript of testdata/claude.
func claudeFixtures(t *testing.T) []string {
	var out []string
	root := "../../testdata/claude"
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		// parity/ holds 190 loader cases resumed by the real CLI; repairing
		// each several times would take minutes
		if err == nil && d.IsDir() && d.Name() == "parity" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "/fuzz/") {
			out = append(out, p)
		}
		return nil
	})
	if len(out) == 0 {
		t.Skip("fixtures missing")
	}
	return out
}

// claudeIDFields are the only fields a Claude repair may change in a line it keeps.
var claudeIDFields = []string{"uuid", "parentUuid", "logicalParentUuid", "sourceToolAssistantUUID", "leafUuid", "messageId"}

func withoutClaudeIDs(m map[string]any) map[string]any {
	c := map[string]any{}
	for k, v := range m {
		c[k] = v
	}
	for _, k := range claudeIDFields {
		delete(c, k)
	}
	return c
}

func claudeErrors(t *testing.T, path string) []string {
	f, err := claude.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []string
	for _, p := range f.ProblemList() {
		if p.Severity == problem.Error {
			out = append(out, p.String())
		}
	}
	return out
}

func TestClaudeRepairFixtures(t *testing.T) {
	for _, fx := range claudeFixtures(t) {
		b, err := os.ReadFile(fx)
		require.NoError(t, err)
		claudeRepairAndVerify(t, fx, b)
	}
}

func TestClaudeRepairTruncatedLastLine(t *testing.T) {
	for _, fx := range claudeFixtures(t) {
		fx := fx
		b, _ := os.ReadFile(fx)
		t.Run(filepath.Base(fx), func(t *testing.T) {
			t.Parallel()
			lines := splitLines(b)
			last := lines[len(lines)-1]
			head := join(lines[:len(lines)-1])
			// every byte for the shape fixtures; the session folders'
			// files (same line shapes) every 7th byte, to keep the
			// package's test time reasonable
			step := 1
			if !strings.Contains(fx, "/shapes/") {
				step = 7
			}
			if testing.Short() {
				step = 17
			}
			for cut := 1; cut < len(last); cut += step {
				content := append(append([]byte(nil), head...), last[:cut]...)
				claudeRepairAndVerify(t, fmt.Sprintf("%s cut at %d", fx, cut), content)
			}
		})
	}
}

func TestClaudeRepairCorruptionCorpus(t *testing.T) {
	n := 42
	if testing.Short() {
		n = 7
	}
	for k, fx := range claudeFixtures(t) {
		fx := fx
		rng := rand.New(rand.NewSource(int64(7 + k)))
		b, _ := os.ReadFile(fx)
		t.Run(filepath.Base(fx), func(t *testing.T) {
			t.Parallel()
			claudeCorrupt(t, fx, b, rng, n)
		})
	}
}

func claudeCorrupt(t *testing.T, fx string, b []byte, rng *rand.Rand, n int) {
	base := splitLines(b)
	if len(base) < 2 {
		return
	}
	for i := 0; i < n; i++ {
		lines := append([][]byte(nil), base...)
		kind := i % 7
		at := rng.Intn(len(lines))
		switch kind {
		case 0: // garbage line
			lines = append(lines[:at], append([][]byte{[]byte("garbage {not json")}, lines[at:]...)...)
		case 1: // NUL run line, or NULs before a record
			if rng.Intn(2) == 0 {
				lines = append(lines[:at], append([][]byte{bytes.Repeat([]byte{0}, 100+rng.Intn(400))}, lines[at:]...)...)
			} else {
				lines[at] = append(bytes.Repeat([]byte{0}, 1+rng.Intn(50)), lines[at]...)
			}
		case 2: // duplicated line (the same record written again)
			dup := append([]byte(nil), lines[at]...)
			to := at + 1 + rng.Intn(len(lines)-at)
			lines = append(lines[:to], append([][]byte{dup}, lines[to:]...)...)
		case 3: // deleted line (orphans below it)
			lines = append(lines[:at], lines[at+1:]...)
		case 4: // re-parent a record under a later one (a cycle when it is its ancestor)
			later := at + rng.Intn(len(lines)-at)
			id, _ := jsonl.Field(lines[later], "uuid")
			if id != nil {
				if b, err := jsonEditSet(lines[at], "parentUuid", id); err == nil {
					lines[at] = b
				}
			}
		case 5: // two lines glued together, and a BOM
			if at+1 < len(lines) {
				lines[at] = append(append([]byte(nil), lines[at]...), lines[at+1]...)
				lines = append(lines[:at+1], lines[at+2:]...)
			}
			lines[0] = append(append([]byte(nil), jsonl.BOM...), lines[0]...)
		case 6: // a different record reusing an earlier record's uuid
			later := at + rng.Intn(len(lines)-at)
			id, _ := jsonl.Field(lines[at], "uuid")
			if id != nil && later != at {
				if b, err := jsonEditSet(lines[later], "uuid", id); err == nil {
					lines[later] = b
				}
			}
		}
		claudeRepairAndVerify(t, fmt.Sprintf("%s case %d kind %d", fx, i, kind), join(lines))
	}
}

func jsonEditSet(line []byte, key string, val []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, err
	}
	if _, ok := m[key]; !ok {
		return nil, fmt.Errorf("no %s", key)
	}
	// edit in place so the key order (parentUuid first) is kept
	old, _ := jsonl.Field(line, key)
	return bytes.Replace(line, append([]byte(`"`+key+`":`), old...), append([]byte(`"`+key+`":`), val...), 1), nil
}

func TestClaudeRepairCleanFilesUnchanged(t *testing.T) {
	for _, fx := range []string{"rewind", "split-parallel", "compact", "compact-preserved", "metadata", "duplicate-uuid", "api-error-late"} {
		src := filepath.Join("../../testdata/claude/shapes", fx+".jsonl")
		b, err := os.ReadFile(src)
		if err != nil {
			t.Skip("fixtures missing")
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "s.jsonl")
		require.NoError(t, os.WriteFile(p, b, 0o600))
		res, err := Claude(p, Options{})
		require.NoError(t, err)
		require.False(t, res.Changed, "%s: %+v", fx, res.Fixes)
		after, _ := os.ReadFile(p)
		require.Equal(t, b, after)
		ents, _ := os.ReadDir(dir)
		require.Len(t, ents, 1, "no backup or sidecar for a file with nothing to repair")
	}
}

// uuidLine makes a minimal Claude Code line.
func uuidLine(typ, uuid, parent, ts string, side bool, content string) string {
	par := "null"
	if parent != "" {
		par = `"` + parent + `"`
	}
	return fmt.Sprintf(`{"parentUuid":%s,"isSidechain":%t,"userType":"external","cwd":"/w","sessionId":"s1","version":"2.1.70","type":"%s","message":{"role":"%s","content":%s},"uuid":"%s","timestamp":"%s"}`,
		par, side, typ, typ, content, uuid, ts)
}

func repairString(t *testing.T, content string, opts Options) (*Result, string) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	opts.NoBackup = true
	res, err := Claude(p, opts)
	require.NoError(t, err)
	out, _ := os.ReadFile(p)
	require.Empty(t, claudeErrors(t, p), "%s", out)
	return res, string(out)
}

func TestClaudeOrphanFiveSecondRule(t *testing.T) {
	in := strings.Join([]string{
		uuidLine("user", "u1", "", "2025-10-01T09:00:00.000Z", false, `"a"`),
		uuidLine("assistant", "a1", "u1", "2025-10-01T09:00:01.000Z", false, `[]`),
		uuidLine("user", "s1", "", "2025-10-01T09:00:09.000Z", true, `"side"`),
		uuidLine("user", "u2", "gone", "2025-10-01T09:00:10.000Z", false, `"b"`),  // side s1 is 1 s earlier but a sidechain; a1 is 9 s earlier
		uuidLine("user", "u3", "gone2", "2025-10-01T09:00:12.000Z", false, `"c"`), // u2 2 s earlier
	}, "\n") + "\n"
	res, out := repairString(t, in, Options{})
	lines := splitLines([]byte(out))
	require.Contains(t, string(lines[3]), `"parentUuid":"a1"`, "beyond 5 s: the previous record of the same isSidechain in file order")
	require.Contains(t, string(lines[4]), `"parentUuid":"u2"`, "within 5 s, same isSidechain")
	require.Len(t, res.Fixes, 2)
	for _, f := range res.Fixes {
		require.Equal(t, claude.ProbDanglingParent, f.Code)
	}
}

func TestClaudeDuplicateDamageRenamed(t *testing.T) {
	// saved_hook_context style: a later record reuses the uuid of an earlier
	// one and names a child of the first as its parent (a fake cycle).
	in := strings.Join([]string{
		uuidLine("user", "x", "", "2025-10-01T09:00:00.000Z", false, `"a"`),
		uuidLine("assistant", "b", "x", "2025-10-01T09:00:01.000Z", false, `[]`),
		uuidLine("system", "x", "b", "2025-10-01T09:00:02.000Z", false, `"hook"`),
		uuidLine("user", "c", "x", "2025-10-01T09:00:03.000Z", false, `"after"`),
	}, "\n") + "\n"
	res, out := repairString(t, in, Options{Rand: rand.New(rand.NewSource(1))})
	lines := splitLines([]byte(out))
	var m0 map[string]any
	require.NoError(t, json.Unmarshal(lines[0], &m0))
	fresh := m0["uuid"].(string)
	require.NotEqual(t, "x", fresh)
	require.Contains(t, string(lines[1]), `"parentUuid":"`+fresh+`"`, "the child written before the second record follows the rename")
	require.Contains(t, string(lines[2]), `"uuid":"x"`, "the last record keeps the uuid")
	require.Contains(t, string(lines[3]), `"parentUuid":"x"`, "a child written after it means the last record")
	actions := map[string]int{}
	for _, f := range res.Fixes {
		actions[f.Action]++
	}
	require.Equal(t, map[string]int{"renamed-uuid": 1, "relinked": 1}, actions)
}

func TestClaudeDuplicateUpdateLeftAlone(t *testing.T) {
	in := strings.Join([]string{
		uuidLine("user", "x", "", "2025-10-01T09:00:00.000Z", false, `"a"`),
		uuidLine("assistant", "b", "x", "2025-10-01T09:00:01.000Z", false, `"draft"`),
		uuidLine("user", "c", "b", "2025-10-01T09:00:02.000Z", false, `"go"`),
		uuidLine("assistant", "b", "x", "2025-10-01T09:00:03.000Z", false, `"final"`),
	}, "\n") + "\n"
	res, out := repairString(t, in, Options{})
	require.False(t, res.Changed)
	require.Equal(t, in, out)
}

func TestClaudeProgressBridged(t *testing.T) {
	prog := func(uuid, parent string) string {
		return fmt.Sprintf(`{"parentUuid":"%s","isSidechain":false,"sessionId":"s1","data":{"type":"hook_progress"},"type":"progress","uuid":"%s","timestamp":"2025-10-01T09:00:01.500Z"}`, parent, uuid)
	}
	in := strings.Join([]string{
		uuidLine("user", "u1", "", "2025-10-01T09:00:00.000Z", false, `"a"`),
		uuidLine("assistant", "a1", "u1", "2025-10-01T09:00:01.000Z", false, `[]`),
		prog("p1", "a1"),
		prog("p2", "p1"),
		uuidLine("user", "u2", "p2", "2025-10-01T09:00:02.000Z", false, `"b"`),
	}, "\n") + "\n"
	res, out := repairString(t, in, Options{BridgeProgress: true})
	lines := splitLines([]byte(out))
	require.Len(t, lines, 5, "progress lines are kept")
	require.Equal(t, prog("p2", "p1"), string(lines[3]))
	require.Contains(t, string(lines[4]), `"parentUuid":"a1"`)
	require.Len(t, res.Fixes, 1)
	require.Equal(t, "bridged", res.Fixes[0].Action)
}

func TestClaudeCloseToolCalls(t *testing.T) {
	use := `[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}},{"type":"tool_use","id":"toolu_2","name":"Read","input":{}}]`
	in := strings.Join([]string{
		uuidLine("user", "u1", "", "2025-10-01T09:00:00.000Z", false, `"a"`),
		strings.Replace(uuidLine("assistant", "a1", "u1", "2025-10-01T09:00:01.000Z", false, use), `"role":"assistant"`, `"id":"msg_1","role":"assistant"`, 1),
		uuidLine("user", "r1", "a1", "2025-10-01T09:00:02.000Z", false, `[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]`),
		`{"nul": "the next line is damaged, so the plan is analysed from a temp file"}`,
		"{torn",
	}, "\n")
	now := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
	res, out := repairString(t, in, Options{CloseToolCalls: true, Now: func() time.Time { return now }})
	lines := splitLines([]byte(out))
	last := lines[len(lines)-1]
	var m map[string]any
	require.NoError(t, json.Unmarshal(last, &m))
	require.True(t, bytes.HasPrefix(last, []byte(`{"parentUuid":"r1",`)), "chained at the leaf: %s", last)
	require.Equal(t, "user", m["type"])
	require.Equal(t, "s1", m["sessionId"])
	require.Equal(t, "/w", m["cwd"])
	require.Equal(t, "2.1.70", m["version"])
	require.Equal(t, false, m["isSidechain"])
	require.Equal(t, "2026-01-02T03:04:05.006Z", m["timestamp"])
	blocks := m["message"].(map[string]any)["content"].([]any)
	require.Len(t, blocks, 1)
	b := blocks[0].(map[string]any)
	require.Equal(t, "toolu_2", b["tool_use_id"])
	require.Equal(t, true, b["is_error"])
	n := 0
	for _, f := range res.Fixes {
		if f.Action == "closed-tool-call" {
			n++
		}
	}
	require.Equal(t, 1, n)
	// check finds no unanswered call any more; a second run changes nothing.
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(out), 0o600))
	f, err := claude.Open(p)
	require.NoError(t, err)
	pp, err := f.PathProblems()
	require.NoError(t, err)
	f.Close()
	require.Empty(t, pp)
	again, err := Claude(p, Options{CloseToolCalls: true, NoBackup: true})
	require.NoError(t, err)
	require.False(t, again.Changed, "%+v", again.Fixes)
	ents, _ := os.ReadDir(dir)
	require.Len(t, ents, 1, "no plan temp file left")
}

// corpusClaude lists the public Claude Code samples of the shared corpus
// (../shared/corpus from the repository root); the test is skipped without them.
func corpusClaude(t *testing.T) []string {
	files, _ := filepath.Glob("../../../shared/corpus/claude-code/*/*.jsonl")
	if len(files) == 0 {
		t.Skip("shared corpus not present")
	}
	return files
}

func TestClaudeRepairCorpus(t *testing.T) {
	for k, fx := range corpusClaude(t) {
		b, err := os.ReadFile(fx)
		require.NoError(t, err)
		claudeRepairAndVerify(t, fx, b)
		claudeCorrupt(t, fx, b, rand.New(rand.NewSource(int64(100+k))), 14)
	}
}

func TestClaudeCloseToolCallsExplicitLeafLeftAlone(t *testing.T) {
	use := `[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}]`
	in := strings.Join([]string{
		uuidLine("user", "u1", "", "2025-10-01T09:00:00.000Z", false, `"a"`),
		uuidLine("assistant", "a1", "u1", "2025-10-01T09:00:01.000Z", false, use),
		`{"type":"last-prompt","lastPrompt":"a","leafUuid":"a1","explicit":true,"sessionId":"s1"}`,
	}, "\n") + "\n"
	res, out := repairString(t, in, Options{CloseToolCalls: true})
	require.False(t, res.Changed, "%+v", res.Fixes)
	require.Equal(t, in, out)
}

var claudeKind = repairKind{repair: Claude, withoutIDs: withoutClaudeIDs, errors: claudeErrors}

func claudeRepairAndVerify(t *testing.T, name string, content []byte) *Result {
	t.Helper()
	return verifyRepair(t, claudeKind, name, content)
}
