package claude

import (
	"bytes"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/require"
)

type collectSink struct{ msgs []model.Message }

func (k *collectSink) Header([]string) error { return nil }
func (k *collectSink) Message(m *model.Message) error {
	c := *m
	c.Blocks = append([]model.Block(nil), m.Blocks...)
	k.msgs = append(k.msgs, c)
	return nil
}

// refSink is show's kind of sink (text references); imageSink is
// export's (text and image references).
type refSink struct{ collectSink }

func (refSink) TakesTextRefs() bool { return true }

type imageSink struct{ refSink }

func (imageSink) TakesImageRefs() bool { return true }

func images(ms []model.Message) []model.Block {
	var out []model.Block
	for _, m := range ms {
		for _, b := range m.Blocks {
			if b.Kind == "image" {
				out = append(out, b)
			}
		}
	}
	return out
}

// TestImageRefs: a sink that takes image references gets each image whose
// source is base64 with where its data is in the file (the reference
// decodes to exactly the stored string: plain, with JSON escapes, after a
// BOM, CRLF-ended) and a tool result's images as image blocks after it;
// an image by URL, or whose data is not a string, gets none. Any other
// sink, show's included, gets the view as before (no reference, the tool
// result's images only as "[image]" in its text).
func TestImageRefs(t *testing.T) {
	a := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nfirst image"))
	b := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nsecond image, longer"))
	c := base64.StdEncoding.EncodeToString([]byte("third/image??>>"))
	escaped := strings.ReplaceAll(c, "/", `\/`)
	require.Contains(t, escaped, `\/`)
	const sid = "c1a00000-0000-4000-8000-0000000000bb"
	img := func(data string) string {
		return `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + data + `"}}`
	}
	lines := []string{
		"\ufeff" + `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"` + sid + `","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"x"},` + img(a) + `]}}` + "\r",
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"` + sid + `","timestamp":"2026-01-01T00:00:02.000Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]}}`,
		`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"` + sid + `","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"r"},` + img(b) + `,{"type":"image","source":{"type":"url","url":"https://x/y.png"}},` + img(escaped) + `]}]}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"u2","sessionId":"` + sid + `","timestamp":"2026-01-01T00:00:04.000Z","message":{"id":"m2","role":"assistant","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":5}},{"type":"text","text":"done"}]}}`,
	}
	path := filepath.Join(t.TempDir(), sid+".jsonl")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	open := func() sessfmt.Session {
		s, err := Format{}.Open(sessfmt.Ref{Path: path}, sessfmt.OpenOptions{})
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	}
	cx := open().(sessfmt.Contexter)
	var plain collectSink
	require.NoError(t, cx.Transcript(sessfmt.ContextOptions{}, &plain))
	var show refSink
	require.NoError(t, open().(sessfmt.Contexter).Transcript(sessfmt.ContextOptions{}, &show))
	require.Equal(t, plain.msgs, show.msgs, "a sink taking text references gets the same view")
	ims := images(plain.msgs)
	require.Len(t, ims, 2, "before: the user's image and the assistant's")
	for _, im := range ims {
		require.Nil(t, im.LongText)
	}
	var exp imageSink
	require.NoError(t, open().(sessfmt.Contexter).Transcript(sessfmt.ContextOptions{}, &exp))
	ims = images(exp.msgs)
	require.Len(t, ims, 5, "the user's image, the tool result's three, the assistant's")
	fh, err := os.Open(path)
	require.NoError(t, err)
	defer fh.Close()
	read := func(r *model.TextRef) string {
		require.Equal(t, path, r.Path)
		var sb strings.Builder
		require.NoError(t, jsonl.DecodeString(io.NewSectionReader(fh, r.Off, r.Len), r.Verbatim, func(p []byte) error { sb.Write(p); return nil }))
		return sb.String()
	}
	for i, want := range []string{a, b, "", c, ""} {
		if want == "" {
			require.Nil(t, ims[i].LongText, "image %d", i)
			continue
		}
		require.NotNil(t, ims[i].LongText, "image %d", i)
		require.Equal(t, want, read(ims[i].LongText), "image %d", i)
	}
	require.False(t, ims[3].LongText.Verbatim)
	// the tool result is unchanged, its images follow it
	var kinds []string
	for _, bl := range exp.msgs[2].Blocks {
		kinds = append(kinds, bl.Kind)
	}
	require.Equal(t, []string{"toolResult", "image", "image", "image"}, kinds)
	require.Equal(t, plain.msgs[2].Blocks[0], exp.msgs[2].Blocks[0])
	require.True(t, bytes.Contains([]byte(exp.msgs[2].Blocks[0].Text), []byte("[image][image][image]")))
}
