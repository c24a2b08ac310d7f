package export_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	exportcmd "github.com/sessctl/sessctl/internal/cmd/export"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
)

// TestHTMLEmbedsTheSessionsImages: a pi session with a PNG in a user
// message and a tool result, an SVG and a reference to a missing blob;
// the HTML page embeds exactly the PNG bytes as data: URIs and describes
// the others; Markdown still only describes them.
func TestHTMLEmbedsTheSessionsImages(t *testing.T) {
	im := image.NewRGBA(image.Rect(0, 0, 4, 3))
	for i := range im.Pix {
		im.Pix[i] = 0xff
	}
	im.Set(1, 1, color.RGBA{255, 0, 0, 255})
	var pb bytes.Buffer
	png.Encode(&pb, im)
	b64 := base64.StdEncoding.EncodeToString(pb.Bytes())
	svg := base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
	session := strings.Join([]string{
		`{"type":"session","version":3,"id":"0199eeee-0000-7000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`,
		`{"type":"message","id":"e1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"see"},{"type":"image","data":"` + b64 + `","mimeType":"image/png"}],"timestamp":1767225601000}}`,
		`{"type":"message","id":"e2","parentId":"e1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"x.png"}}],"api":"a","provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1767225602000}}`,
		`{"type":"message","id":"e3","parentId":"e2","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"image","data":"` + b64 + `","mimeType":"image/png"},{"type":"image","data":"` + svg + `","mimeType":"image/svg+xml"},{"type":"image","data":"blob:sha256:` + strings.Repeat("ab", 32) + `","mimeType":"image/png"}],"isError":false,"timestamp":1767225603000}}`,
	}, "\n") + "\n"
	path := filepath.Join(t.TempDir(), "2026-01-01T00-00-00-000Z_0199eeee-0000-7000-8000-000000000001.jsonl")
	if err := os.WriteFile(path, []byte(session), 0o600); err != nil {
		t.Fatal(err)
	}
	f, st := cmdtest.Factory(t, nil)
	page, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, "--format", "html", path)
	if err != nil {
		t.Fatal(err)
	}
	srcs := regexp.MustCompile(`<img src="([^"]*)"`).FindAllStringSubmatch(page, -1)
	if len(srcs) != 2 {
		t.Fatalf("%d images embedded, want 2 (the PNGs):\n%s", len(srcs), page)
	}
	for _, s := range srcs {
		if s[1] != "data:image/png;base64,"+b64 {
			t.Fatalf("embedded %.80q, want the session's PNG", s[1])
		}
	}
	if strings.Contains(page, "svg+xml;base64") || strings.Contains(page, "PHN2Zy") || strings.Contains(page, "<script") {
		t.Fatal("the SVG reached the page")
	}
	if !strings.Contains(page, "[image image/svg+xml") || !strings.Contains(page, "blob:sha256:"+strings.Repeat("ab", 32)) {
		t.Fatalf("the SVG and the missing blob are not described:\n%s", page)
	}
	f, st = cmdtest.Factory(t, nil)
	md, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, "--format", "markdown", path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md, b64[:40]) {
		t.Fatal("Markdown holds image data; it describes images")
	}
}
