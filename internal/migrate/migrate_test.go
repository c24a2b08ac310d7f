package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/killtest"
	"github.com/sessctl/sessctl/internal/safewrite"
)

// seqIDs returns a NewID that yields ids in order, then "id000001"….
func seqIDs(ids ...string) func() string {
	n := 0
	return func() string {
		if n < len(ids) {
			n++
			return ids[n-1]
		}
		n++
		return fmt.Sprintf("id%06d", n)
	}
}

func run(t *testing.T, in string, opts Options) (string, Summary) {
	t.Helper()
	out, sum, err := Lines(splitLines([]byte(in)), opts)
	if err != nil {
		t.Fatal(err)
	}
	return string(bytes.Join(out, nil)), sum
}

func TestExactBytes(t *testing.T) {
	in := `{"type":"session","id":"s1","cwd":"/x"}` + "\n" +
		`{"type":"message","message":{"role":"user","content":"hi"}}` + "\n" +
		`{ "type" : "compaction", "summary":"s", "firstKeptEntryIndex" : 1, "firstKeptEntryId":"zzz", "tokensBefore":5 }` + "\r\n" +
		"\n" +
		"garbage {\n" +
		`{"type":"message","message":{"role":"hookMessage","content":"h"},"id":"stale"}`
	want := `{"type":"session","id":"s1","cwd":"/x","version":3}` + "\n" +
		`{"type":"message","message":{"role":"user","content":"hi"},"id":"aaaaaaaa","parentId":null}` + "\n" +
		`{ "type" : "compaction", "summary":"s", "firstKeptEntryId":"aaaaaaaa", "tokensBefore":5,"id":"bbbbbbbb","parentId":"aaaaaaaa" }` + "\r\n" +
		"\n" +
		"garbage {\n" +
		`{"type":"message","message":{"role":"custom","content":"h"},"id":"cccccccc","parentId":"bbbbbbbb"}`
	got, sum := run(t, in, Options{NewID: seqIDs("aaaaaaaa", "bbbbbbbb", "stale", "s1", "cccccccc")})
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	wantSum := Summary{FromVersion: 1, ToVersion: 3, Needed: true, Lines: 6, LinesChanged: 4, EntriesReIDed: 3,
		CompactionsMapped: 1, RolesRenamed: 1, HeadersUpdated: 1, KeptUnparsed: 1, IDCollisionsAvoided: 2}
	sum.Warnings = nil
	if !reflect.DeepEqual(sum, wantSum) {
		t.Errorf("summary\n%+v\nwant\n%+v", sum, wantSum)
	}
}

func TestVersions(t *testing.T) {
	body := "\n" + `{"type":"message","id":"m1","parentId":null,"message":{"role":"hookMessage"}}` + "\n"
	cases := []struct {
		version string // raw JSON, "" = absent
		want    string // header after migration ("" = unchanged)
		v1      bool   // ids assigned
		renamed bool
	}{
		{``, `"version":3`, true, true},
		{`null`, `"version":3`, true, true},
		{`1`, `"version":3`, true, true},
		{`0`, `"version":3`, true, true},
		{`2`, `"version":3`, false, true},
		{`"2"`, `"version":3`, false, true},
		{`2.5`, `"version":3`, false, true},
		{`" 1 "`, `"version":3`, true, true},
		{`true`, `"version":3`, true, true},
		{`3`, ``, false, false},
		{`4`, ``, false, false},
		{`"abc"`, ``, false, false},
		{`{}`, ``, false, false},
	}
	for _, c := range cases {
		head := `{"type":"session","id":"s"`
		if c.version != "" {
			head += `,"version":` + c.version
		}
		head += `}`
		got, sum := run(t, head+body, Options{NewID: seqIDs("aaaaaaaa")})
		gotHead, gotBody, _ := strings.Cut(got, "\n")
		if c.want == "" {
			if got != head+body || sum.Needed {
				t.Errorf("version %s: changed: %q %+v", c.version, got, sum)
			}
			continue
		}
		wantHead := `{"type":"session","id":"s","version":3}`
		if gotHead != wantHead {
			t.Errorf("version %s: header %s", c.version, gotHead)
		}
		if got := strings.Contains(gotBody, `"id":"aaaaaaaa"`); got != c.v1 {
			t.Errorf("version %s: v1 ids %v, want %v: %s", c.version, got, c.v1, gotBody)
		}
		if got := strings.Contains(gotBody, `"role":"custom"`); got != c.renamed {
			t.Errorf("version %s: renamed %v", c.version, got)
		}
	}
}

