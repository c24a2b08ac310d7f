package export

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/color"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/images"
	"github.com/sessctl/sessctl/internal/memtest"
	"github.com/sessctl/sessctl/internal/model"
)

// TestB64StreamEqualsHeld: the streamed decoder gives the bytes the held
// one gives (images.Image.Bytes: line breaks ignored, padded or not), and
// fails where it fails, for texts of every kind in any chunking; a data:
// URL of base64 gives the bytes after its comma, one without ";base64" or
// without a comma fails.
func TestB64StreamEqualsHeld(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var texts []string
	for _, n := range []int{0, 1, 2, 3, 4, 5, 100, 5000, 70000} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		std := base64.StdEncoding.EncodeToString(b)
		texts = append(texts, std, strings.TrimRight(std, "="), wrap(std, 76, "\n"), wrap(std, 64, "\r\n"))
		if len(std) > 8 {
			k := r.IntN(len(std) - 4)
			texts = append(texts, std[:k]+"=="+std[k:], std[:k]+"*"+std[k:], std+"=", std+"A")
		}
	}
	texts = append(texts, "", "=", "====", "QQ", "QQ=", "QQ==", "QQ===", "data", "dat", "data:", "d")
	decode := func(s string, url bool) ([]byte, error) {
		var out []byte
		d := &b64Stream{out: func(p []byte) error { out = append(out, p...); return nil }, url: url}
		for _, c := range chunks(r, s) {
			if err := d.write(c); err != nil {
				return nil, err
			}
		}
		if err := d.close(); err != nil {
			return nil, err
		}
		return out, nil
	}
	for _, s := range texts {
		want, werr := images.Image{Data: s}.Bytes("")
		for _, url := range []bool{false, true} {
			got, err := decode(s, url)
			if (err != nil) != (werr != nil) || werr == nil && !bytes.Equal(got, want) {
				t.Fatalf("%.60q (url %v): %d bytes, %v; want %d bytes, %v", s, url, len(got), err, len(want), werr)
			}
		}
		got, err := decode("data:image/png;base64,"+s, true)
		if (err != nil) != (werr != nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("data URL of %.60q: %d bytes, %v; want %d bytes, %v", s, len(got), err, len(want), werr)
		}
	}
	for _, bad := range []string{"data:image/png,QUJD", "data:image/png;base64QUJD", "data:" + strings.Repeat("x", 300) + ";base64,QUJD"} {
		if _, err := decode(bad, true); err == nil {
			t.Fatalf("%.40q decoded", bad)
		}
	}
	if got, err := decode("DATA:image/png;BASE64,QUJD", true); err == nil {
		t.Fatalf("an upper-case DATA: prefix is a URL: %q", got) // 'D','A','T','A',':' is not base64 either
	}
}

func wrap(s string, n int, nl string) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + nl)
		s = s[n:]
	}
	b.WriteString(s)
	return b.String()
}

