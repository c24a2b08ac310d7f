package discover

import (
	"bufio"
	"bytes"
	"sort"

	"encoding/json"
	"fmt"
	"github.com/stretchr/testify/require"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestScanSaveInBackground: a scan that writes its cache in the background
// writes, once waited for, the same file as one that saves before it
// returns; a second scan takes
// every row from it and lists the same sessions; a cache that cannot be
// written is a warning WaitSave adds.
func TestScanSaveInBackground(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, ".pi", "agent", "sessions", "--p--")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 12; n++ {
		body := fmt.Sprintf(`{"type":"session","version":3,"id":"s%d","timestamp":"2026-03-01T00:00:00.000Z","cwd":"/p\t\"%d"}`+"\n"+
			`{"type":"message","id":"m","parentId":null,"timestamp":"2026-03-01T00:00:01.000Z","message":{"role":"user","content":"hi <%d> & \u2028","timestamp":1772323201000}}`+"\n", n, n, n)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("2026-03-01T00-00-00-000Z_s%d.jsonl", n)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := envOf(map[string]string{"HOME": home})
	fg := filepath.Join(t.TempDir(), "fg", "c.json")
	bg := filepath.Join(t.TempDir(), "bg", "c.json")
	one := Scan(Options{Env: env, Agents: []string{"pi"}, Cache: fg})
	two := Scan(Options{Env: env, Agents: []string{"pi"}, Cache: bg, SaveInBackground: true})
	two.WaitSave()
	two.WaitSave() // again: nothing
	if len(one.Sessions) != 12 || len(one.Warnings)+len(two.Warnings) != 0 || two.Read != 12 {
		t.Fatalf("sessions %d, warnings %v %v, read %d", len(one.Sessions), one.Warnings, two.Warnings, two.Read)
	}
	if !reflect.DeepEqual(one.Sessions, two.Sessions) {
		t.Fatal("the sessions differ")
	}
	a, err := os.ReadFile(fg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(bg)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Fatalf("cache files differ:\n%s\n%s", a, b)
	}
	warm := Scan(Options{Env: env, Agents: []string{"pi"}, Cache: bg, SaveInBackground: true})
	warm.WaitSave()
	// (as JSON: a cached row's times come back without their location)
	cold, _ := json.Marshal(one.Sessions)
	cached, _ := json.Marshal(warm.Sessions)
	if warm.Cached != 12 || warm.Read != 0 || string(cold) != string(cached) {
		t.Fatalf("warm scan: cached %d read %d, sessions\n%s\n%s", warm.Cached, warm.Read, cold, cached)
	}

	// A cache folder that is a file: the save fails, WaitSave warns.
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := Scan(Options{Env: env, Agents: []string{"pi"}, Cache: filepath.Join(blocked, "c.json"), SaveInBackground: true})
	if len(bad.Warnings) != 0 {
		t.Fatalf("warned before WaitSave: %v", bad.Warnings)
	}
	bad.WaitSave()
	if len(bad.Warnings) != 1 || bad.Warnings[0].Path != filepath.Join(blocked, "c.json") {
		t.Fatalf("warnings after WaitSave: %v", bad.Warnings)
	}
}

// TestCacheRowsEncodedInParts: a cache of many rows, encoded in runs on
// several goroutines, is written as one writer writes it row by row.
func TestCacheRowsEncodedInParts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	c := LoadCache(path)
	for n := range 700 {
		f, st, prov := cacheFixture(t, dir, fmt.Sprintf("s%03d.jsonl", n), fmt.Sprintf("line %d\n", n))
		c.Put(f, st, prov, &Session{Agent: "pi", Format: "pi", ID: fmt.Sprint("id", n), Path: f, Title: fmt.Sprintf("t\t%d <&> \u2028", n),
			ProblemCodes: map[string]int{"b": n, "a": 1}, Problems: n + 1})
	}
	require.NoError(t, c.Save())
	got, err := os.ReadFile(path)
	require.NoError(t, err)

	paths := make([]string, 0, len(c.entries))
	for p := range c.entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var want bytes.Buffer
	w := bufio.NewWriter(&want)
	w.WriteString(cacheHeader() + "\n")
	require.NoError(t, c.writeRows(w, paths))
	w.WriteString(`null],"count":700}` + "\n")
	require.NoError(t, w.Flush())
	require.Equal(t, want.String(), string(got))
	loaded := LoadCache(path)
	require.Len(t, loaded.entries, 700)
}

// TestSaveWarningInPlace: the warning of a cache saved in the background
// comes where a save in the foreground puts it, before the warnings
// ScanAll adds afterwards (a database that cannot be read).
func TestSaveWarningInPlace(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, ".pi", "agent", "sessions", "--p--")
	db := filepath.Join(home, ".openclaw", "agents", "ops", "agent", "openclaw-agent.sqlite")
	for _, d := range []string{root, filepath.Dir(db)} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(root, "2026-03-01T00-00-00-000Z_s.jsonl"),
		[]byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T00:00:00.000Z","cwd":"/p"}`+"\n"), 0o644))
	require.NoError(t, os.WriteFile(db, []byte("junk"), 0o644))
	blocked := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(blocked, nil, 0o644))
	cache := filepath.Join(blocked, "c.json")
	env := envOf(map[string]string{"HOME": home})
	paths := func(ws []Warning) []string {
		var out []string
		for _, w := range ws {
			out = append(out, w.Path)
		}
		return out
	}
	fg := ScanAll(Options{Env: env, Cache: cache})
	bg := ScanAll(Options{Env: env, Cache: cache, SaveInBackground: true})
	bg.WaitSave()
	require.Len(t, fg.Warnings, 2, "want the cache's and the database's warnings: %v", fg.Warnings)
	require.Equal(t, cache, fg.Warnings[0].Path)
	require.Equal(t, paths(fg.Warnings), paths(bg.Warnings))
}
