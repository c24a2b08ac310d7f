// Package images finds the image blocks of a rebuilt pi-family context,
// describes the ones whose bytes live in a blob store (type, size, hash, or
// that the blob is missing) and writes them to files for
// `sessctl show --extract-images`.
package images

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/blob"
	"github.com/sessctl/sessctl/internal/model"
)

// Image is one image block of a context message: its data is base64 or a
// blob reference.
type Image struct {
	Data string
	MIME string
}

// noContentRoles are the message roles whose content the transcript does
// not show as blocks (internal/format/pi/view.go).
var noContentRoles = map[string]bool{"compactionSummary": true, "branchSummary": true, "bashExecution": true}

// Find returns the image blocks of one context message, in order: the
// objects with "type":"image" in its "content" array.
func Find(raw json.RawMessage) []Image {
	if !bytes.Contains(raw, []byte(`"image"`)) {
		return nil
	}
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &m) != nil || noContentRoles[m.Role] {
		return nil
	}
	var bs []struct {
		Type     string `json:"type"`
		Data     string `json:"data"`
		MimeType string `json:"mimeType"`
	}
	if len(m.Content) == 0 || m.Content[0] != '[' || json.Unmarshal(m.Content, &bs) != nil {
		return nil
	}
	var out []Image
	for _, b := range bs {
		if b.Type == "image" {
			out = append(out, Image{Data: b.Data, MIME: b.MimeType})
		}
	}
	return out
}

// IsRef reports whether data is (or claims to be) a blob reference.
func (im Image) IsRef() bool { return strings.HasPrefix(im.Data, blob.RefPrefix) }

// Bytes returns the image's bytes: base64 decoded, or read from the store
// for a blob reference (never following a symlink or leaving the store).
func (im Image) Bytes(store string) ([]byte, error) {
	if im.IsRef() {
		h, err := blob.ParseRef(im.Data)
		if err != nil {
			return nil, err
		}
		if store == "" {
			return nil, errors.New("no blob store")
		}
		return blob.Store{Dir: store}.Read(h)
	}
	return decode(im.Data)
}

// decode decodes standard base64, padded or not, ignoring line breaks.
func decode(s string) ([]byte, error) {
	s = strings.NewReplacer("\n", "", "\r", "").Replace(s)
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}

// Sniff returns the media type of image bytes ("" when unknown).
func Sniff(b []byte) string {
	if len(b) > 512 {
		b = b[:512]
	}
	if t := http.DetectContentType(b); strings.HasPrefix(t, "image/") {
		return t
	}
	head := bytes.TrimLeft(b, " \t\r\n\ufeff")
	if bytes.HasPrefix(head, []byte("<svg")) || (bytes.HasPrefix(head, []byte("<?xml")) && bytes.Contains(b, []byte("<svg"))) {
		return "image/svg+xml"
	}
	return ""
}

// Describer adds blob facts to the image blocks of transcript messages:
// for a block that still holds a reference, the blob's size and type, or
// "missing" / "invalid ref"; with HashResolved, a block whose bytes are a
// blob of the store gets that blob's reference (oh-my-pi and xcsh put the
// bytes back in the context on load, so the hash is the only trace of the
// blob left). The zero value describes nothing.
type Describer struct {
	store        string
	hashResolved bool
}

// NewDescriber returns a Describer for the blob store dir ("" for none).
// hashResolved should be set for oh-my-pi and xcsh sessions.
func NewDescriber(store string, hashResolved bool) *Describer {
	if store != "" {
		if st, err := os.Stat(store); err != nil || !st.IsDir() {
			hashResolved = false
		}
	} else {
		hashResolved = false
	}
	return &Describer{store: store, hashResolved: hashResolved}
}

// Message describes the image blocks of m, the view of the context message
// raw. A message whose image count differs from its view's is left alone.
func (d *Describer) Message(m *model.Message, raw json.RawMessage) {
	if d == nil {
		return
	}
	var idx []int
	for j, b := range m.Blocks {
		if b.Kind == "image" {
			idx = append(idx, j)
		}
	}
	if len(idx) == 0 {
		return
	}
	ims := Find(raw)
	if len(ims) != len(idx) {
		return
	}
	for k, im := range ims {
		describe(&m.Blocks[idx[k]], im, d.store, d.hashResolved)
	}
}

// Describe runs a Describer over a whole transcript built from msgs
// (tr.Messages[i] from msgs[i]).
func Describe(tr *model.Transcript, msgs []json.RawMessage, store string, hashResolved bool) {
	d := NewDescriber(store, hashResolved)
	for i := range tr.Messages {
		if i >= len(msgs) {
			return
		}
		d.Message(&tr.Messages[i], msgs[i])
	}
}

func describe(b *model.Block, im Image, store string, hashResolved bool) {
	if im.IsRef() {
		b.Ref = im.Data
		h, err := blob.ParseRef(im.Data)
		if err != nil {
			b.Text = "invalid ref"
			return
		}
		if store == "" {
			b.Text = "no blob store"
			return
		}
		f, err := blob.Store{Dir: store}.Open(h)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				b.Text = "missing"
			} else {
				b.Text = "unreadable"
			}
			return
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			b.Size = st.Size()
		}
		if b.MIME == "" {
			head := make([]byte, 512)
			n, _ := io.ReadFull(f, head)
			b.MIME = Sniff(head[:n])
		}
		return
	}
	if !hashResolved && b.MIME != "" {
		return
	}
	raw, err := decode(im.Data)
	if err != nil {
		return
	}
	if b.MIME == "" {
		b.MIME = Sniff(raw)
	}
	if !hashResolved {
		return
	}
	h := blob.Sum(raw)
	if st, err := os.Lstat(blob.Store{Dir: store}.Path(h)); err == nil && st.Mode().IsRegular() && st.Size() == int64(len(raw)) {
		b.Ref = h.Ref()
		b.Size = int64(len(raw))
	}
}

