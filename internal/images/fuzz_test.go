package images

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSafeID: whatever an entry id holds, the file name built from it is a
// plain local name of allowed bytes (nothing can lead out of the folder).
func FuzzSafeID(f *testing.F) {
	for _, s := range []string{"4fe6304b", "../../etc/passwd", "/abs", "a\x00b", "é\u202e", "", "..", strings.Repeat("x", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		s := safeID(id)
		if s == "" || len(s) > 64 {
			t.Fatalf("safeID(%q) = %q", id, s)
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
				t.Fatalf("safeID(%q) = %q has %q", id, s, c)
			}
		}
		name := "1-" + s + ".png"
		if !filepath.IsLocal(name) || filepath.Base(name) != name {
			t.Fatalf("name %q is not a plain local name", name)
		}
	})
}

// FuzzFind: any message bytes are handled without panicking, and every
// image found came from an object with "type":"image".
func FuzzFind(f *testing.F) {
	f.Add([]byte(`{"role":"user","content":[{"type":"image","data":"blob:sha256:00","mimeType":"image/png"}]}`))
	f.Add([]byte(`{"role":"toolResult","content":[{"type":"text","text":"image"},{"type":"image","data":"aGk="}]}`))
	f.Add([]byte(`{"role":"user","content":"image"}`))
	f.Add([]byte(`[1,2,"image"]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		ims := Find(json.RawMessage(raw))
		if len(ims) > 0 && !strings.Contains(string(raw), `"image"`) {
			t.Fatalf("found %d images in %q", len(ims), raw)
		}
		for _, im := range ims {
			_, _ = im.Bytes("")
		}
	})
}