func TestFirstKeptEntryIndexEdges(t *testing.T) {
	head := `{"type":"session","id":"s"}` + "\n"
	user := `{"type":"message","message":{"role":"user","content":"q"}}` + "\n"
	comp := func(idx string) string {
		return `{"type":"compaction","summary":"s","firstKeptEntryId":"keep?","firstKeptEntryIndex":` + idx + `}` + "\n"
	}
	cases := []struct {
		name, in, want string // want: the compaction line's tail after "summary":"s"
	}{
		{"earlier", head + user + comp("1"), `,"firstKeptEntryId":"id000001","id":"id000002","parentId":"id000001"}`},
		{"header", head + user + comp("0"), `,"firstKeptEntryId":"keep?","id":"id000002","parentId":"id000001"}`},
		{"self", head + user + comp("2"), `,"firstKeptEntryId":"id000002","id":"id000002","parentId":"id000001"}`},
		{"fraction", head + user + comp("1.5"), `,"firstKeptEntryId":"keep?","id":"id000002","parentId":"id000001"}`},
		{"exp-notation", head + user + comp("1e0"), `,"firstKeptEntryId":"id000001","id":"id000002","parentId":"id000001"}`},
		{"negative", head + user + comp("-1"), `,"firstKeptEntryId":"keep?","id":"id000002","parentId":"id000001"}`},
		{"out of range", head + user + comp("9"), `,"firstKeptEntryId":"keep?","id":"id000002","parentId":"id000001"}`},
		// A later entry without an id: JavaScript assigns undefined, which
		// removes the key on stringify.
		{"later no id", head + user + comp("3") + user, `,"id":"id000002","parentId":"id000001"}`},
		{"later with id", head + user + comp("3") + `{"type":"x","id":"old1"}` + "\n", `,"firstKeptEntryId":"old1","id":"id000002","parentId":"id000001"}`},
		// Non-object targets: a truthy one (42) gives undefined, a falsy
		// one (0) gives no assignment at all.
		{"truthy non-object", head + "42\n" + comp("1"), `,"id":"id000001","parentId":null}`},
		{"falsy non-object", head + "0\n" + comp("1"), `,"firstKeptEntryId":"keep?","id":"id000001","parentId":null}`},
		{"string index", head + user + comp(`"1"`), `,"firstKeptEntryId":"keep?","firstKeptEntryIndex":"1","id":"id000002","parentId":"id000001"}`},
		{"null index", head + user + comp(`null`), `,"firstKeptEntryId":"keep?","firstKeptEntryIndex":null,"id":"id000002","parentId":"id000001"}`},
		// Blank and garbage lines do not count.
		{"garbage skipped", head + "\nnot json\n" + user + comp("1"), `,"firstKeptEntryId":"id000001","id":"id000002","parentId":"id000001"}`},
	}
	for _, c := range cases {
		got, _ := run(t, c.in, Options{NewID: seqIDs()})
		var line string
		for _, l := range strings.Split(got, "\n") {
			if strings.Contains(l, `"compaction"`) {
				line = l
			}
		}
		tail := strings.TrimPrefix(line, `{"type":"compaction","summary":"s"`)
		if tail != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, tail, c.want)
		}
	}
}

