package images

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/blob"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// png is the start of a PNG file (enough for sniffing).
var png = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 100)...)

func store(t *testing.T, blobs ...[]byte) string {
	dir := filepath.Join(t.TempDir(), "blobs")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, b := range blobs {
		require.NoError(t, os.WriteFile(filepath.Join(dir, blob.Sum(b).String()), b, 0o644))
	}
	return dir
}

func msg(blocks ...string) json.RawMessage {
	s := `{"role":"user","content":[{"type":"text","text":"hi"}`
	for _, b := range blocks {
		s += "," + b
	}
	return json.RawMessage(s + `]}`)
}

func img(data, mime string) string {
	if mime == "" {
		return `{"type":"image","data":"` + data + `"}`
	}
	return `{"type":"image","mimeType":"` + mime + `","data":"` + data + `"}`
}

func TestFind(t *testing.T) {
	assert.Len(t, Find(msg(img("a", "image/png"), img("b", ""))), 2)
	assert.Empty(t, Find(json.RawMessage(`{"role":"user","content":"an image"}`)))
	assert.Empty(t, Find(json.RawMessage(`{"role":"bashExecution","content":[{"type":"image","data":"x"}]}`)))
	assert.Empty(t, Find(json.RawMessage(`not json "image"`)))
}

func TestSniffAndExt(t *testing.T) {
	assert.Equal(t, "image/png", Sniff(png))
	assert.Equal(t, "image/jpeg", Sniff([]byte("\xff\xd8\xff\xe0rest")))
	assert.Equal(t, "image/gif", Sniff([]byte("GIF89a....")))
	assert.Equal(t, "image/webp", Sniff([]byte("RIFF\x00\x00\x00\x00WEBPVP8 ")))
	assert.Equal(t, "image/svg+xml", Sniff([]byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`)))
	assert.Equal(t, "", Sniff([]byte("plain text")))
	assert.Equal(t, "png", Ext("image/png"))
	assert.Equal(t, "jpg", Ext("IMAGE/JPEG; q=1"))
	assert.Equal(t, "svg", Ext("image/svg+xml"))
	assert.Equal(t, "", Ext("application/pdf"))
}

func TestSafeID(t *testing.T) {
	assert.Equal(t, "4fe6304b", safeID("4fe6304b"))
	assert.Equal(t, ".._.._etc_passwd", safeID("../../etc/passwd"))
	assert.Equal(t, "a_b", safeID("a\x1bb"))
	assert.Equal(t, "noid", safeID(""))
	assert.Len(t, safeID(string(make([]byte, 500))), 64)
}

func TestDescribe(t *testing.T) {
	jpeg := []byte("\xff\xd8\xff\xe0 a jpeg")
	dir := store(t, png, jpeg)
	missing := blob.Sum([]byte("gone"))
	raw := msg(
		img(blob.Sum(png).Ref(), ""),                               // ref, no type: sniffed from the blob
		img(missing.Ref(), "image/png"),                            // missing blob
		img("blob:sha256:../../etc/passwd", "image/png"),           // not a ref
		img(base64.StdEncoding.EncodeToString(jpeg), "image/jpeg"), // resolved on load: hashed back
		img(base64.StdEncoding.EncodeToString([]byte("inline")), "image/png"),
	)
	m := model.Message{Blocks: []model.Block{{Kind: "text", Text: "hi"}}}
	for _, im := range Find(raw) {
		b := model.Block{Kind: "image", MIME: im.MIME, Size: -1}
		if im.IsRef() {
			b.Ref = im.Data
		} else {
			b.Size = 6
		}
		m.Blocks = append(m.Blocks, b)
	}
	NewDescriber(dir, true).Message(&m, raw)
	bl := m.Blocks[1:]
	assert.Equal(t, model.Block{Kind: "image", MIME: "image/png", Size: int64(len(png)), Ref: blob.Sum(png).Ref()}, bl[0])
	assert.Equal(t, "missing", bl[1].Text)
	assert.Equal(t, int64(-1), bl[1].Size)
	assert.Equal(t, "invalid ref", bl[2].Text)
	assert.Equal(t, blob.Sum(jpeg).Ref(), bl[3].Ref)
	assert.Equal(t, int64(len(jpeg)), bl[3].Size)
	assert.Equal(t, "", bl[4].Ref, "inline image not in the store")

	// Without hashing (a pi session), base64 images are left as they are.
	m2 := model.Message{Blocks: []model.Block{{Kind: "image", MIME: "image/jpeg", Size: 5}}}
	NewDescriber(dir, false).Message(&m2, msg(img(base64.StdEncoding.EncodeToString(jpeg), "image/jpeg")))
	assert.Equal(t, "", m2.Blocks[0].Ref)
	// A symlinked blob is not opened.
	link := blob.Sum([]byte("link"))
	require.NoError(t, os.Symlink("/etc/hostname", filepath.Join(dir, link.String())))
	m3 := model.Message{Blocks: []model.Block{{Kind: "image", Size: -1, Ref: link.Ref()}}}
	NewDescriber(dir, true).Message(&m3, msg(img(link.Ref(), "")))
	assert.Equal(t, "unreadable", m3.Blocks[0].Text)
	// Counts that do not match: nothing is touched.
	m4 := model.Message{Blocks: []model.Block{{Kind: "image", Size: -1}}}
	NewDescriber(dir, true).Message(&m4, msg(img("a", ""), img("b", "")))
	assert.Equal(t, model.Block{Kind: "image", Size: -1}, m4.Blocks[0])
}

func TestExtractor(t *testing.T) {
	dir := store(t, png)
	out := filepath.Join(t.TempDir(), "new", "images")
	x, err := NewExtractor(out, dir)
	require.NoError(t, err)
	require.NoError(t, x.Add(msg(img(blob.Sum(png).Ref(), "image/png"), img(blob.Sum([]byte("gone")).Ref(), "image/png")), "4fe6304b"))
	require.NoError(t, x.Add(msg(img(base64.StdEncoding.EncodeToString([]byte("GIF89a tiny")), "")), "../../x"))
	require.NoError(t, x.Close())

	st, err := os.Stat(out)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	require.Len(t, x.Written, 2)
	assert.Equal(t, filepath.Join(out, "1-4fe6304b.png"), x.Written[0].Path)
	assert.Equal(t, blob.Sum(png).Ref(), x.Written[0].Ref)
	assert.Equal(t, filepath.Join(out, "3-.._.._x.gif"), x.Written[1].Path)
	assert.Equal(t, "image/gif", x.Written[1].MIME)
	require.Len(t, x.Skipped, 1)
	assert.Equal(t, 2, x.Skipped[0].N)
	assert.Contains(t, x.Skipped[0].Reason, "blob missing")
	got, err := os.ReadFile(filepath.Join(out, "1-4fe6304b.png"))
	require.NoError(t, err)
	assert.Equal(t, png, got)
	fi, err := os.Stat(filepath.Join(out, "1-4fe6304b.png"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	ents, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Len(t, ents, 2, "no temporary file left behind")

	// Again: identical files are kept; a different file is never replaced.
	x, err = NewExtractor(out, dir)
	require.NoError(t, err)
	require.NoError(t, x.Add(msg(img(blob.Sum(png).Ref(), "image/png")), "4fe6304b"))
	assert.True(t, x.Written[0].Kept)
	require.NoError(t, os.WriteFile(filepath.Join(out, "2-b.png"), []byte("mine"), 0o644))
	err = x.Add(msg(img(blob.Sum(png).Ref(), "image/png")), "b")
	assert.ErrorContains(t, err, "not overwritten")
	x.Close()
	mine, _ := os.ReadFile(filepath.Join(out, "2-b.png"))
	assert.Equal(t, "mine", string(mine))
}
