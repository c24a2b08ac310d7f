package list_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pi message timestamped in year 10000 (253402300800000 ms, a valid JS
// Date) is not a time list can print: it must not make `list --json` fail
// for every session nor keep the cache from being written. The session is
// listed with the time of its other activity.
func TestListFarFutureTimestamp(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	dir := filepath.Join(home, ".pi", "agent", "sessions", "--home-u-future--")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	const id = "future00-0000-7000-8000-000000000000"
	body := `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-02-01T00:00:00.000Z","cwd":"/home/u/future"}
{"type":"message","id":"f0000001","parentId":null,"timestamp":"2026-02-01T00:00:05.000Z","message":{"role":"user","content":"hello","timestamp":1769904005000}}
{"type":"message","id":"f0000002","parentId":"f0000001","timestamp":"2026-02-01T00:00:06.000Z","message":{"role":"assistant","content":[{"type":"text","text":"far"}],"timestamp":253402300800000}}
{"type":"message","id":"f0000003","parentId":"f0000002","timestamp":"2026-02-01T00:00:07.000Z","message":{"role":"user","content":"beyond JS","timestamp":9e15}}
`
	p := filepath.Join(dir, "2026-02-01T00-00-00-000Z_"+id+".jsonl")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o644))

	// RFC 3339 texts whose offset moves year 9999 to 10000 in UTC: a pi
	// header and a Claude Code entry.
	const tzID = "futuretz-0000-7000-8000-000000000000"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2026-02-02T00-00-00-000Z_"+tzID+".jsonl"),
		[]byte(`{"type":"session","version":3,"id":"`+tzID+`","timestamp":"9999-12-31T23:00:00-05:00","cwd":"/home/u/future"}`+"\n"), 0o644))
	cdir := filepath.Join(home, ".claude", "projects", "-home-u-future")
	require.NoError(t, os.MkdirAll(cdir, 0o755))
	const cID = "11111111-1111-4111-8111-11111111f001"
	require.NoError(t, os.WriteFile(filepath.Join(cdir, cID+".jsonl"),
		[]byte(`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"`+cID+`","timestamp":"9999-12-31T23:00:00-05:00","cwd":"/home/u/future","message":{"role":"user","content":"hi"}}`+"\n"), 0o644))

	rows, r := listJSON(t, e)
	assert.Len(t, rows, len(fixtureRows)+3, "every session is listed")
	for _, r := range rows {
		if r.ID == tzID || r.ID == cID {
			assert.Nil(t, r.Created, r.ID)
		}
	}
	var got *row
	for i := range rows {
		if rows[i].ID == id {
			got = &rows[i]
		}
	}
	require.NotNil(t, got, r.out)
	assert.Equal(t, ts("2026-02-01T00:00:05.000Z"), got.Modified, "the printable activity is Modified")
	cache := filepath.Join(e["XDG_CACHE_HOME"], "sessctl", "list-cache.json")
	b, err := os.ReadFile(cache)
	require.NoError(t, err, "the cache is written")
	assert.True(t, json.Valid(b))
	again, _ := listJSON(t, e)
	assert.Equal(t, rows, again, "the cached answer is the same")
	human := run(t, e, false, "list")
	assert.Equal(t, 0, human.code, human.err)
	assert.Contains(t, human.out, "future")
}
