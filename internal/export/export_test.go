package export

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/model"
)

var tagRe = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>`)

var allowed = map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "body": true, "main": true,
	"header": true, "h1": true, "h2": true, "h3": true, "p": true, "section": true, "article": true, "div": true, "pre": true,
	"details": true, "summary": true, "span": true, "time": true, "nav": true, "ul": true, "li": true, "a": true, "footer": true,
	"figure": true, "img": true, "figcaption": true}

// imgSrcRe is the only image source a page may hold: a data: URI of an
// allow-listed raster type, base64 only.
var imgSrcRe = regexp.MustCompile(`^ src="data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*=*" alt="[^"<>]*"$`)

func hostileDoc(s string) *Doc {
	return &Doc{Title: s, Agent: s, ID: s, Header: []string{s}, Warnings: []string{s},
		Messages: []model.Message{
			{ID: s, Role: "user", Marker: s, Model: s, Notes: []string{s}, Blocks: []model.Block{{Kind: "text", Text: s}, {Kind: "thinking", Text: s}}},
			{ID: "x" + s, Role: "assistant", Blocks: []model.Block{{Kind: "toolCall", Name: s, Args: s}, {Kind: "toolResult", Name: s, Text: strings.Repeat(s+"\n", 30)}, {Kind: "image", MIME: s, Ref: s, Size: 10}, {Kind: s, Name: s, Text: s}}},
		},
		Tree:     &model.Tree{Nodes: []model.TreeNode{{ID: s, Role: s, Text: s, Label: s, Children: []int{1, 2}}, {ID: "x" + s, Type: s, Text: s}, {ID: s + "y", Text: s}}, Roots: []int{0}, Leaf: 1, Active: []bool{true, true, false}},
		Branches: []Branch{{Leaf: s, Messages: []model.Message{{ID: s + "y", Role: s, Blocks: []model.Block{{Kind: "text", Text: s}}}}}},
	}
}

// checkHTML: every tag in the page is one sessctl writes, no attribute is
// an event handler, no link leaves the page.
func checkHTML(t *testing.T, page, input string) {
	t.Helper()
	for _, m := range tagRe.FindAllStringSubmatch(page, -1) {
		name := strings.ToLower(m[2])
		if !allowed[name] {
			t.Fatalf("input %q: tag <%s%s> in the page", input, m[2], m[3])
		}
		attrs := strings.ToLower(m[3])
		if regexp.MustCompile(`\son[a-z]+\s*=`).MatchString(attrs) {
			t.Fatalf("input %q: event handler in <%s%s>", input, m[2], m[3])
		}
		if name == "img" && !imgSrcRe.MatchString(m[3]) {
			t.Fatalf("input %q: image that is not an allow-listed data: URI <%s%.80s>", input, m[2], m[3])
		}
		if i := strings.Index(attrs, "href="); i >= 0 && !strings.HasPrefix(attrs[i+5:], `"#`) {
			t.Fatalf("input %q: link out of the page <%s%s>", input, m[2], m[3])
		}
	}
	if strings.Contains(page, "\x1b") || strings.Contains(page, "\u202e") {
		t.Fatalf("input %q: control characters reach the page", input)
	}
}

func TestHTMLEscapesEverything(t *testing.T) {
	for _, s := range []string{
		`<script>document.title='x'</script>`, `"><img src=x onerror=alert(1)>`, `' onmouseover='alert(1)`,
		`javascript:alert(1)`, `</style><script>1</script>`, "\x1b]0;t\x07\u202e", `<!-- x --> <![CDATA[ x ]]>`, "\xff\xfe",
	} {
		var b bytes.Buffer
		if err := HTML(&b, hostileDoc(s), Options{}); err != nil {
			t.Fatal(err)
		}
		checkHTML(t, b.String(), s)
		if !strings.Contains(b.String(), "<details class=\"result\">") {
			t.Fatalf("long tool output not folded")
		}
	}
}

func TestMarkdownHasNoLiveHTMLOrLinks(t *testing.T) {
	s := "<script>x</script> [a](javascript:alert(1)) ![i](http://evil/x.png)\n```\nbreak out\n```"
	var b bytes.Buffer
	if err := Markdown(&b, hostileDoc(s), Options{}); err != nil {
		t.Fatal(err)
	}
	out := stripCodeSpans(stripFences(b.String()))
	for _, bad := range []string{`<script`, `(^|[^\\])\]\(javascript`, `(^|[^\\])\]\(http://evil`, "\n```\nbreak out"} {
		if regexp.MustCompile(bad).MatchString(out) {
			t.Fatalf("markdown holds %q:\n%s", bad, out)
		}
	}
}

func TestFilter(t *testing.T) {
	ms := []model.Message{
		{Role: "assistant", Blocks: []model.Block{{Kind: "thinking", Text: "t"}, {Kind: "toolCall", Name: "bash"}}},
		{Role: "toolResult", Blocks: []model.Block{{Kind: "toolResult", Text: "out"}}},
		{Role: "compactionSummary", Marker: "compaction summary"},
		{Role: "user", Blocks: []model.Block{{Kind: "text", Text: "hi"}}},
	}
	got := Filter(ms, Options{NoTools: true, NoThinking: true})
	if len(got) != 2 || got[0].Marker == "" || got[1].Blocks[0].Text != "hi" {
		t.Fatalf("%+v", got)
	}
}

// stripCodeSpans removes inline code spans (literal in CommonMark: no HTML,
// no links inside) so that the rest can be checked.
func stripCodeSpans(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' {
			b.WriteByte(s[i])
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		if n >= 3 && (i == 0 || s[i-1] == '\n') {
			b.WriteString(s[i : i+n]) // a fence, not a span
			i += n
			continue
		}
		end := -1
		for j := i + n; j < len(s); {
			if s[j] != '`' {
				j++
				continue
			}
			k := 0
			for j+k < len(s) && s[j+k] == '`' {
				k++
			}
			if k == n {
				end = j + k
				break
			}
			j += k
		}
		if end < 0 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		i = end
	}
	return b.String()
}

// stripFences removes fenced code blocks (literal in CommonMark).
func stripFences(s string) string {
	var out []string
	fence := ""
	for _, l := range strings.Split(s, "\n") {
		if fence != "" {
			if strings.TrimRight(l, " ") == fence {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(l, "```") {
			fence = strings.TrimRight(l, "abcdefghijklmnopqrstuvwxyz")
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
