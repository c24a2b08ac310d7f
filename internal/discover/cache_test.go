package discover

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cacheFixture writes a session file and returns its path, stat and the pi
// provider.
func cacheFixture(t *testing.T, dir, name, body string) (string, os.FileInfo, *Provider) {
	t.Helper()
	f := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(f, []byte(body), 0o644))
	st, err := os.Stat(f)
	require.NoError(t, err)
	prov, _ := Lookup("pi")
	return f, st, prov
}

func TestCacheFullRowRoundTrip(t *testing.T) {
	dir := t.TempDir()
	f, st, prov := cacheFixture(t, dir, "s\t\"x\n.jsonl", "x\n")
	path := filepath.Join(dir, "cache", "c.json")
	created := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	parent := "/p/parent.jsonl"
	in := &Session{Agent: "pi", Format: "pi", ID: "one", Path: f, Title: "tab\there, quote \" and \u2028 <&>",
		Created: &created, Modified: time.Date(2026, 2, 3, 4, 5, 6, 7_000_000, time.UTC), MTime: st.ModTime().UTC(),
		ParentSession: &parent, Problems: 2, ProblemCodes: map[string]int{"a": 2}, Sidechain: true}
	c := LoadCache(path)
	c.Put(f, st, prov, in)
	require.NoError(t, c.Save())

	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(b), cacheHeader()+"\n"))
	assert.True(t, strings.HasSuffix(string(b), "\nnull],\"count\":1}\n"))
	assert.True(t, json.Valid(b), "the file is one JSON document")

	c = LoadCache(path)
	br, ok := c.Brief(f, st, prov)
	require.True(t, ok)
	assert.Equal(t, Brief{ID: "one", Title: in.Title, Modified: in.Modified, Sidechain: true}, br)
	got := c.Get(f, st, prov)
	require.NotNil(t, got)
	assert.Equal(t, in, got)

	// A row loaded and never decoded is written back as it was read.
	c = LoadCache(path)
	c.dirty = true
	require.NoError(t, c.Save())
	b2, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(b), string(b2))
}

func TestCacheBriefRows(t *testing.T) {
	dir := t.TempDir()
	f, st, prov := cacheFixture(t, dir, "s.jsonl", "x\n")
	path := filepath.Join(dir, "cache", "c.json")
	c := LoadCache(path)
	mod := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	c.PutBrief(f, st, prov, &Session{ID: "b", Title: "brief", Modified: mod, Messages: 9})
	require.NoError(t, c.Save())

	c = LoadCache(path)
	br, ok := c.Brief(f, st, prov)
	require.True(t, ok)
	assert.Equal(t, Brief{ID: "b", Title: "brief", Modified: mod}, br)
	assert.Nil(t, c.Get(f, st, prov), "list does not take a brief row (it has no verdict)")

	// list's full row replaces it; a brief one does not replace a full one.
	c.Put(f, st, prov, &Session{ID: "b", Title: "full", Modified: mod})
	c.PutBrief(f, st, prov, &Session{ID: "b", Title: "brief again", Modified: mod})
	require.NoError(t, c.Save())
	c = LoadCache(path)
	require.NotNil(t, c.Get(f, st, prov))
	br, _ = c.Brief(f, st, prov)
	assert.Equal(t, "full", br.Title)

	// A changed file makes the row stale for both.
	require.NoError(t, os.WriteFile(f, []byte("xy\n"), 0o644))
	st2, err := os.Stat(f)
	require.NoError(t, err)
	_, ok = c.Brief(f, st2, prov)
	assert.False(t, ok)
}

