package pi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

func codes(ps []problem.Problem) map[string]int {
	m := map[string]int{}
	for _, p := range ps {
		m[p.Code]++
	}
	return m
}

// A compaction whose firstKeptEntryId is its own id is pi 1.5.2's default
// ("keep nothing"), not a broken pointer.
func TestCheckCompactionOwnID(t *testing.T) {
	for _, p := range []string{
		filepath.Join(v152, "sessions", "107-compaction-default-kept.jsonl"),
		filepath.Join(v152, "hand", "compaction-self-kept.jsonl"),
	} {
		f, err := Open(p, Options{})
		require.NoError(t, err)
		require.Zero(t, codes(f.Check(CheckOptions{}))[CodeCompactionKeptOff], p)
	}
}

// No file pi 1.5.2 wrote itself has an error (the random sessions do pass
// off-path firstKeptEntryIds to appendCompaction, which warns rightly).
func TestCheckPi152SessionsClean(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(v152, "sessions", "*.jsonl"))
	if len(files) == 0 {
		t.Skip("no 1.5.2 sessions")
	}
	for _, p := range files {
		f, err := Open(p, Options{})
		require.NoError(t, err)
		for _, pr := range f.Check(CheckOptions{}) {
			require.NotEqual(t, problem.Error, pr.Severity, "%s: %+v", p, pr)
		}
	}
}

// Where pi 1.5.2's own picker throws (content null), check says so.
func TestCheckListingFails(t *testing.T) {
	f, err := Open(filepath.Join(v152, "hand", "content-null-listing.jsonl"), Options{})
	require.NoError(t, err)
	require.Equal(t, 1, codes(f.Check(CheckOptions{}))[CodeListingFails])
	li, err := ReadListInfo(filepath.Join(v152, "hand", "content-null-listing.jsonl"))
	require.NoError(t, err)
	require.True(t, li.ValidHeader)
	require.Equal(t, 1, li.Problems[CodeListingFails])
}

// A BOM before the header: an error for pi 1.5.2 whose fix is repair; a
// warning in the 0.73 mode, which reads the file.
func TestCheckBOM(t *testing.T) {
	p := filepath.Join(v152, "hand", "bom.jsonl")
	f, err := Open(p, Options{})
	require.NoError(t, err)
	require.Error(t, f.HeaderErr)
	var bom *problem.Problem
	for i, pr := range f.Check(CheckOptions{}) {
		require.NotEqual(t, problem.MissingHeader, pr.Code, "the BOM problem says it all")
		if pr.Code == problem.BOM {
			bom = &f.Problems[i]
		}
	}
	require.NotNil(t, bom)
	require.Equal(t, problem.Error, bom.Severity)
	require.Contains(t, bom.Fix, "repair")
	old, err := Open(p, Options{PiVersion: Pi073})
	require.NoError(t, err)
	require.NoError(t, old.HeaderErr)
	require.Equal(t, problem.Warning, codesSeverity(old.Problems, problem.BOM))
}

func codesSeverity(ps []problem.Problem, code string) problem.Severity {
	for _, p := range ps {
		if p.Code == code {
			return p.Severity
		}
	}
	return ""
}