// Ext returns the file extension for a media type, or "" if unknown.
func Ext(mime string) string {
	switch strings.ToLower(strings.TrimSpace(strings.SplitN(mime, ";", 2)[0])) {
	case "image/png":
		return "png"
	case "image/jpeg", "image/jpg":
		return "jpg"
	case "image/gif":
		return "gif"
	case "image/webp":
		return "webp"
	case "image/svg+xml":
		return "svg"
	case "image/bmp", "image/x-ms-bmp":
		return "bmp"
	case "image/x-icon", "image/vnd.microsoft.icon":
		return "ico"
	case "image/avif":
		return "avif"
	case "image/heic":
		return "heic"
	case "image/tiff":
		return "tiff"
	}
	return ""
}

// safeID keeps an entry id usable in a file name: letters, digits, '-',
// '_' and '.', at most 64 bytes; anything else becomes '_'.
func safeID(id string) string {
	var sb strings.Builder
	for _, r := range id {
		if sb.Len() >= 64 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			sb.WriteRune(r)
		default:
			sb.WriteByte('_')
		}
	}
	if sb.Len() == 0 {
		return "noid"
	}
	return sb.String()
}

// Written is one image file Extract wrote (or found already there).
type Written struct {
	Path  string `json:"path"`
	MIME  string `json:"mimeType"`
	Bytes int64  `json:"bytes"`
	Ref   string `json:"ref,omitempty"`
	Kept  bool   `json:"kept,omitempty"` // an identical file was already there
}

// Skipped is an image Extract could not write.
type Skipped struct {
	N      int    `json:"n"`
	ID     string `json:"entryId"`
	Reason string `json:"reason"`
}

// Extractor writes the image blocks of context messages to a folder as
// <n>-<entry id>.<ext> (n counts the images from 1 in context order). The
// folder is created with mode 0700 if missing; files are created with mode
// 0600 through an os.Root, so nothing is written outside it, written to a
// temporary name, synced and linked into place, so an existing file is
// never replaced (one with the same bytes is reported as kept; one with
// other bytes is an error). Images whose blob is missing are skipped with a
// reason.
type Extractor struct {
	Dir   string
	store string
	root  *os.Root
	n     int
	// Written and Skipped list what happened so far.
	Written []Written
	Skipped []Skipped
}

// NewExtractor creates dir if needed and opens it. store is the blob store
// references resolve against ("" for none).
func NewExtractor(dir, store string) (*Extractor, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Extractor{Dir: dir, store: store, root: root}, nil
}

// Add writes the images of one context message made from the entry id.
func (x *Extractor) Add(raw json.RawMessage, id string) error {
	for _, im := range Find(raw) {
		x.n++
		data, err := im.Bytes(x.store)
		if err != nil {
			why := err.Error()
			if errors.Is(err, fs.ErrNotExist) {
				why = "blob missing from " + x.store
			}
			x.Skipped = append(x.Skipped, Skipped{N: x.n, ID: id, Reason: why})
			continue
		}
		mime := im.MIME
		ext := Ext(mime)
		if ext == "" {
			if s := Sniff(data); s != "" {
				mime, ext = s, Ext(s)
			}
		}
		if ext == "" {
			ext = "bin"
		}
		name := fmt.Sprintf("%d-%s.%s", x.n, safeID(id), ext)
		w := Written{Path: filepath.Join(x.Dir, name), MIME: mime, Bytes: int64(len(data))}
		if im.IsRef() {
			w.Ref = im.Data
		}
		kept, err := writeNew(x.root, name, data)
		if err != nil {
			return fmt.Errorf("%s: %w", w.Path, err)
		}
		w.Kept = kept
		x.Written = append(x.Written, w)
	}
	return nil
}

// Close syncs the folder and releases it.
func (x *Extractor) Close() error {
	if d, err := x.root.Open("."); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return x.root.Close()
}

// writeNew creates name with data unless it exists. It reports kept=true
// when an identical file is already there.
func writeNew(root *os.Root, name string, data []byte) (kept bool, err error) {
	if old, err := root.ReadFile(name); err == nil {
		if bytes.Equal(old, data) {
			return true, nil
		}
		return false, errors.New("a different file of that name exists; not overwritten (extract into an empty folder)")
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	tmp := fmt.Sprintf(".%s.%d.tmp", name, os.Getpid())
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false, err
	}
	defer root.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Close(); err != nil {
		return false, err
	}
	if err := root.Link(tmp, name); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, errors.New("a file of that name appeared meanwhile; not overwritten")
		}
		// No hard links here (some file systems): create it exclusively.
		g, err2 := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err2 != nil {
			return false, err2
		}
		if _, err := g.Write(data); err != nil {
			g.Close()
			root.Remove(name)
			return false, err
		}
		if err := g.Sync(); err != nil {
			g.Close()
			return false, err
		}
		return false, g.Close()
	}
	return false, nil
}