// A damaged, cut, hostile or foreign cache is no cache: empty, rewritten on
// the next Save, never a panic.
func TestCacheCorruptIsCold(t *testing.T) {
	dir := t.TempDir()
	f, st, prov := cacheFixture(t, dir, "s.jsonl", "x\n")
	path := filepath.Join(dir, "cache", "c.json")
	c := LoadCache(path)
	c.Put(f, st, prov, &Session{ID: "one", Title: "t", Modified: time.Unix(5, 0).UTC()})
	c.PutBrief(f+"2", st, prov, &Session{ID: "two", Title: "u", Modified: time.Unix(6, 0).UTC()})
	require.NoError(t, c.Save())
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Len(t, LoadCache(path).entries, 2)

	header := cacheHeader() + "\n"
	row := func(fields string) string { return header + "[" + fields + "],\n" + `null],"count":1}` + "\n" }
	const t0 = `"2026-01-01T00:00:00Z"`
	end2 := `null],"count":2}` + "\n"
	cases := map[string]string{
		"empty":              "",
		"old JSON cache":     `{"format":4,"entries":{}}` + "\n",
		"other format":       strings.Replace(string(good), header, `{"sessctl-list-cache":2,"cacheFormat":999,"rows":[`+"\n", 1),
		"other layout":       strings.Replace(string(good), header, strings.Replace(header, `cache":2`, `cache":3`, 1), 1),
		"no last line":       strings.TrimSuffix(string(good), end2),
		"wrong count":        strings.Replace(string(good), end2, `null],"count":3}`+"\n", 1),
		"after the end":      string(good) + "x\n",
		"cut in a row":       string(good[:len(header)+40]),
		"few fields":         row(`1,2,3`),
		"bad number":         row(`x,2,3,"f","pi","/p","i","t",` + t0 + `,false,{}`),
		"bad kind":           row(`1,2,3,"q","pi","/p","i","t",` + t0 + `,false,{}`),
		"unclosed string":    row(`1,2,3,"f","pi,"/p","i","t",` + t0 + `,false,{}`),
		"escaped close":      row(`1,2,3,"f","pi\","/p","i","t",` + t0 + `,false,{}`),
		"bad escape":         row(`1,2,3,"f","pi","/p\x","i","t",` + t0 + `,false,{}`),
		"bad time":           row(`1,2,3,"f","pi","/p","i","t","yesterday",false,{}`),
		"bad sidechain":      row(`1,2,3,"f","pi","/p","i","t",` + t0 + `,2,{}`),
		"brief with JSON":    row(`1,2,3,"b","pi","/p","i","t",` + t0 + `,false,{}`),
		"full without JSON":  row(`1,2,3,"f","pi","/p","i","t",` + t0 + `,false,null`),
		"empty path":         row(`1,2,3,"f","pi","","i","t",` + t0 + `,false,{}`),
		"no row end":         header + `[1,2,3,"f","pi","/p","i","t",` + t0 + `,false,{}` + "\n" + `null],"count":1}` + "\n",
		"binary":             "\x00\x01\x02\xff\n",
		"header only":        header,
		"huge count":         header + `null],"count":99999999999999999999}` + "\n",
		"negative end count": header + `null],"count":-1}` + "\n",
	}
	// The row form the cases above break is a real one.
	require.NoError(t, os.WriteFile(path, []byte(row(`1,2,3,"f","pi","/p\\\"","i","t",`+t0+`,false,{}`)), 0o600))
	c = LoadCache(path)
	require.Len(t, c.entries, 1)
	require.NotNil(t, c.entries[`/p\"`])
	for name, body := range cases {
		require.NoError(t, os.WriteFile(path, []byte(body), 0o600), name)
		c := LoadCache(path)
		assert.Empty(t, c.entries, name)
		assert.True(t, c.dirty, "%s: rewritten on the next Save", name)
		assert.Nil(t, c.Get(f, st, prov), name)
	}

	// A full row whose session JSON does not decode is a miss, dropped.
	bad := strings.Replace(string(good), `{"agent"`, `{"agent":1,"x"`, 1)
	require.NotEqual(t, string(good), bad)
	require.NoError(t, os.WriteFile(path, []byte(bad), 0o600))
	c = LoadCache(path)
	assert.Nil(t, c.Get(f, st, prov))
	assert.True(t, c.dirty)
	_, ok := c.Brief(f, st, prov)
	assert.False(t, ok, "the dropped row is gone for search too")
}

// A file larger than any cache of ours is not read.
func TestCacheTooBig(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a sparse file")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	fh, err := os.Create(path)
	require.NoError(t, err)
	_, err = fh.WriteString(cacheHeader() + "\n")
	require.NoError(t, err)
	require.NoError(t, fh.Truncate(maxCacheBytes+1))
	require.NoError(t, fh.Close())
	c := LoadCache(path)
	assert.Empty(t, c.entries)
	assert.True(t, c.dirty)
}
