package export

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/model"
)

// solid returns a w×h image of one colour.
func solid(w, h int, c color.Color) image.Image {
	im := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			im.Set(x, y, c)
		}
	}
	return im
}

func encoded(t *testing.T, format string, im image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, im)
	case "jpeg":
		err = jpeg.Encode(&b, im, nil)
	case "gif":
		err = gif.Encode(&b, im, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// webp is a minimal lossless WebP file header (enough for the sniffer).
var webp = []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00")

const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>`

func TestSniffImageAllowList(t *testing.T) {
	red := solid(2, 2, color.RGBA{255, 0, 0, 255})
	for _, c := range []struct {
		b    []byte
		want string
	}{
		{encoded(t, "png", red), "image/png"},
		{encoded(t, "jpeg", red), "image/jpeg"},
		{encoded(t, "gif", red), "image/gif"},
		{webp, "image/webp"},
		{[]byte(svg), ""},
		{[]byte(`<?xml version="1.0"?>` + svg), ""},
		{[]byte("<html><script>alert(1)</script></html>"), ""},
		{[]byte("BM\x00\x00"), ""}, // BMP: a browser could show it, but it is not on the list
		{nil, ""},
	} {
		if got := SniffImage(c.b); got != c.want {
			t.Errorf("SniffImage(%.20q) = %q, want %q", c.b, got, c.want)
		}
	}
}

var imgRe = regexp.MustCompile(`<img src="([^"]*)" alt="([^"]*)">`)

// TestHTMLEmbedsOnlyAllowListedImages: image blocks with bytes of an
// allow-listed type become data: URIs of exactly those bytes; an SVG, a
// forged type and a missing image are described, not embedded; when the
// images do not pair up with the blocks, none is embedded.
func TestHTMLEmbedsOnlyAllowListedImages(t *testing.T) {
	pngb := encoded(t, "png", solid(3, 2, color.RGBA{0, 128, 255, 255}))
	gifb := encoded(t, "gif", solid(2, 2, color.RGBA{0, 255, 0, 255}))
	d := &Doc{Title: "images", Messages: []model.Message{
		{ID: "u1", Role: "user", Blocks: []model.Block{{Kind: "text", Text: "look"}, {Kind: "image", MIME: "image/png", Size: int64(len(pngb))}}},
		{ID: "t1", Role: "toolResult", Blocks: []model.Block{{Kind: "image", MIME: "image/svg+xml", Size: 10}, {Kind: "image", MIME: "image/gif", Size: -1}}},
		{ID: "u2", Role: "user", Blocks: []model.Block{{Kind: "image", MIME: "text/html", Size: 3}, {Kind: "image", MIME: "image/png", Size: -1, Ref: "blob:sha256:" + strings.Repeat("0", 64), Text: "missing"}}},
	}}
	d.Images = []Image{
		{MIME: "image/png", Data: pngb},
		{MIME: "image/svg+xml", Data: []byte(svg)}, // never embedded, even if a caller says so
		{MIME: "image/gif", Data: gifb},
		{MIME: "text/html", Data: []byte("<script>")},
		{},
	}
	var b bytes.Buffer
	if err := HTML(&b, d, Options{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	checkHTML(t, page, "images")
	got := imgRe.FindAllStringSubmatch(page, -1)
	want := []string{"data:image/png;base64," + base64.StdEncoding.EncodeToString(pngb), "data:image/gif;base64," + base64.StdEncoding.EncodeToString(gifb)}
	if len(got) != len(want) {
		t.Fatalf("%d images embedded, want %d:\n%s", len(got), len(want), page)
	}
	for i := range want {
		if got[i][1] != want[i] {
			t.Fatalf("image %d: src %.60q, want %.60q", i, got[i][1], want[i])
		}
	}
	for _, s := range []string{"[image image/svg+xml · 10 B]", "[image text/html · 3 B]", "[image image/png · blob:sha256:"} {
		if !strings.Contains(page, s) {
			t.Fatalf("no description %q in the page", s)
		}
	}
	if strings.Contains(page, "svg+xml;") || strings.Contains(page, "<script") || strings.Contains(page, "&lt;script") {
		t.Fatal("SVG or HTML bytes reached the page")
	}
	if !strings.Contains(page, "img-src data:;") {
		t.Fatal("the CSP does not allow data: images")
	}

	// --no-tools keeps image blocks (of tool results too): still paired.
	b.Reset()
	HTML(&b, d, Options{NoTools: true})
	if n := len(imgRe.FindAllString(b.String(), -1)); n != 2 {
		t.Fatalf("--no-tools: %d images embedded, want 2", n)
	}
	// Images that do not pair up with the blocks are not embedded.
	d.Images = d.Images[:4]
	b.Reset()
	HTML(&b, d, Options{})
	if strings.Contains(b.String(), "<img") {
		t.Fatal("embedded images that do not pair up with the blocks")
	}
}
