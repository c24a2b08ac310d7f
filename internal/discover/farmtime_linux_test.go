package discover

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// farFutureHome returns a home with one pi session whose file's mtime is in
// year 14645, on a file system that holds such a time (the test directory,
// else /dev/shm's tmpfs; ext4 stops at year 2446). os.Chtimes cannot set
// it (it goes through UnixNano, which ends in 2262).
func farFutureHome(t *testing.T) string {
	const far = 400000000000 // seconds: 14645-06-30
	for _, base := range []string{"", "/dev/shm"} {
		var home string
		if base == "" {
			home = t.TempDir()
		} else {
			d, err := os.MkdirTemp(base, "sessctl-farmtime-")
			if err != nil {
				continue
			}
			t.Cleanup(func() { os.RemoveAll(d) })
			home = d
		}
		dir := filepath.Join(home, ".pi", "agent", "sessions", "--x--")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "2026-01-01T00-00-00-000Z_s.jsonl")
		body := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}` + "\n"
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		ts := []unix.Timespec{{Sec: far}, {Sec: far}}
		if err := unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, 0); err != nil {
			continue
		}
		if st, err := os.Stat(p); err == nil && st.ModTime().Year() > 9999 {
			return home
		}
	}
	t.Skip("no file system here holds an mtime after year 9999")
	return ""
}

// TestFarFutureMTimeListed: a session file whose mtime lies after year 9999
// is listed with the last printable time as its mtime, instead of making
// list --json and the list cache fail for every session ("year outside of
// range [0,9999]"); the cached scan lists the same row.
func TestFarFutureMTimeListed(t *testing.T) {
	home := farFutureHome(t)
	env := envOf(map[string]string{"HOME": home})
	cache := filepath.Join(t.TempDir(), "c.json")
	first := Scan(Options{Env: env, Agents: []string{"pi"}, Cache: cache})
	if len(first.Warnings) != 0 || len(first.Sessions) != 1 {
		t.Fatalf("warnings %v, %d sessions", first.Warnings, len(first.Sessions))
	}
	last := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	s := first.Sessions[0]
	if !s.MTime.Equal(last) || !s.Modified.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("mtime %v, modified %v", s.MTime, s.Modified)
	}
	if _, err := json.Marshal(first.Sessions); err != nil {
		t.Fatal(err)
	}
	second := Scan(Options{Env: env, Agents: []string{"pi"}, Cache: cache})
	if len(second.Warnings) != 0 || second.Read != 0 {
		t.Fatalf("cached scan: warnings %v, read %d", second.Warnings, second.Read)
	}
	a, _ := json.Marshal(first.Sessions)
	b, _ := json.Marshal(second.Sessions)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("cached rows differ:\n%s\n%s", a, b)
	}
}