// refBlock writes text as a JSON string into a file and returns an image
// block whose LongText locates it.
func refBlock(t *testing.T, text string) model.Block {
	raw, _ := json.Marshal(text)
	return model.Block{Kind: "image", MIME: "image/png", Size: int64(len(text)) * 3 / 4, LongText: writeRef(t, t.TempDir(), raw, !bytes.Contains(raw, []byte(`\`)))}
}

// TestHTMLEmbedsRefImages: an image block whose bytes are base64 in the
// file (Claude Code) or a base64 data: URL (OpenCode) is embedded as a
// data: URI of exactly its bytes when they are an allow-listed type; an
// SVG, HTML, text that is not base64 and a data: URL that is not base64
// are described; Markdown describes them all.
func TestHTMLEmbedsRefImages(t *testing.T) {
	red := encoded(t, "png", solid(3, 2, color.RGBA{255, 0, 0, 255}))
	gif := encoded(t, "gif", solid(3, 2, color.RGBA{0, 0, 255, 255}))
	b64 := base64.StdEncoding.EncodeToString(red)
	cases := []struct {
		text  string
		embed string // the data: URI, "" when described
	}{
		{b64, "data:image/png;base64," + b64},
		{wrap(b64, 20, "\r\n"), "data:image/png;base64," + b64},
		{strings.TrimRight(b64, "="), "data:image/png;base64," + b64},
		{"data:image/gif;base64," + base64.StdEncoding.EncodeToString(gif), "data:image/gif;base64," + base64.StdEncoding.EncodeToString(gif)},
		{"data:image/jpeg;base64," + b64, "data:image/png;base64," + b64}, // the type is the bytes'
		{base64.StdEncoding.EncodeToString([]byte(svg)), ""},
		{"data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg)), ""},
		{base64.StdEncoding.EncodeToString([]byte("<html><script>alert(1)</script>")), ""},
		{"not base64 <script>alert(1)</script>", ""},
		{"data:image/png," + b64, ""},
		{"", ""},
	}
	for _, c := range cases {
		d := &Doc{Title: "t", Messages: []model.Message{{Role: "user", Blocks: []model.Block{refBlock(t, c.text)}}}}
		var page bytes.Buffer
		if err := HTML(&page, d, Options{}); err != nil {
			t.Fatal(err)
		}
		checkHTML(t, page.String(), c.text)
		srcs := imgRe.FindAllStringSubmatch(page.String(), -1)
		switch {
		case c.embed == "" && len(srcs) != 0:
			t.Fatalf("%.40q: embedded %.60q", c.text, srcs[0][1])
		case c.embed != "" && (len(srcs) != 1 || srcs[0][1] != c.embed):
			t.Fatalf("%.40q: %d images, want %.60q:\n%s", c.text, len(srcs), c.embed, page.String())
		case c.embed == "" && !strings.Contains(page.String(), `<p class="note">[image image/png`):
			t.Fatalf("%.40q: not described:\n%s", c.text, page.String())
		}
		var md bytes.Buffer
		if err := Markdown(&md, d, Options{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(md.String(), "*[image image/png") || len(c.text) > 20 && strings.Contains(md.String(), c.text[:20]) {
			t.Fatalf("%.40q: markdown:\n%s", c.text, md.String())
		}
	}
}

// TestRefImageNotHeld: a 48 MiB image in the file is embedded allocating
// a few MiB (the pieces), never the image.
func TestRefImageNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB file")
	}
	big := make([]byte, 48<<20)
	copy(big, encoded(t, "png", solid(2, 2, color.RGBA{1, 2, 3, 255})))
	b := refBlock(t, base64.StdEncoding.EncodeToString(big))
	want := len(base64.StdEncoding.EncodeToString(big))
	big = nil
	d := &Doc{Title: "t", Messages: []model.Message{{Role: "user", Blocks: []model.Block{b}}}}
	out := &hashCounter{h: nopHash{}}
	a := memtest.Allocated(func() {
		w := bufio.NewWriterSize(out, 1<<16)
		if err := HTML(w, d, Options{}); err != nil {
			t.Fatal(err)
		}
		w.Flush()
	})
	t.Logf("allocated %.1f MiB, wrote %.1f MiB", float64(a)/(1<<20), float64(out.n)/(1<<20))
	if out.n < int64(want) {
		t.Fatalf("wrote %d bytes, want more than %d", out.n, want)
	}
	if a > 8<<20 {
		t.Fatalf("embedding allocated %.1f MiB: it holds the image", float64(a)/(1<<20))
	}
}

// nopHash is a hash.Hash that keeps nothing.
type nopHash struct{}

func (nopHash) Write(p []byte) (int, error) { return len(p), nil }
func (nopHash) Sum(b []byte) []byte         { return b }
func (nopHash) Reset()                      {}
func (nopHash) Size() int                   { return 0 }
func (nopHash) BlockSize() int              { return 1 }