func TestHeaderRules(t *testing.T) {
	v1 := `{"type":"message","message":{"role":"user"}}` + "\n"
	for _, in := range []string{
		"",
		"\n\n",
		v1 + `{"type":"session","id":"s"}` + "\n",
		`{"type":"session","id":5}` + "\n" + v1,
		`{"type":"session"}` + "\n" + v1,
		"42\n" + `{"type":"session","id":"s"}` + "\n",
	} {
		if _, _, err := Lines(splitLines([]byte(in)), Options{}); !errors.Is(err, ErrNoHeader) {
			t.Errorf("%q: err = %v", in, err)
		}
	}
	// Garbage and blank lines before the header are fine (pi skips them),
	// and a leading BOM is kept.
	in := "\ufeff" + `{"type":"session","id":"s"}` + "\n" + v1
	got, _ := run(t, "garbage\n\n"+strings.TrimPrefix(in, "\ufeff"), Options{NewID: seqIDs()})
	if !strings.HasPrefix(got, "garbage\n\n"+`{"type":"session","id":"s","version":3}`+"\n") {
		t.Errorf("got %q", got)
	}
	// A BOM only counts at the very start of the file (pi trims the whole
	// content); after a garbage line it makes the header unparseable.
	if _, _, err := Lines(splitLines([]byte("garbage\n"+in)), Options{}); !errors.Is(err, ErrNoHeader) {
		t.Errorf("BOM after garbage: %v", err)
	}
	got, _ = run(t, in, Options{NewID: seqIDs()})
	if !strings.HasPrefix(got, "\ufeff"+`{"type":"session","id":"s","version":3}`) {
		t.Errorf("BOM: got %q", got)
	}
	// omp title slot before the header.
	slot := `{"type":"title","v":1,"title":"t","updatedAt":"x","pad":"  "}` + "\n"
	got, sum := run(t, slot+`{"type":"session","id":"s","version":2}`+"\n"+`{"type":"message","message":{"role":"hookMessage"},"id":"a","parentId":null}`+"\n", Options{})
	if !strings.HasPrefix(got, slot) || !strings.Contains(got, `"role":"custom"`) || sum.HeadersUpdated != 1 {
		t.Errorf("title slot: %q %+v", got, sum)
	}
}

func TestSecondSessionLineAndNonObjects(t *testing.T) {
	in := `{"type":"session","id":"s"}` + "\n" +
		`{"type":"message","message":{"role":"user"}}` + "\n" +
		`[1,2]` + "\n" +
		`{"type":"session","id":"other"}` + "\n" +
		`{"type":"message","message":{"role":"user"}}` + "\n"
	got, sum := run(t, in, Options{NewID: seqIDs()})
	want := `{"type":"session","id":"s","version":3}` + "\n" +
		`{"type":"message","message":{"role":"user"},"id":"id000001","parentId":null}` + "\n" +
		`[1,2]` + "\n" +
		`{"type":"session","id":"other","version":3}` + "\n" +
		`{"type":"message","message":{"role":"user"},"id":"id000002","parentId":"id000001"}` + "\n"
	if got != want {
		t.Fatalf("got\n%s", got)
	}
	if sum.KeptNonObject != 1 || sum.HeadersUpdated != 2 || len(sum.Warnings) != 1 {
		t.Errorf("summary %+v", sum)
	}
}

func TestRandomIDsShapeAndUniqueness(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"session","id":"s"}` + "\n")
	for range 5000 {
		b.WriteString(`{"type":"message","message":{"role":"user"}}` + "\n")
	}
	got, sum := run(t, b.String(), Options{})
	ids := regexp.MustCompile(`"id":"([^"]*)"`).FindAllStringSubmatch(got, -1)
	seen := map[string]bool{}
	shape := regexp.MustCompile(`^[0-9a-f]{8}$`)
	for _, m := range ids[1:] {
		if !shape.MatchString(m[1]) {
			t.Fatalf("id %q is not 8 lowercase hex", m[1])
		}
		if seen[m[1]] {
			t.Fatalf("duplicate id %s", m[1])
		}
		seen[m[1]] = true
	}
	if len(seen) != 5000 || sum.EntriesReIDed != 5000 {
		t.Fatalf("%d ids, summary %+v", len(seen), sum)
	}
	// A generator that only repeats falls back to a full UUID, as pi does.
	got, sum = run(t, `{"type":"session","id":"s"}`+"\n"+`{"type":"a"}`+"\n"+`{"type":"b"}`+"\n", Options{NewID: func() string { return "deadbeef" }})
	if !strings.Contains(got, `"id":"deadbeef"`) || sum.IDCollisionsAvoided != 100 ||
		!regexp.MustCompile(`"id":"[0-9a-f-]{36}"`).MatchString(got) {
		t.Errorf("fallback: %s %+v", got, sum)
	}
}

