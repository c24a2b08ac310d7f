package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const home = "../../../testdata/claude/home"

func shopDir() string { return filepath.Join(home, "projects", "-home-dev-shop") }

func TestProjectDirName(t *testing.T) {
	// expected values computed with Node.js from the algorithm in the
	// reference (replace /[^a-zA-Z0-9]/g by '-' over UTF-16 units; over 200:
	// cut + '-' + Math.abs(h).toString(36), h = (h<<5)-h+unit, |0):
	//   enc = p => { s = p.replace(/[^a-zA-Z0-9]/g,"-"); return s.length<=200 ? s :
	//     s.slice(0,200)+"-"+Math.abs(h(p)).toString(36) }
	long := "/home/dev/" + strings.Repeat("very-long-directory-name/", 10) + "project"
	for in, want := range map[string]string{
		"/Users/foo/my_proj.v2": "-Users-foo-my-proj-v2",
		"~/Documents/Проект":    "--Documents-------",
		"/tmp/🎉x":               "-tmp---x",
		`C:\git\cc-plus`:        "C--git-cc-plus",
		long:                    "-home-dev-very-long-directory-name-very-long-directory-name-very-long-directory-name-very-long-directory-name-very-long-directory-name-very-long-directory-name-very-long-directory-name-very-long-direc-d7g4v2",
		"/ü/" + strings.Repeat("é", 250) + "🎉": strings.Repeat("-", 200) + "-6p2sx",
	} {
		assert.Equal(t, want, ProjectDirName(in), in)
	}
}

func TestLongCwdSession(t *testing.T) {
	long := "/home/dev/" + strings.Repeat("very-long-directory-name/", 10) + "project"
	dir := filepath.Join(home, "projects", ProjectDirName(long))
	sid := "eeeeeeee-0000-4000-8000-000000000001"
	found, err := FindSession(home, sid)
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(dir, sid+".jsonl")}, found)
	info, err := ListInfo(found[0])
	require.NoError(t, err)
	assert.Equal(t, long, info.Cwd, "the real project is the cwd inside the file")
	assert.Equal(t, "Where am I?", info.Title)
	assert.Equal(t, TitleFirstPrompt, info.TitleSource)
}

func TestFindSessionAnyFolder(t *testing.T) {
	found, err := FindSession(home, "dddddddd-0000-4000-8000-000000000002")
	require.NoError(t, err)
	assert.Len(t, found, 1)
	found, err = FindSession(home, "ffffffff-0000-4000-8000-000000000000")
	require.NoError(t, err)
	assert.Empty(t, found)
	assert.Equal(t, "/x/.claude", ConfigDir(func(k string) string {
		return map[string]string{"HOME": "/x"}[k]
	}))
	assert.Equal(t, "/c", ConfigDir(func(k string) string {
		return map[string]string{"HOME": "/x", "CLAUDE_CONFIG_DIR": "/c"}[k]
	}))
}

func TestSummaryInAnotherFile(t *testing.T) {
	a := filepath.Join(shopDir(), "cccccccc-0000-4000-8000-00000000000a.jsonl")
	b := filepath.Join(shopDir(), "cccccccc-0000-4000-8000-00000000000b.jsonl")
	fa, err := Open(a)
	require.NoError(t, err)
	defer fa.Close()
	assert.Contains(t, codes(fa.Problems()), ProbSummaryElse)
	ia, err := ListInfo(a)
	require.NoError(t, err)
	// the SDK's listSessions titles a session with the last summary line of
	// its file whatever its leafUuid (parity case title-summary-elsewhere)
	assert.Equal(t, TitleSummary, ia.TitleSource)
	assert.Equal(t, "Flaky payment test fixed", ia.Title)
	ib, err := ListInfo(b)
	require.NoError(t, err)
	assert.Equal(t, "Flaky payment test fixed", ia.Summaries[ib.LastUUID], "a's summary line names b's last record")
	assert.Equal(t, "Fix the flaky payment test", ib.Title, "the <local-command-stdout> line is skipped")
}