// Header discovery as pi 1.5.2: the first line that parses; only the first
// 1 MiB is searched when discovering; an empty file is a new session, a
// non-empty file without a header is an error.
func TestHeaderDiscovery152(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o600))
		return p
	}
	hdr := `{"type":"session","version":3,"id":"s1","timestamp":"2026-10-01T00:00:00.000Z","cwd":"/x"}` + "\n"
	msg := `{"type":"message","id":"a","parentId":null,"timestamp":"2026-10-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}` + "\n"

	f, err := Open(write("far.jsonl", strings.Repeat("x", 1<<20)+"\n"+hdr+msg), Options{})
	require.NoError(t, err)
	require.NoError(t, f.HeaderErr, "loading reads the whole file")
	require.Equal(t, 1, codes(f.Check(CheckOptions{}))[CodeHeaderBeyondScan])

	f, err = Open(write("near.jsonl", "\n  \n{bad\n"+hdr+msg), Options{})
	require.NoError(t, err)
	require.NoError(t, f.HeaderErr)
	require.Zero(t, codes(f.Check(CheckOptions{}))[CodeHeaderBeyondScan])

	f, err = Open(write("empty.jsonl", ""), Options{})
	require.NoError(t, err)
	require.Error(t, f.HeaderErr)
	require.Equal(t, problem.Info, codesSeverity(f.Problems, problem.MissingHeader))

	f, err = Open(write("blank.jsonl", "\n \n"), Options{})
	require.NoError(t, err)
	require.Error(t, f.HeaderErr)
	require.Equal(t, problem.Error, codesSeverity(f.Problems, problem.MissingHeader))

	f, err = Open(write("msg.jsonl", msg), Options{})
	require.NoError(t, err)
	require.Error(t, f.HeaderErr)
	require.Equal(t, problem.Error, codesSeverity(f.Problems, problem.MissingHeader))
}

func TestParseDialectVersion(t *testing.T) {
	for in, want := range map[string]struct {
		d Dialect
		v PiVersion
	}{"": {"", PiCurrent}, "auto": {"", PiCurrent}, "pi": {DialectPi, PiCurrent}, "pi-0.73": {DialectPi, Pi073},
		"PI@0.73.1": {DialectPi, Pi073}, "pi-1.5.2": {DialectPi, PiCurrent}, "omp": {DialectOmp, PiCurrent}} {
		d, v, err := ParseDialectVersion(in)
		require.NoError(t, err, in)
		require.Equal(t, want.d, d, in)
		require.Equal(t, want.v, v, in)
	}
	for _, bad := range []string{"pi-0.5", "pix", "omp-0.73"} {
		_, _, err := ParseDialectVersion(bad)
		require.Error(t, err, bad)
	}
}

// FuzzContext152 feeds arbitrary files to the 1.5.2 and 0.73 rebuilds and
// the read-side migration: no panic, every message valid JSON, and the
// file never written.
func FuzzContext152(f *testing.F) {
	for _, p := range []string{"null-content", "edit-odd-replacements", "compaction-self-kept", "compaction-kept-system", "bom", "message-without-message"} {
		if b, err := os.ReadFile(filepath.Join(v152, "hand", p+".jsonl")); err == nil {
			f.Add(b)
		}
	}
	if b, err := os.ReadFile(filepath.Join(migrateDir, "v1-two-compactions.jsonl")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.jsonl")
		require.NoError(t, os.WriteFile(p, data, 0o600))
		for _, v := range []PiVersion{PiCurrent, Pi073} {
			file, err := Open(p, Options{Dialect: DialectPi, PiVersion: v})
			require.NoError(t, err)
			if file.HeaderErr != nil {
				continue
			}
			leaves := append([]int{-1}, file.Index.Leaves()...)
			for _, leaf := range leaves {
				ctx, err := file.BuildContext(leaf)
				require.NoError(t, err)
				for _, m := range ctx.Messages {
					require.True(t, json.Valid(m), "%s", m)
				}
			}
			file.Check(CheckOptions{})
		}
		after, err := os.ReadFile(p)
		require.NoError(t, err)
		require.Equal(t, data, after)
	})
}

// compact-view counts what pi 1.5.2 keeps: no role-system messages.
func TestCompactViewKeptSystem152(t *testing.T) {
	p := filepath.Join(v152, "hand", "compaction-kept-system.jsonl")
	for v, want := range map[PiVersion]int{PiCurrent: 2, Pi073: 4} {
		f, err := Open(p, Options{PiVersion: v})
		require.NoError(t, err)
		cv, err := f.CompactView(tree.None)
		require.NoError(t, err)
		require.Len(t, cv.Compactions, 1)
		require.Equal(t, 4, cv.Compactions[0].Kept.Entries)
		require.Equal(t, want, cv.Compactions[0].Kept.Messages, "pi %q", v)
	}
}
