package export

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/model"
)

// chromium finds Debian's headless-capable Chromium; the browser tests skip
// without it (CI needs only Go).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH (apt-get install chromium)")
	return ""
}

// dumpDOM loads a file in headless Chromium and returns the DOM after the
// page's scripts (if any could run) have run.
func dumpDOM(t *testing.T, bin, path string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=2000", "--dump-dom", "file://"+path)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	return out.String()
}

var titleRe = regexp.MustCompile(`<title>([^<]*)</title>`)

func pageTitle(dom string) string {
	if m := titleRe.FindStringSubmatch(dom); m != nil {
		return m[1]
	}
	return ""
}

const pwn = `document.title='PWNED';document.body.setAttribute('data-pwned','1')`

// TestBrowserRunsNothing exports a session full of script injections and
// javascript: links and loads it in headless Chromium: the title stays the
// session's and no injected element or attribute appears. Two controls
// show the check can fail: the same script in a plain page does run, and
// it does not run under the export's Content-Security-Policy even when
// put in the page as a real <script> (so escaping and CSP each hold alone).
func TestBrowserRunsNothing(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	attacks := []string{
		`<script>` + pwn + `</script>`,
		`<img src=x onerror="` + pwn + `">`,
		`<a href="javascript:` + pwn + `">click</a>`,
		`[click](javascript:` + pwn + `)`,
		`"><svg onload="` + pwn + `">`,
		`</pre></div></article><script>` + pwn + `</script>`,
		`<iframe srcdoc="<script>parent.` + pwn + `</script>"></iframe>`,
		`<meta http-equiv="refresh" content="0;url=javascript:` + pwn + `">`,
	}
	text := strings.Join(attacks, "\n")
	d := &Doc{Title: "safe title", Agent: "pi", ID: "s1", Header: []string{text},
		Messages: []model.Message{
			{ID: "a1", Role: "user", Blocks: []model.Block{{Kind: "text", Text: text}}},
			{ID: "a2", Role: "assistant", Blocks: []model.Block{{Kind: "thinking", Text: text}, {Kind: "toolCall", Name: text, Args: text}}},
			{ID: "a3", Role: "toolResult", Blocks: []model.Block{{Kind: "toolResult", Name: "bash", Text: strings.Repeat(text+"\n", 10)}}},
		},
		Tree: &model.Tree{Nodes: []model.TreeNode{{ID: "a1", Role: "user", Text: text, Children: []int{1}}, {ID: "a2", Role: "assistant", Text: text, Children: []int{2}}, {ID: "a3", Text: text}}, Roots: []int{0}, Leaf: 2, Active: []bool{true, true, true}},
	}
	var page bytes.Buffer
	if err := HTML(&page, d, Options{}); err != nil {
		t.Fatal(err)
	}
	exported := filepath.Join(dir, "export.html")
	os.WriteFile(exported, page.Bytes(), 0o600)
	dom := dumpDOM(t, bin, exported)
	if got := pageTitle(dom); got != "safe title" {
		t.Fatalf("title after load is %q: a script ran", got)
	}
	low := strings.ToLower(dom)
	if regexp.MustCompile(`<body[^>]*data-pwned`).MatchString(dom) || strings.Contains(low, "<iframe") || strings.Contains(low, "<svg") ||
		strings.Contains(low, "<script") || strings.Contains(low, "<img") || regexp.MustCompile(`<a\s[^>]*href="javascript`).MatchString(low) {
		t.Fatalf("injected markup in the DOM:\n%s", dom)
	}

	// Control 1: the same script in a plain page runs (the check works).
	plain := filepath.Join(dir, "plain.html")
	os.WriteFile(plain, []byte("<!DOCTYPE html><html><head><title>safe title</title></head><body><script>"+pwn+"</script></body></html>"), 0o600)
	if got := pageTitle(dumpDOM(t, bin, plain)); got != "PWNED" {
		t.Fatalf("control: a plain page's script did not run (title %q); the browser check proves nothing", got)
	}
	// Control 2: a real <script> in a page with the export's head does not
	// run: the Content-Security-Policy blocks it.
	withCSP := strings.Replace(page.String(), "<main>", "<main><script>"+pwn+"</script>", 1)
	csp := filepath.Join(dir, "csp.html")
	os.WriteFile(csp, []byte(withCSP), 0o600)
	if got := pageTitle(dumpDOM(t, bin, csp)); got != "safe title" {
		t.Fatalf("the Content-Security-Policy let an inline script run (title %q)", got)
	}
}

// screenshot loads a file in headless Chromium and returns its screenshot.
func screenshot(t *testing.T, bin, path string) image.Image {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	shot := filepath.Join(t.TempDir(), "shot.png")
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
		"--user-data-dir="+t.TempDir(), "--window-size=412,700", "--screenshot="+shot, "file://"+path)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	im, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return im
}

func redPixels(im image.Image) int {
	n := 0
	b := im.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := im.At(x, y).RGBA()
			if r>>8 > 200 && g>>8 < 60 && bl>>8 < 60 {
				n++
			}
		}
	}
	return n
}

// TestBrowserShowsEmbeddedImages: an embedded PNG (solid red, 80×50) is
// drawn by Chromium under the page's Content-Security-Policy (img-src
// data:), and the page without the image bytes draws no red at all.
func TestBrowserShowsEmbeddedImages(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	var pb bytes.Buffer
	png.Encode(&pb, solid(80, 50, color.RGBA{255, 0, 0, 255}))
	d := &Doc{Title: "image", Messages: []model.Message{{ID: "u1", Role: "user", Blocks: []model.Block{
		{Kind: "text", Text: "a red box:"}, {Kind: "image", MIME: "image/png", Size: int64(pb.Len())}}}}}
	page := func(imgs []Image) string {
		d.Images = imgs
		var b bytes.Buffer
		if err := HTML(&b, d, Options{}); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("p%d.html", len(imgs)))
		os.WriteFile(p, b.Bytes(), 0o600)
		return p
	}
	with := redPixels(screenshot(t, bin, page([]Image{{MIME: "image/png", Data: pb.Bytes()}})))
	without := redPixels(screenshot(t, bin, page(nil)))
	t.Logf("red pixels: %d with the embedded image, %d without", with, without)
	if with < 80*50/2 || without != 0 {
		t.Fatalf("red pixels: %d with the image (want about %d), %d without (want 0)", with, 80*50, without)
	}
	// the same image as Claude Code stores it (base64 in the session
	// file, embedded from there) and as OpenCode does (a data: URL)
	b64 := base64.StdEncoding.EncodeToString(pb.Bytes())
	for _, text := range []string{b64, "data:image/png;base64," + b64} {
		d.Messages[0].Blocks[1] = refBlock(t, text)
		fromFile := redPixels(screenshot(t, bin, page(nil)))
		t.Logf("red pixels: %d with the image read from the file (%.22s…)", fromFile, text)
		if fromFile < 80*50/2 {
			t.Fatalf("red pixels: %d with the image from the file (want about %d)", fromFile, 80*50)
		}
	}
}
