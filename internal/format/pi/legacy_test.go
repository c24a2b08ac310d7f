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

const migrateDir = "../../../testdata/pi/migrate"

// An unmigrated v1/v2 file reads as pi reads it after its in-memory
// migration: the context equals pi's (0.73.1: testdata/pi/migrate, 1.5.2:
// v152/rerun/migrate), the tree and every line read back equal pi's
// migrated file with ids mapped, check says only that the version is old,
// and nothing is written.
func TestLegacyReadsAsMigrated(t *testing.T) {
	files := globExpected(t, filepath.Join(migrateDir, "*.expected.json"))
	n := 0
	for _, ef := range files {
		var old struct {
			File   *string `json:"file"`
			Source string  `json:"source"`
			Throws string  `json:"throws"`
			Cases  []struct {
				Leaf    *string         `json:"leaf"`
				Context json.RawMessage `json:"context"`
			} `json:"cases"`
		}
		raw, err := os.ReadFile(ef)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(raw, &old))
		t.Run(old.Source, func(t *testing.T) {
			src := filepath.Join(migrateDir, old.Source)
			before, err := os.ReadFile(src)
			require.NoError(t, err)
			defer func() {
				after, err := os.ReadFile(src)
				require.NoError(t, err)
				require.Equal(t, before, after, "reading must write nothing")
			}()
			for _, v := range []PiVersion{PiCurrent, Pi073} {
				f, err := Open(src, Options{Dialect: DialectPi, PiVersion: v})
				require.NoError(t, err)
				require.NoError(t, f.HeaderErr)
				ctx, err := f.BuildContext(tree.None)
				require.NoError(t, err)
				if old.Throws != "" {
					// pi cannot open it; sessctl shows it and says so.
					require.NotNil(t, f.Legacy)
					require.NotEmpty(t, f.Legacy.AgentFails)
					require.Contains(t, strings.Join(ctx.Warnings, "\n"), "pi cannot open")
					continue
				}
				require.Len(t, old.Cases, 1)
				require.Equal(t, decodeJSON(t, old.Cases[0].Context), decodeJSON(t, contextJSON(ctx)), "pi %q", v)
				n++
				if v == PiCurrent {
					rr := readExpected152(t, filepath.Join(v152, "rerun", "migrate", strings.TrimSuffix(old.Source, ".jsonl")+".json"))
					require.True(t, rr.HeaderOK)
					require.Equal(t, decodeJSON(t, rr.Cases[0].Context), decodeJSON(t, contextJSON(ctx)), "pi 1.5.2")
				}
				// check: only the version notice (none for a v3 file).
				var other []problem.Problem
				notices := 0
				for _, p := range f.Check(CheckOptions{}) {
					if p.Code == CodeOutdatedVersion {
						notices++
						require.Equal(t, problem.Info, p.Severity)
						require.Contains(t, p.Message, "sessctl migrate upgrades it")
						continue
					}
					if p.Code == problem.MalformedLine || p.Code == problem.TornTail {
						continue // v1-garbage-and-blank-lines is damaged on purpose
					}
					other = append(other, p)
				}
				require.Empty(t, other)
				if f.Header.Version >= CurrentVersion {
					require.Zero(t, notices)
					require.Nil(t, f.Legacy)
				} else {
					require.Equal(t, 1, notices)
				}
				if old.File != nil {
					sameAsMigrated(t, f, filepath.Join(migrateDir, *old.File))
				}
			}
		})
	}
	t.Logf("%d legacy contexts equal to pi's", n)
}

// sameAsMigrated compares f (read as migrated) with pi's migrated file:
// the same entries, the same parents, and every line equal once ids are
// mapped entry by entry.
func sameAsMigrated(t *testing.T, f *File, migrated string) {
	t.Helper()
	g, err := Open(migrated, Options{Dialect: f.Dialect})
	require.NoError(t, err)
	require.Nil(t, g.Legacy)
	require.Equal(t, len(g.Entries), len(f.Entries))
	ids := map[string]string{} // ours → pi's
	for i := range f.Entries {
		ids[f.Index.ID(i)] = g.Index.ID(i)
		require.Equal(t, g.Index.Parent(i), f.Index.Parent(i), "parent of entry %d", i)
		require.Equal(t, g.Entries[i].Type(), f.Entries[i].Type())
		require.Equal(t, g.Entries[i].Role(), f.Entries[i].Role())
	}
	all := make([]int, len(f.Entries))
	for i := range all {
		all[i] = i
	}
	ours, err := f.ReadLines(all)
	require.NoError(t, err)
	theirs, err := g.ReadLines(all)
	require.NoError(t, err)
	for i := range all {
		var a, b map[string]any
		if json.Unmarshal(ours[i], &a) != nil {
			require.Equal(t, string(theirs[i]), string(ours[i]))
			continue
		}
		require.NoError(t, json.Unmarshal(theirs[i], &b))
		for _, k := range []string{"id", "parentId", "firstKeptEntryId"} {
			if s, ok := a[k].(string); ok {
				if m, ok := ids[s]; ok {
					a[k] = m
				}
			}
		}
		require.Equal(t, b, a, "line of entry %d", i)
	}
}
