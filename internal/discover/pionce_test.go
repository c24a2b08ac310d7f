package discover

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// sampleFiles lists every regular file below testdata/ and the shared corpus
// (skipped when absent).
func sampleFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, root := range []string{"../../testdata", "../../../shared/corpus"} {
		if _, err := os.Stat(root); err != nil {
			t.Logf("%s: %v (skipped)", root, err)
			continue
		}
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("no sample files")
	}
	return files
}

// oldPiInfoVerdict is piInfoVerdict as it was before the first line
// decided the format: the registry resolves the path first (a second open
// and a read of the head), then the file is opened for the pass.
func oldPiInfoVerdict(agent string) func(*sessfmt.Registry, string, os.FileInfo) (*Session, error) {
	info := piInfo(agent)
	return func(reg *sessfmt.Registry, path string, st os.FileInfo) (*Session, error) {
		ref, err := reg.Resolve(path)
		if err == nil && ref.Format == "pi" {
			sess, li, err := pi.OpenForList(ref, path)
			if err == nil && li != nil {
				if li.Modified.IsZero() {
					li.Modified = st.ModTime()
				}
				s := piSession(agent, path, st, li, nil)
				verdict(sess, s)
				return s, nil
			}
		}
		s, err := info(path, st)
		if err != nil {
			return nil, err
		}
		applyVerdict(reg, s)
		return s, nil
	}
}

// TestHeaderSaysPiAgreesWithResolve: over every sample file, a first line
// that headerSaysPi takes for pi is one the registry resolves to pi, and the
// listed row (with check's verdict and show's count) equals the row of the
// old order (Resolve, then the pass) for every agent of the pi family.
func TestHeaderSaysPiAgreesWithResolve(t *testing.T) {
	reg := newRegistry(envOf(map[string]string{"HOME": t.TempDir()}))
	files := sampleFiles(t)
	fast, resolvedPi, rows := 0, 0, 0
	for _, path := range files {
		st, err := os.Stat(path)
		if err != nil || st.Size() > 64<<20 {
			continue
		}
		ref, rerr := reg.Resolve(path)
		oldPi := rerr == nil && ref.Format == "pi"
		if oldPi {
			resolvedPi++
		}
		_, li, err := pi.OpenForList(sessfmt.Ref{Format: "pi", Path: path}, path)
		if err == nil && li != nil && headerSaysPi(reg, path, li.FirstLine()) {
			fast++
			if !oldPi {
				t.Errorf("%s: the first line says pi, Resolve says %q (%v)", path, ref.Format, rerr)
			}
		}
		for _, agent := range []string{"pi", "omp", "xcsh"} {
			a, aerr := oldPiInfoVerdict(agent)(reg, path, st)
			b, berr := piInfoVerdict(agent)(reg, nil, path, st)
			if (aerr == nil) != (berr == nil) || aerr != nil && aerr.Error() != berr.Error() {
				t.Errorf("%s as %s: error %v, was %v", path, agent, berr, aerr)
				continue
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s as %s: row\n%+v\nwas\n%+v", path, agent, b, a)
			}
			rows++
		}
	}
	t.Logf("%d files: %d resolved to pi, %d of them settled by the first line; %d rows compared", len(files), resolvedPi, fast, rows)
	if fast == 0 || fast > resolvedPi {
		t.Fatalf("first line settled %d files of %d pi files", fast, resolvedPi)
	}
}

// TestHeaderSaysPiRefuses: lines that must go to the registry.
func TestHeaderSaysPiRefuses(t *testing.T) {
	reg := newRegistry(envOf(map[string]string{"HOME": t.TempDir()}))
	header := `{"type":"session","version":3,"id":"abc","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}` + "\n"
	if !headerSaysPi(reg, "/h/.pi/agent/sessions/x/a.jsonl", []byte(header)) {
		t.Fatal("a pi header is not taken")
	}
	for name, c := range map[string]struct{ path, line string }{
		"no line":       {"/a.jsonl", ""},
		"hash in path":  {"/s/db.sqlite#x.jsonl", header},
		"info member":   {"/a.jsonl", `{"type":"session","id":"abc","info":{"id":"ses_1"}}` + "\n"},
		"escaped key":   {"/a.jsonl", `{"type":"session","id":"abc","\u0069nfo":{"id":"ses_1"}}` + "\n"},
		"id not string": {"/a.jsonl", `{"type":"session","id":1}` + "\n"},
		"entry line":    {"/a.jsonl", `{"type":"message","id":"a1","parentId":null}` + "\n"},
		"claude line":   {"/a.jsonl", `{"type":"user","uuid":"u","sessionId":"s","cwd":"/"}` + "\n"},
	} {
		var line []byte
		if c.line != "" {
			line = []byte(c.line)
		}
		if headerSaysPi(reg, c.path, line) {
			t.Errorf("%s: taken for pi without the registry", name)
		}
	}
}
