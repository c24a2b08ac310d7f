package export

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"os"
	"strings"

	"github.com/sessctl/sessctl/internal/model"
)

// css is the page's only style; the Content-Security-Policy allows exactly
// this text (by hash) and nothing else: no script, no external resource.
const css = `:root{color-scheme:light dark;--fg:#1b1f23;--bg:#fff;--dim:#667;--line:#d8dde3;--user:#eef5ff;--asst:#f7f7f9;--tool:#f3f6f0;--warn:#8a5a00;--code:#f2f3f5}
@media (prefers-color-scheme:dark){:root{--fg:#e4e6ea;--bg:#14161a;--dim:#99a;--line:#2c3138;--user:#16243a;--asst:#1b1e24;--tool:#18211a;--warn:#e0b050;--code:#22262d}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}
main{max-width:52rem;margin:0 auto;padding:1rem}
header h1{font-size:1.4rem;margin:.2rem 0 .4rem}
.meta,.note,time,.id{color:var(--dim);font-size:.85rem}
.warn{color:var(--warn)}
nav details{border:1px solid var(--line);border-radius:.5rem;padding:.4rem .7rem;margin:1rem 0}
nav ul{list-style:none;margin:0;padding-left:1rem;border-left:1px solid var(--line)}
nav>details>ul{padding-left:0;border:0}
nav li{margin:.1rem 0;font-size:.9rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav li.on>a,nav li.on>span{font-weight:600}
nav .off{color:var(--dim)}
article{border:1px solid var(--line);border-radius:.6rem;padding:.6rem .8rem;margin:.8rem 0;background:var(--asst)}
article.user{background:var(--user)}
article.tool{background:var(--tool)}
article.marked{border-style:dashed}
article h2,article h3{font-size:1rem;margin:0 0 .3rem;display:flex;flex-wrap:wrap;gap:.2rem .6rem;align-items:baseline}
.text{white-space:pre-wrap}
pre{background:var(--code);padding:.5rem .6rem;border-radius:.4rem;overflow-x:auto;white-space:pre-wrap;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:.3rem 0}
details>summary{cursor:pointer;color:var(--dim)}
.tool-name{font-family:ui-monospace,monospace;font-weight:600}
.err{color:#c0392b}
section.branch{border-top:2px solid var(--line);margin-top:2rem}
a{color:inherit}
footer{color:var(--dim);font-size:.8rem;margin:2rem 0}
figure{margin:.4rem 0}
figure img{display:block;max-width:100%;height:auto;border:1px solid var(--line);border-radius:.4rem}
figcaption{color:var(--dim);font-size:.85rem}`

// CSP is the page's Content-Security-Policy: nothing may load or run; only
// the page's own style (by hash) applies, and images only from data: URIs
// (the session's own images, embedded).
var CSP = "default-src 'none'; style-src '" + styleHash() + "'; img-src data:; base-uri 'none'; form-action 'none'"

