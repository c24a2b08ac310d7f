package agentlock

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// isolateLeaseEnv points every directory leaseDirs consults at a fresh
// temporary home and returns it.
func isolateLeaseEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	for _, k := range []string{"PI_CONFIG_DIR", "XDG_STATE_HOME", "OMP_PROFILE", "PI_PROFILE"} {
		t.Setenv(k, "")
	}
	return home
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestHeaderID(t *testing.T) {
	dir := t.TempDir()
	slot := `{"type":"title","v":1,"title":"t","pad":"   "}`
	cases := []struct {
		name, content, id string
		ok                bool
	}{
		{"plain", `{"type":"session","version":3,"id":"0190a3c4-1111-7222-8333-444455556666","cwd":"/x"}` + "\n{}\n", "0190a3c4-1111-7222-8333-444455556666", true},
		{"id first, nested values", `{"id":"abc","extra":{"id":"no","l":[1,{"a":[]}]},"type":"session"}`, "abc", true},
		{"title slot", slot + "\n" + `{"type":"session","id":"s1"}` + "\n", "s1", true},
		{"last id wins", `{"type":"session","id":"a","id":"b"}`, "b", true},
		{"id not a string", `{"type":"session","id":7}`, "", false},
		{"id an object", `{"type":"session","id":{"x":"y"}}`, "", false},
		{"not a session", `{"type":"message","id":"m1"}`, "", false},
		{"claude line", `{"type":"user","sessionId":"u"}`, "", false},
		{"two slots", slot + "\n" + slot + "\n", "", false},
		{"not json", "hello\n", "", false},
		{"empty", "", "", false},
		{"truncated header", `{"type":"session","id":"a"`, "", false},
	}
	for _, c := range cases {
		f := writeFile(t, filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".jsonl"), c.content)
		id, ok, err := headerID(f)
		if err != nil || ok != c.ok || id != c.id {
			t.Errorf("%s: headerID = %q %v %v, want %q %v", c.name, id, ok, err, c.id, c.ok)
		}
	}
	if _, ok, err := headerID(filepath.Join(dir, "missing.jsonl")); ok || err != nil {
		t.Errorf("missing file: %v %v", ok, err)
	}
}

// A header value of many megabytes is walked token by token.
func TestHeaderIDLargeValue(t *testing.T) {
	big := strings.Repeat("x", 8<<20)
	f := writeFile(t, filepath.Join(t.TempDir(), "big.jsonl"), `{"type":"session","cwd":"`+big+`","id":"late"}`+"\n")
	if id, ok, err := headerID(f); err != nil || !ok || id != "late" {
		t.Fatalf("headerID = %q %v %v", id, ok, err)
	}
}

func TestSessionIDs(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, filepath.Join(dir, "2026-01-01T00-00-00-000Z_name-id.jsonl"), `{"type":"session","id":"head-id"}`)
	if got, _ := sessionIDs(f); !slices.Equal(got, []string{"head-id", "name-id"}) {
		t.Errorf("sessionIDs = %q", got)
	}
	f = writeFile(t, filepath.Join(dir, "2026-01-01T00-00-00-000Z_same.jsonl"), `{"type":"session","id":"same"}`)
	if got, _ := sessionIDs(f); !slices.Equal(got, []string{"same"}) {
		t.Errorf("sessionIDs = %q", got)
	}
	// A name whose tail is no plain token gives no id of its own.
	f = writeFile(t, filepath.Join(dir, "my notes_v 2.jsonl"), `{"type":"user"}`)
	if got, _ := sessionIDs(f); len(got) != 0 {
		t.Errorf("sessionIDs = %q", got)
	}
}

func TestLeaseDirs(t *testing.T) {
	home := isolateLeaseEnv(t)
	t.Setenv("PI_CONFIG_DIR", ".custom")
	t.Setenv("OMP_PROFILE", "work")
	xdg := filepath.Join(home, "state")
	t.Setenv("XDG_STATE_HOME", xdg)
	f := filepath.Join(home, "elsewhere", "agent", "sessions", "-p", "s.jsonl")
	got := leaseDirs(f)
	want := []string{
		filepath.Join(home, "elsewhere", "run", "session-owners"),
		filepath.Join(home, ".custom", "run", "session-owners"),
		filepath.Join(home, ".custom", "profiles", "work", "run", "session-owners"),
		filepath.Join(home, ".omp", "run", "session-owners"),
		filepath.Join(home, ".omp", "profiles", "work", "run", "session-owners"),
		filepath.Join(home, ".xcsh", "run", "session-owners"),
		filepath.Join(home, ".xcsh", "profiles", "work", "run", "session-owners"),
		filepath.Join(xdg, "omp", "run", "session-owners"),
		filepath.Join(xdg, "omp", "profiles", "work", "run", "session-owners"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("leaseDirs =\n%q\nwant\n%q", got, want)
	}
	// A profile name that could leave the profiles folder is ignored.
	t.Setenv("OMP_PROFILE", "../x")
	for _, d := range leaseDirs(f) {
		if strings.Contains(d, "..") {
			t.Errorf("leaseDirs kept %q", d)
		}
	}
}

// An id omp would hash (not [A-Za-z0-9_-]{1,128}) cannot be probed: the
// lease counts as held and writes refuse.
func TestLeaseUnprobeableIDFailsClosed(t *testing.T) {
	isolateLeaseEnv(t)
	f := writeFile(t, filepath.Join(t.TempDir(), "s.jsonl"), `{"type":"session","id":"has space"}`+"\n")
	locks, err := Inspect(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(locks) != 1 || locks[0].Kind != OMPLease || !locks[0].Live || locks[0].Reasons[0] != "unprobeable-id" {
		t.Fatalf("Inspect = %+v", locks)
	}
	if _, err := CheckFree(f, 0); err == nil {
		t.Fatal("CheckFree accepted an unprobeable lease")
	}
	if g, err := Acquire(f, Options{Wait: -1}); err == nil {
		g.Release()
		t.Fatal("Acquire accepted an unprobeable lease")
	}
}
