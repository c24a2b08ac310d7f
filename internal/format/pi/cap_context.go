package pi

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/sessctl/sessctl/internal/images"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/valyala/fastjson"
)

// notify passes the context's warnings on.
func notify(ctx *Context, opts sessfmt.ContextOptions) {
	for _, w := range ctx.Warnings {
		opts.Notice(sessfmt.Notice{Warning: true, Text: w})
	}
}

// Transcript rebuilds the context at the leaf for people, one message at a
// time (never all in memory); blob images are described, not decoded. The
// header's title is list's (Meta.Title); a sink that is a
// sessfmt.FooterSink gets "<n> messages in context".
func (s *Session) Transcript(opts sessfmt.ContextOptions, sink sessfmt.TranscriptSink) error {
	leaf, err := s.LeafIndex()
	if err != nil {
		return err
	}
	f := s.File
	desc := images.NewDescriber(f.BlobDir, f.Dialect == DialectOmp || f.Dialect == DialectXcsh)
	var cur *Context
	n := 0
	// A sink that prints long texts from the file gets them as references.
	var refs *longRefs
	if t, ok := sink.(model.TextRefTaker); ok && t.TakesTextRefs() {
		refs = newLongRefs()
		defer refs.close()
	}
	_, err = f.streamContext(leaf, func(ctx *Context) error {
		cur = ctx
		notify(ctx, opts)
		return sink.Header(s.header(ctx))
	}, func(raw []byte, src int) error {
		m, raw, err := f.refMessage(cur, raw, src, refs)
		if err != nil {
			return err
		}
		desc.Message(&m, raw)
		n++
		return sink.Message(&m)
	}, refs)
	if err != nil {
		return err
	}
	if fs, ok := sink.(sessfmt.FooterSink); ok {
		word := "messages"
		if n == 1 {
			word = "message"
		}
		return fs.Footer(fmt.Sprintf("%d %s in context", n, word))
	}
	return nil
}

// header describes the session and the leaf, with list's title.
func (s *Session) header(ctx *Context) []string {
	return s.File.HeaderLines(ctx, s.headTitle())
}

// modelText writes a context's model for people: "provider/id" for pi's
// {"provider","modelId"} (or "id"), a string as it is, an object of models
// as "key provider/id, …"; "" for null and {}.
func modelText(raw []byte) string {
	v, err := fastjson.ParseBytes(raw)
	if err != nil {
		return strings.Join(strings.Fields(string(raw)), " ")
	}
	var one func(v *fastjson.Value) string
	one = func(v *fastjson.Value) string {
		switch v.Type() {
		case fastjson.TypeNull:
			return ""
		case fastjson.TypeString:
			return string(v.GetStringBytes())
		case fastjson.TypeObject:
			id := string(v.GetStringBytes("modelId"))
			if id == "" {
				id = string(v.GetStringBytes("id"))
			}
			if id != "" {
				if p := string(v.GetStringBytes("provider")); p != "" {
					return p + "/" + id
				}
				return id
			}
			var parts []string
			v.GetObject().Visit(func(k []byte, mv *fastjson.Value) {
				if t := one(mv); t != "" {
					parts = append(parts, string(k)+" "+t)
				}
			})
			return strings.Join(parts, ", ")
		}
		return v.String()
	}
	return one(v)
}

// WriteContextJSON streams show's --json object: {"format","dialect",
// "path","sessionId","leafId","messages",<the agent's other context keys>,
// "warnings"}, the messages written as they are rebuilt. "path" is the
// reference the session was opened by.
func (s *Session) WriteContextJSON(out io.Writer, opts sessfmt.ContextOptions) error {
	leaf, err := s.LeafIndex()
	if err != nil {
		return err
	}
	f := s.File
	w := bufio.NewWriterSize(out, 1<<20)
	enc := func(v any) []byte { b, _ := json.Marshal(v); return b }
	n := 0
	// Long lines are read elided and their strings copied from the file.
	refs := newLongRefs()
	defer refs.close()
	ctx, err := f.streamContext(leaf, func(ctx *Context) error {
		notify(ctx, opts)
		w.WriteString(`{"format":"pi","dialect":`)
		w.Write(enc(string(f.Dialect)))
		w.WriteString(`,"path":`)
		w.Write(enc(s.ref.String()))
		w.WriteString(`,"sessionId":`)
		w.Write(enc(f.Header.ID))
		w.WriteString(`,"leafId":`)
		if ctx.Leaf == tree.None {
			w.WriteString("null")
		} else {
			w.Write(enc(f.DisplayID(ctx.Leaf)))
		}
		w.WriteString(`,"messages":[`)
		return nil
	}, func(m []byte, src int) error {
		if n > 0 {
			w.WriteByte(',')
		}
		n++
		return refs.writeMessage(w, m, f.Path)
	}, refs)
	if err != nil {
		return err
	}
	w.WriteByte(']')
	for _, m := range ctx.Fields {
		if m.Value == nil {
			continue
		}
		w.WriteByte(',')
		w.Write(enc(m.Key))
		w.WriteByte(':')
		w.Write(m.Value)
	}
	warnings := ctx.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	w.WriteString(`,"warnings":`)
	w.Write(enc(warnings))
	w.WriteString("}\n")
	return w.Flush()
}

// ExtractImages writes the images of the context at the leaf to dir as
// <n>-<entry id>.<ext> (see images.Extractor).
func (s *Session) ExtractImages(dir string) ([]images.Written, []images.Skipped, error) {
	leaf, err := s.LeafIndex()
	if err != nil {
		return nil, nil, err
	}
	f := s.File
	x, err := images.NewExtractor(dir, f.BlobDir)
	if err != nil {
		return nil, nil, err
	}
	_, err = f.StreamContext(leaf, nil, func(raw []byte, src int) error {
		id := ""
		if src >= 0 {
			id = f.DisplayID(src)
		}
		return x.Add(raw, id)
	})
	if cerr := x.Close(); err == nil {
		err = cerr
	}
	return x.Written, x.Skipped, err
}