func styleHash() string {
	sum := sha256.Sum256([]byte(css))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// HTML writes d as one self-contained page: everything from the session is
// escaped, there is no script and no inline event handler, no link leaves
// the page, and the Content-Security-Policy forbids anything else. The
// branch tree is a list of links to the messages (folded), long tool output
// is folded with <details>, and the layout fits a phone.
func HTML(w io.Writer, d *Doc, o Options) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	e := html.EscapeString
	title := d.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(bw, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="%s">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="sessctl export">
<title>%s</title>
<style>%s</style>
</head>
<body>
<main>
<header>
<h1>%s</h1>
`, e(CSP), e(clean(title)), css, e(clean(title)))
	var meta []string
	if d.Agent != "" {
		meta = append(meta, "agent "+e(clean(d.Agent)))
	}
	if d.ID != "" {
		meta = append(meta, "session "+e(clean(d.ID)))
	}
	if len(meta) > 0 {
		fmt.Fprintf(bw, "<p class=\"meta\">%s</p>\n", strings.Join(meta, " · "))
	}
	for _, h := range d.Header {
		fmt.Fprintf(bw, "<p class=\"meta\">%s</p>\n", e(clean(h)))
	}
	for _, wn := range d.Warnings {
		fmt.Fprintf(bw, "<p class=\"warn\">warning: %s</p>\n", e(clean(wn)))
	}
	if d.Redacted > 0 {
		fmt.Fprintf(bw, "<p class=\"meta\">%d secrets were replaced by [redacted:&lt;kind&gt;].</p>\n", d.Redacted)
	}
	bw.WriteString("</header>\n")
	msgs := Filter(d.Messages, o)
	anchors := map[string]string{}
	for i := range msgs {
		if id := msgs[i].ID; id != "" {
			anchors[id] = anchorID("m", id)
		}
	}
	var branches [][]model.Message
	for bi, b := range d.Branches {
		ms := Filter(b.Messages, o)
		branches = append(branches, ms)
		for i := range ms {
			if id := ms[i].ID; id != "" {
				if _, ok := anchors[id]; !ok {
					anchors[id] = anchorID(fmt.Sprintf("b%d", bi), id)
				}
			}
		}
	}
	if d.Tree != nil && len(d.Tree.Nodes) > 0 {
		writeTreeNav(bw, d.Tree, anchors)
	}
	fmt.Fprintf(bw, "<section aria-label=\"conversation\">\n")
	var imgs []Image
	if countImages(msgs) == len(d.Images) { // Filter keeps every image block
		imgs = d.Images
	}
	if err := writeHTMLMessages(bw, msgs, o, "m", "h2", imgs, d.imageData); err != nil {
		return err
	}
	bw.WriteString("</section>\n")
	for bi, ms := range branches {
		fmt.Fprintf(bw, "<section class=\"branch\" id=\"branch-%d\" aria-label=\"branch\">\n<h2>Branch to %s</h2>\n", bi+1, e(clean(d.Branches[bi].Leaf)))
		if err := writeHTMLMessages(bw, ms, o, fmt.Sprintf("b%d", bi), "h3", nil, d.imageData); err != nil {
			return err
		}
		bw.WriteString("</section>\n")
	}
	bw.WriteString("<footer>Exported by sessctl. This page runs no script and loads nothing.</footer>\n</main>\n</body>\n</html>\n")
	return bw.Flush()
}

// anchorID makes an element id from a session id: only [A-Za-z0-9_-] are
// kept (others are hex-escaped), so no session text reaches an attribute
// unescaped.
func anchorID(prefix, id string) string {
	var b strings.Builder
	b.WriteString(prefix)
	b.WriteByte('-')
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "_%02x", c)
		}
	}
	return b.String()
}

// writeHTMLMessages writes ms; imgs, when not nil, are the bytes of their
// image blocks in order.
func writeHTMLMessages(w *bufio.Writer, ms []model.Message, o Options, prefix, h string, imgs []Image, imageData func(string) (string, bool)) error {
	e := html.EscapeString
	nimg := 0
	for i := range ms {
		m := &ms[i]
		class := "assistant"
		switch m.Role {
		case "user":
			class = "user"
		case "toolResult", "tool":
			class = "tool"
		}
		if m.Marker != "" {
			class += " marked"
		}
		id := ""
		if m.ID != "" {
			id = fmt.Sprintf(" id=\"%s\"", anchorID(prefix, m.ID))
		}
		fmt.Fprintf(w, "<article class=\"%s\"%s>\n<%s>%s", class, id, h, e(clean(roleName(m))))
		if !m.Time.IsZero() {
			t := m.Time.UTC()
			fmt.Fprintf(w, " <time datetime=\"%s\">%s</time>", t.Format("2006-01-02T15:04:05.000Z"), t.Format("2006-01-02 15:04:05Z"))
		}
		if m.ID != "" {
			fmt.Fprintf(w, " <span class=\"id\">%s</span>", e(clean(m.ID)))
		}
		fmt.Fprintf(w, "</%s>\n", h)
		if m.Model != "" {
			fmt.Fprintf(w, "<p class=\"note\">%s</p>\n", e(clean(m.Model)))
		}
		for _, n := range m.Notes {
			fmt.Fprintf(w, "<p class=\"note\">%s</p>\n", e(clean(n)))
		}
		for j := range m.Blocks {
			var im *Image
			if m.Blocks[j].Kind == "image" {
				if nimg < len(imgs) {
					im = &imgs[nimg]
				}
				nimg++
			}
			if err := writeHTMLBlock(w, &m.Blocks[j], o, im, imageData); err != nil {
				return err
			}
		}
		w.WriteString("</article>\n")
	}
	return nil
}

// writeHTMLBlock writes one block; im is an image block's bytes (nil or
// without data: the image is described). A text in the file (LongText) is
// written as it is read, never held.
func writeHTMLBlock(w *bufio.Writer, b *model.Block, o Options, im *Image, imageData func(string) (string, bool)) error {
	if b.LongText != nil && b.Kind != "image" {
		return writeHTMLLong(w, b, o, im)
	}
	e := html.EscapeString
	switch b.Kind {
	case "text":
		fmt.Fprintf(w, "<div class=\"text\">%s</div>\n", e(clean(b.Text)))
	case "thinking":
		fmt.Fprintf(w, "<details class=\"thinking\"><summary>Thinking</summary><div class=\"text\">%s</div></details>\n", e(clean(b.Text)))
	case "toolCall":
		fmt.Fprintf(w, "<div class=\"call\"><span class=\"tool-name\">%s</span><pre>%s</pre></div>\n", e(clean(b.Name)), e(clean(b.Args)))
	case "toolResult":
		name := e(clean(b.Name))
		errMark := ""
		if b.IsError {
			errMark = " <span class=\"err\">error</span>"
		}
		n := lineCount(b.Text)
		if n > o.foldLines() || len(b.Text) > o.foldBytes() {
			fmt.Fprintf(w, "<details class=\"result\"><summary>result <span class=\"tool-name\">%s</span>%s · %d lines</summary><pre>%s</pre></details>\n", name, errMark, n, e(clean(b.Text)))
			return nil
		}
		fmt.Fprintf(w, "<div class=\"result\"><span class=\"meta\">result <span class=\"tool-name\">%s</span>%s</span><pre>%s</pre></div>\n", name, errMark, e(clean(b.Text)))
	case "image":
		if im != nil && embeddable[im.MIME] && im.has() {
			// A data: URI of an allow-listed raster type, the type told
			// from the bytes; base64 needs no escaping in an attribute.
			desc := e(clean(imageText(b)))
			fmt.Fprintf(w, "<figure class=\"image\"><img src=\"data:%s;base64,", im.MIME)
			enc := base64.NewEncoder(base64.StdEncoding, w)
			var err error
			if len(im.Data) > 0 {
				enc.Write(im.Data)
			} else {
				err = copyFile(enc, im.path)
			}
			enc.Close()
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "\" alt=\"%s\"><figcaption>%s</figcaption></figure>\n", desc, desc)
			return nil
		}
		var src imageSource
		switch {
		case b.LongText != nil:
			// base64 in the session file (Claude Code): decoded and
			// checked, then written, never held
			src = refImage(b.LongText)
		case imageData != nil && b.ID != "":
			// a data: URL the session holds (OpenCode)
			if url, ok := imageData(b.ID); ok {
				src = urlImage(url)
			}
		}
		if src != nil {
			if ok, err := writeSourceImage(w, b, src); ok || err != nil {
				return err
			}
		}
		fmt.Fprintf(w, "<p class=\"note\">[%s]</p>\n", e(clean(imageText(b))))
	default:
		desc := strings.TrimSpace(b.Kind + " " + b.Name)
		if b.Text != "" {
			desc += ": " + b.Text
		}
		fmt.Fprintf(w, "<p class=\"note\">[%s]</p>\n", e(clean(desc)))
	}
	return nil
}

// writeHTMLLong is writeHTMLBlock for a block whose text is in the file:
// the same bytes, the text decoded and escaped piece by piece (a tool
// result's is read twice: its line count comes before it).
func writeHTMLLong(w *bufio.Writer, b *model.Block, o Options, im *Image) error {
	switch b.Kind {
	case "text":
		w.WriteString("<div class=\"text\">")
		err := writeLongHTML(w, b.LongText)
		w.WriteString("</div>\n")
		return err
	case "thinking":
		w.WriteString("<details class=\"thinking\"><summary>Thinking</summary><div class=\"text\">")
		err := writeLongHTML(w, b.LongText)
		w.WriteString("</div></details>\n")
		return err
	case "toolResult":
		f, err := longFacts(b.LongText)
		if err != nil {
			return err
		}
		name := html.EscapeString(clean(b.Name))
		errMark := ""
		if b.IsError {
			errMark = " <span class=\"err\">error</span>"
		}
		if f.lines > o.foldLines() || f.bytes > int64(o.foldBytes()) {
			fmt.Fprintf(w, "<details class=\"result\"><summary>result <span class=\"tool-name\">%s</span>%s · %d lines</summary><pre>", name, errMark, f.lines)
			err = writeLongHTML(w, b.LongText)
			w.WriteString("</pre></details>\n")
			return err
		}
		fmt.Fprintf(w, "<div class=\"result\"><span class=\"meta\">result <span class=\"tool-name\">%s</span>%s</span><pre>", name, errMark)
		err = writeLongHTML(w, b.LongText)
		w.WriteString("</pre></div>\n")
		return err
	}
	// Other kinds never get a text reference; held, they are described.
	c := *b
	if err := holdText(&c); err != nil {
		return err
	}
	return writeHTMLBlock(w, &c, o, im, nil)
}

// copyFile writes the file at path to w.
func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// writeTreeNav draws the entry tree as nested lists inside a folded
// <details>: a chain stays at one level, each branch point nests its
// children. Entries shown in the page link to their message.
func writeTreeNav(w *bufio.Writer, t *model.Tree, anchors map[string]string) {
	e := html.EscapeString
	open := ""
	if len(t.Nodes) <= 40 {
		open = " open" // a small tree is shown; a big one is folded
	}
	fmt.Fprintf(w, "<nav aria-label=\"branch tree\"><details%s><summary>Branch tree (%d entries)</summary>\n<ul>\n", open, len(t.Nodes))
	active := func(i int) bool { return i < len(t.Active) && t.Active[i] }
	seen := make([]bool, len(t.Nodes))
	var chain func(i int)
	item := func(i int) {
		n := &t.Nodes[i]
		label := n.Role
		if label == "" {
			label = n.Type
		}
		text := n.Text
		if n.Label != "" {
			text = "[" + n.Label + "] " + text
		}
		if len([]rune(text)) > 90 {
			text = string([]rune(text)[:90]) + "…"
		}
		cls := "off"
		if active(i) {
			cls = "on"
		}
		if i == t.Leaf {
			label += " (leaf)"
		}
		body := e(clean(label)) + " " + e(clean(strings.ReplaceAll(text, "\n", " ")))
		if a, ok := anchors[n.ID]; ok && n.ID != "" {
			fmt.Fprintf(w, "<li class=\"%s\"><a href=\"#%s\">%s</a>", cls, a, body)
		} else {
			fmt.Fprintf(w, "<li class=\"%s\"><span>%s</span>", cls, body)
		}
	}
	chain = func(i int) {
		for i >= 0 && !seen[i] {
			seen[i] = true
			item(i)
			kids := t.Nodes[i].Children
			if len(kids) == 1 {
				w.WriteString("</li>\n")
				i = kids[0]
				continue
			}
			if len(kids) > 1 {
				// each branch is a list of its own, so a chain is not
				// read as siblings of the other branches
				w.WriteString("\n<ul>\n")
				for _, k := range kids {
					w.WriteString("<li class=\"fork\"><ul>\n")
					chain(k)
					w.WriteString("</ul></li>\n")
				}
				w.WriteString("</ul>\n")
			}
			w.WriteString("</li>\n")
			return
		}
	}
	for _, r := range t.Roots {
		chain(r)
	}
	w.WriteString("</ul>\n</details></nav>\n")
}

// clean keeps text printable in a page: C0 controls other than newline and
// tab, DEL and C1 controls are dropped to a visible escape, bidirectional
// overrides too, invalid UTF-8 becomes U+FFFD. html.EscapeString then
// escapes what is markup.
func clean(s string) string {
	ok := true
	for _, r := range s {
		if r == 0xfffd || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
