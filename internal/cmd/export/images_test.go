package export_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
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

// claudeImageSession writes a Claude Code session with a PNG in a user
// message, a PNG and an SVG in a tool result (base64 sources) and an image
// by URL (no bytes in the session).
func claudeImageSession(t *testing.T, red, blue []byte) string {
	t.Helper()
	svg := base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
	const sid = "c1a00000-0000-4000-8000-0000000000aa"
	rec := func(uuid, parent, typ, msg, ts string) string {
		p := `null`
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"type":"` + typ + `","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"` + sid + `","cwd":"/w","timestamp":"` + ts + `","message":` + msg + `}`
	}
	img := func(mime string, b64 string) string {
		return `{"type":"image","source":{"type":"base64","media_type":"` + mime + `","data":"` + b64 + `"}}`
	}
	lines := []string{
		rec("u1", "", "user", `{"role":"user","content":[{"type":"text","text":"look at this"},`+img("image/png", base64.StdEncoding.EncodeToString(red))+`]}`, "2026-01-01T00:00:01.000Z"),
		rec("a1", "u1", "assistant", `{"id":"m1","role":"assistant","model":"claude-x","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/w/b.png"}}]}`, "2026-01-01T00:00:02.000Z"),
		rec("u2", "a1", "user", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"the file"},`+img("image/png", base64.StdEncoding.EncodeToString(blue))+`,`+img("image/svg+xml", svg)+`]}]}`, "2026-01-01T00:00:03.000Z"),
		rec("a2", "u2", "assistant", `{"id":"m2","role":"assistant","model":"claude-x","content":[{"type":"text","text":"a blue square"},{"type":"image","source":{"type":"url","url":"https://example.com/x.png"}}]}`, "2026-01-01T00:00:04.000Z"),
	}
	path := filepath.Join(t.TempDir(), sid+".jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func pngOf(t *testing.T, w, h int, c color.RGBA) []byte {
	im := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			im.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, im); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestHTMLEmbedsClaudeImages: the HTML page of a Claude Code session
// embeds the PNGs of a user message and of a tool result (base64 in the
// session, read from the file) as data: URIs of exactly their bytes, in
// order; the SVG and the image given by URL are described; Markdown
// describes them all, and holds no image data.
func TestHTMLEmbedsClaudeImages(t *testing.T) {
	red, blue := pngOf(t, 40, 20, color.RGBA{255, 0, 0, 255}), pngOf(t, 20, 20, color.RGBA{0, 0, 255, 255})
	path := claudeImageSession(t, red, blue)
	f, st := cmdtest.Factory(t, nil)
	page, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, "--format", "html", path)
	if err != nil {
		t.Fatal(err)
	}
	srcs := regexp.MustCompile(`<img src="([^"]*)"`).FindAllStringSubmatch(page, -1)
	want := []string{"data:image/png;base64," + base64.StdEncoding.EncodeToString(red), "data:image/png;base64," + base64.StdEncoding.EncodeToString(blue)}
	if len(srcs) != len(want) {
		t.Fatalf("%d images embedded, want %d:\n%s", len(srcs), len(want), page)
	}
	for i, s := range srcs {
		if s[1] != want[i] {
			t.Fatalf("image %d: %.80q, want %.80q", i, s[1], want[i])
		}
	}
	if strings.Contains(page, "svg+xml;base64") || strings.Contains(page, "<script") || strings.Contains(page, "example.com") {
		t.Fatal("the SVG or the URL reached the page")
	}
	if !strings.Contains(page, `<p class="note">[image image/svg+xml`) || !strings.Contains(page, `<p class="note">[image ]`) {
		t.Fatalf("the SVG and the URL image are not described:\n%s", page)
	}
	f, st = cmdtest.Factory(t, nil)
	md, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(md, "*[image image/png") != 2 || strings.Contains(md, base64.StdEncoding.EncodeToString(red)[:30]) {
		t.Fatalf("markdown:\n%s", md)
	}
}

// openCodeImageStore writes an OpenCode JSON store with one session: a
// user message with a text part and image file parts whose url is a
// base64 data: URL (a PNG), an SVG data: URL, and an image by link.
func openCodeImageStore(t *testing.T, red []byte) string {
	t.Helper()
	dir := t.TempDir()
	const ses, msg = "ses_7fb0000000aaImageFixtXyz", "msg_0199f0000001ImageMsgOneA"
	files := map[string]string{
		"storage/migration":                            "2",
		"storage/project/global.json":                  `{"id":"global","worktree":"/","sandboxes":[],"time":{"created":1767225600000,"updated":1767225600000}}`,
		"storage/session/global/" + ses + ".json":      `{"id":"` + ses + `","slug":"img","version":"1.1.40","projectID":"global","directory":"/w","title":"Images","time":{"created":1767225600000,"updated":1767225605000}}`,
		"storage/message/" + ses + "/" + msg + ".json": `{"id":"` + msg + `","sessionID":"` + ses + `","role":"user","time":{"created":1767225601000},"agent":"build","model":{"providerID":"p","modelID":"m"}}`,
	}
	part := func(n int, body string) {
		id := fmt.Sprintf("prt_0199f000000%dImagePartOne", n)
		files["storage/part/"+msg+"/"+id+".json"] = `{"id":"` + id + `","sessionID":"` + ses + `","messageID":"` + msg + `",` + body + `}`
	}
	part(1, `"type":"text","text":"look"`)
	part(2, `"type":"file","mime":"image/png","filename":"red.png","url":"data:image/png;base64,`+base64.StdEncoding.EncodeToString(red)+`"`)
	part(3, `"type":"file","mime":"image/svg+xml","filename":"x.svg","url":"data:image/svg+xml;base64,`+base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))+`"`)
	part(4, `"type":"file","mime":"image/png","filename":"far.png","url":"https://example.com/far.png"`)
	for name, body := range files {
		p := filepath.Join(dir, "oc", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "oc") + "#" + ses
}

// TestHTMLEmbedsOpenCodeImages: the HTML page of an OpenCode session
// embeds the PNG of an image file part's data: URL as a data: URI of
// exactly its bytes; the SVG and the image by link are described;
// Markdown describes them all.
func TestHTMLEmbedsOpenCodeImages(t *testing.T) {
	red := pngOf(t, 30, 10, color.RGBA{255, 0, 0, 255})
	ref := openCodeImageStore(t, red)
	f, st := cmdtest.Factory(t, nil)
	page, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, "--format", "html", ref)
	if err != nil {
		t.Fatal(err)
	}
	srcs := regexp.MustCompile(`<img src="([^"]*)"`).FindAllStringSubmatch(page, -1)
	if len(srcs) != 1 || srcs[0][1] != "data:image/png;base64,"+base64.StdEncoding.EncodeToString(red) {
		t.Fatalf("want the PNG embedded once:\n%s", page)
	}
	if strings.Contains(page, "svg+xml;base64") || strings.Contains(page, "<script") || strings.Contains(page, "example.com") {
		t.Fatal("the SVG or the link reached the page")
	}
	if strings.Count(page, `<p class="note">[image image/`) != 2 {
		t.Fatalf("the SVG and the linked image are not described:\n%s", page)
	}
	f, st = cmdtest.Factory(t, nil)
	md, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, ref)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(md, "*[image image/") != 3 || strings.Contains(md, base64.StdEncoding.EncodeToString(red)[:30]) {
		t.Fatalf("markdown:\n%s", md)
	}
}