func TestPassMismatch(t *testing.T) {
	m := New(Options{})
	m.Observe([]byte(`{"type":"session","id":"s"}` + "\n"))
	if _, err := m.Plan(); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Line([]byte(`{"type":"session","id":"s"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Line([]byte("{}\n")); err == nil {
		t.Errorf("extra line in pass 2 accepted")
	}
}

func writeV1(t *testing.T, path string, entries int) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`{"type":"session","id":"big","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/x"}` + "\n")
	for i := range entries {
		fmt.Fprintf(&b, `{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"msg %d %s"}}`+"\n", i, strings.Repeat("p", 300))
		if i%1000 == 999 {
			fmt.Fprintf(&b, `{"type":"compaction","summary":"c","firstKeptEntryIndex":%d,"tokensBefore":1}`+"\n", i)
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o640); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	old := writeV1(t, p, 50)
	// Dry run: nothing changes.
	res, err := File(p, FileOptions{Write: safewrite.Options{DryRun: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Summary.Needed || res.Write == nil || !res.Write.DryRun || !bytes.Equal(mustRead(t, p), old) {
		t.Fatalf("dry run: %+v", res)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("dry run created files")
	}
	res, err = File(p, FileOptions{Migrate: Options{NewID: seqIDs()}})
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := Lines(splitLines(old), Options{NewID: seqIDs()})
	if got := mustRead(t, p); !bytes.Equal(got, bytes.Join(want, nil)) {
		t.Fatalf("File and Lines disagree")
	}
	if res.Write == nil || res.Write.Backup == "" || !bytes.Equal(mustRead(t, res.Write.Backup), old) {
		t.Fatalf("backup: %+v", res.Write)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode())
	}
	// Again: a no-op, nothing written.
	res, err = File(p, FileOptions{})
	if err != nil || res.Summary.Needed || res.Write != nil {
		t.Fatalf("second run: %+v %v", res, err)
	}
}

// TestFileCrashSafety kills a process running File (SIGKILL) at random
// moments: the file is always the complete old or the complete new version.
func TestFileCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("crash harness skipped with -short")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "big.jsonl")
	old := writeV1(t, p, 10000)
	newLines, _, _ := Lines(splitLines(old), Options{NewID: seqIDs()})
	newC := bytes.Join(newLines, nil)
	start := time.Now()
	if out, err := migrateHelper(p).CombinedOutput(); err != nil {
		t.Fatalf("calibration: %v %s", err, out)
	}
	full := time.Since(start)
	if !bytes.Equal(mustRead(t, p), newC) {
		t.Fatal("calibration run produced unexpected content")
	}
	seed := time.Now().UnixNano()
	t.Logf("full run %v, %d MiB, seed %d", full, len(old)>>20, seed)
	kills := killtest.New(full, uint64(seed))
	for i := 0; kills.More(50, 200); i++ {
		os.WriteFile(p, old, 0o640)
		cmd := migrateHelper(p)
		cmd.Start()
		delay := kills.Delay()
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		got := mustRead(t, p)
		switch {
		case bytes.Equal(got, old):
			kills.Saw(false)
		case bytes.Equal(got, newC):
			kills.Saw(true)
		default:
			t.Fatalf("round %d (kill after %v): neither old nor new", i, delay)
		}
		es, _ := os.ReadDir(dir)
		for _, e := range es {
			n := e.Name()
			switch {
			case n == "big.jsonl", n == ".big.jsonl.lock":
			case strings.HasSuffix(n, ".bak"):
				if !bytes.Equal(mustRead(t, filepath.Join(dir, n)), old) {
					t.Fatalf("round %d: incomplete backup %s", i, n)
				}
				os.Remove(filepath.Join(dir, n))
			case strings.HasPrefix(n, ".big.jsonl.sessctl-") && strings.HasSuffix(n, ".tmp"):
				os.Remove(filepath.Join(dir, n))
			default:
				t.Fatalf("round %d: unexpected file %s", i, n)
			}
		}
		os.Remove(filepath.Join(dir, ".big.jsonl.lock")) // the dead helper's
	}
	t.Logf("%d kills: %d old, %d new (kill window at the end %v)", kills.Old+kills.New, kills.Old, kills.New, kills.Max())
	if !kills.Covered() {
		t.Errorf("kills did not land on both sides of the commit (old=%d new=%d)", kills.Old, kills.New)
	}
}

func migrateHelper(p string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MIGRATE_HELPER="+p)
	return cmd
}

func TestMain(m *testing.M) {
	if p := os.Getenv("MIGRATE_HELPER"); p != "" {
		if _, err := File(p, FileOptions{Migrate: Options{NewID: seqIDs()}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// FuzzMigrate: any input either has no header (ErrNoHeader, nothing
// produced) or migrates to the same number of lines, keeps every line that
// is not an object byte for byte, and a second migration is a no-op.
func FuzzMigrate(f *testing.F) {
	f.Add([]byte(`{"type":"session","id":"s"}` + "\n" + `{"type":"message","message":{"role":"hookMessage"}}` + "\n" + `{"type":"compaction","firstKeptEntryIndex":1}` + "\n"))
	f.Add([]byte(`{"type":"session","id":"s","version":2}` + "\r\n" + "garbage\n\n42\n" + `{"type":"message","id":"a","parentId":null,"message":{"role":"hookMessage"}}`))
	f.Add([]byte("\ufeff" + `{"type":"session","id":"s","version":"1"}` + "\n" + `{"type":"compaction","firstKeptEntryIndex":-0,"firstKeptEntryId":1}` + "\n"))
	if ins, _ := filepath.Glob(filepath.Join(fixtures, "v*.jsonl")); len(ins) > 0 {
		for _, in := range ins[:min(len(ins), 6)] {
			if b, err := os.ReadFile(in); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := splitLines(data)
		out, sum, err := Lines(in, Options{})
		if errors.Is(err, ErrNoHeader) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != len(in) {
			t.Fatalf("%d lines in, %d out", len(in), len(out))
		}
		for i := range in {
			if firstByte(bytes.TrimPrefix(in[i], []byte("\ufeff"))) != '{' && !bytes.Equal(in[i], out[i]) {
				t.Fatalf("non-object line %d changed: %q → %q", i, in[i], out[i])
			}
			if !bytes.Equal(in[i], out[i]) && !bytes.HasSuffix(out[i], trailingWS(in[i])) {
				t.Fatalf("line %d lost its terminator", i)
			}
		}
		again, sum2, err := Lines(out, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sum2.Needed && sum.Needed {
			t.Fatalf("second migration still needed: %+v", sum2)
		}
		if sum.Needed && !bytes.Equal(bytes.Join(again, nil), bytes.Join(out, nil)) {
			t.Fatalf("second migration changed bytes")
		}
	})
}

func trailingWS(b []byte) []byte {
	i := len(b)
	for i > 0 && (b[i-1] == '\n' || b[i-1] == '\r' || b[i-1] == ' ' || b[i-1] == '\t') {
		i--
	}
	return b[i:]
}

func TestFileV3IsNotTouched(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	content := `{"type":"session","id":"s","version":3}` + "\n" + `{"type":"message","id":"a","parentId":null,"message":{"role":"hookMessage"}}` + "\n"
	os.WriteFile(p, []byte(content), 0o600)
	past := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(p, past, past)
	res, err := File(p, FileOptions{})
	if err != nil || res.Summary.Needed || res.Write != nil {
		t.Fatalf("%+v %v", res, err)
	}
	fi, _ := os.Stat(p)
	es, _ := os.ReadDir(dir)
	if !fi.ModTime().Equal(past) || len(es) != 1 || string(mustRead(t, p)) != content {
		t.Fatalf("a v3 file was touched")
	}
	// A file without a header is refused and untouched.
	os.WriteFile(p, []byte("garbage\n"), 0o600)
	if _, err := File(p, FileOptions{}); !errors.Is(err, ErrNoHeader) {
		t.Fatalf("no header: %v", err)
	}
}