func TestSubagentLayouts(t *testing.T) {
	p := filepath.Join(shopDir(), "dddddddd-0000-4000-8000-000000000001.jsonl")
	f, err := Open(p)
	require.NoError(t, err)
	defer f.Close()
	files, err := FindSubagents(p)
	require.NoError(t, err)
	subs := f.LinkSubagents(files)
	byID := map[string]SubagentFile{}
	for _, s := range subs.Files {
		byID[s.AgentID] = s
	}
	require.Len(t, byID, 4, "legacy agent file of the other session is not included")
	assert.Equal(t, 0, byID["acompact-5e6f"].Problems, "a compaction subagent hanging on the parent session is healthy")
	assert.Equal(t, LinkParentUUID, byID["acompact-5e6f"].Link)
	assert.Equal(t, id(13000006), byID["acompact-5e6f"].ParentUUID)
	assert.Equal(t, LinkMetaToolUseID, byID["a1"].Link)
	assert.Equal(t, id(13000002), byID["a1"].ParentUUID)
	assert.Equal(t, "Review code", byID["a1"].Description)
	assert.Equal(t, LinkResultAgentID, byID["b2"].Link)
	assert.Equal(t, id(13000003), byID["b2"].ParentUUID)
	assert.Equal(t, "", byID["c3"].ParentUUID)
	assert.Equal(t, 2, byID["c3"].Messages)
	assert.Equal(t, LayoutSubagents, byID["c3"].Layout)
	assert.Len(t, subs.Unlinked(), 1)

	tr, err := f.Tree("")
	require.NoError(t, err)
	j := tr.JSON(p, LeafLastPrompt, f.LeafModes(), subs)
	for _, n := range j.Nodes {
		switch n.ID {
		case id(13000002):
			assert.Equal(t, []string{"a1"}, n.Subagents)
		case id(13000003):
			assert.Equal(t, []string{"b2"}, n.Subagents)
		case id(13000006):
			assert.Equal(t, []string{"acompact-5e6f"}, n.Subagents, "the compaction subagent hangs on the record it names")
		default:
			assert.Empty(t, n.Subagents)
		}
	}

	// legacy layout: agent-<id>.jsonl beside the session, linked by agentId
	o := filepath.Join(shopDir(), "dddddddd-0000-4000-8000-000000000002.jsonl")
	fo, err := Open(o)
	require.NoError(t, err)
	defer fo.Close()
	files, err = FindSubagents(o)
	require.NoError(t, err)
	require.Len(t, files, 1)
	assert.Equal(t, LayoutLegacy, files[0].Layout)
	ls := fo.LinkSubagents(files)
	assert.Equal(t, id(13400002), ls.Files[0].ParentUUID)
	assert.Equal(t, LinkResultAgentID, ls.Files[0].Link)
	// sidechain-only files are flagged for list
	info, err := ListInfo(filepath.Join(shopDir(), "agent-e5f6a7b8.jsonl"))
	require.NoError(t, err)
	assert.True(t, info.SidechainOnly)
	sf, err := Open(filepath.Join(shopDir(), "agent-e5f6a7b8.jsonl"))
	require.NoError(t, err)
	defer sf.Close()
	assert.True(t, sf.SidechainOnly())
	leaf, err := sf.Leaf(LeafResume)
	require.NoError(t, err)
	assert.Equal(t, id(13500002), leaf, "in a sidechain-only file the sidechain filter does not apply")
}

func TestListInfoHeadTail(t *testing.T) {
	// a file bigger than head+tail: titles come from the tail, the first
	// prompt from the head, counts are not exact
	dir := t.TempDir()
	p := filepath.Join(dir, "12345678-1234-4234-8234-123456789012.jsonl")
	var b strings.Builder
	b.WriteString(`{"type":"custom-title","customTitle":"head title","sessionId":"s"}` + "\n")
	b.WriteString(`{"parentUuid":null,"isSidechain":false,"cwd":"/w","sessionId":"s","type":"user","message":{"role":"user","content":"first real prompt"},"uuid":"u0","timestamp":"2025-01-01T00:00:00.000Z"}` + "\n")
	filler := `{"parentUuid":"u0","isSidechain":false,"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"` + strings.Repeat("x", 1000) + `"}]},"uuid":"aX","timestamp":"2025-01-01T00:00:01.000Z"}` + "\n"
	for i := 0; i < 200; i++ {
		b.WriteString(filler)
	}
	b.WriteString(`{"type":"custom-title","customTitle":"tail title","sessionId":"s"}` + "\n")
	require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
	info, err := ListInfo(p)
	require.NoError(t, err)
	assert.Equal(t, "tail title", info.Title)
	assert.Equal(t, "first real prompt", info.FirstPrompt)
	assert.Equal(t, "/w", info.Cwd)
	assert.False(t, info.CountsExact)
	assert.Equal(t, "s", info.FileSessionID)
}

func TestIsRealPrompt(t *testing.T) {
	for s, want := range map[string]bool{
		"fix it":                          true,
		"<command-name>/x</command-name>": false,
		"  <local-command-stdout>":        false,
		"<B>old html</B>":                 true,
		"[Request interrupted by user]":   false,
		"":                                false,
	} {
		assert.Equal(t, want, IsRealPrompt(s), s)
	}
}
