package pi

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	"github.com/sessctl/sessctl/internal/blob"
)

// blobResolver turns blob references back into the data oh-my-pi and xcsh
// put in the context (testdata/omp/parity/SPEC.md §4, §12). Only exact
// references ("blob:sha256:" + 64 lowercase hex) are looked up, through
// internal/blob, so no other string ever becomes a path. A reference that
// is not exact, or whose blob is missing, stays in place as the agent leaves
// it, and a warning says so.
type blobResolver struct {
	store    blob.Store
	noStore  bool
	warnings []string
	warned   map[string]bool
	cache    map[blob.Hash][]byte
}

func newBlobResolver(dir string) *blobResolver {
	return &blobResolver{store: blob.Store{Dir: dir}, noStore: dir == "", warned: map[string]bool{}, cache: map[blob.Hash][]byte{}}
}

var blobPrefix = []byte(blob.RefPrefix)

func (r *blobResolver) warn(key, msg string) {
	if !r.warned[key] {
		r.warned[key] = true
		r.warnings = append(r.warnings, msg)
	}
}

// read returns the blob's bytes, or false (with a warning) when the
// reference is not exact or the blob cannot be read.
func (r *blobResolver) read(ref string) ([]byte, bool) {
	h, err := blob.ParseRef(ref)
	if err != nil {
		r.warn("bad:"+ref, fmt.Sprintf("%.40s… is not an exact blob reference; it stays in the context as text", ref))
		return nil, false
	}
	if b, ok := r.cache[h]; ok {
		return b, true
	}
	if r.noStore {
		r.warn("nostore", "the file has blob references but no blob store was found beside it; they stay in the context as text")
		return nil, false
	}
	b, err := os.ReadFile(r.store.Path(h))
	if err != nil {
		r.warn(h.String(), fmt.Sprintf("blob %s is missing from %s; the agent sends the reference text instead of the image", shortHash(h), r.store.Dir))
		return nil, false
	}
	r.cache[h] = b
	return b, true
}

// base64 resolves a reference to standard padded base64 of the blob (image data).
func (r *blobResolver) base64(raw []byte) ([]byte, bool) {
	ref, ok := strOf(raw)
	if !ok || !strings.HasPrefix(ref, blob.RefPrefix) {
		return nil, false
	}
	b, ok := r.read(ref)
	if !ok {
		return nil, false
	}
	return jsonString(base64.StdEncoding.EncodeToString(b)), true
}

// text resolves a reference to the blob's bytes read as UTF-8 (data URLs).
func (r *blobResolver) text(raw []byte) ([]byte, bool) {
	ref, ok := strOf(raw)
	if !ok || !strings.HasPrefix(ref, blob.RefPrefix) {
		return nil, false
	}
	b, ok := r.read(ref)
	if !ok {
		return nil, false
	}
	return jsonString(string(bytes.ToValidUTF8(b, []byte("\uFFFD")))), true
}

func isRefString(raw []byte) bool {
	s, ok := strOf(raw)
	return ok && strings.HasPrefix(s, blob.RefPrefix)
}

// resolveO18 is omp 18.3.4's walk over a whole entry (SPEC §4). It returns
// the entry unchanged when nothing was resolved.
func (r *blobResolver) resolveO18(entry []byte) []byte {
	if !bytes.Contains(entry, blobPrefix) {
		return entry
	}
	out, _ := r.visit18(entry, "", false)
	return out
}

func (r *blobResolver) visit18(v []byte, key string, hasKey bool) ([]byte, bool) {
	if isArray(v) {
		els := elements(v)
		changed := false
		for i, e := range els {
			if ne, ok := r.visit18(e, key, hasKey); ok {
				els[i], changed = ne, true
			}
		}
		if !changed {
			return v, false
		}
		return encodeArray(els), true
	}
	if !isObject(v) {
		return v, false
	}
	ms := members(v)
	get := func(k string) []byte {
		for _, m := range ms {
			if keyName(m.key) == k {
				return m.val
			}
		}
		return nil
	}
	set := func(k string, val []byte) {
		for i := range ms {
			if keyName(ms[i].key) == k {
				ms[i].val = val
			}
		}
	}
	typ, _ := strOf(get("type"))
	if hasKey && key != "frames" {
		data, isStrData := strOf(get("data"))
		mime, isMime := strOf(get("mimeType"))
		payload := isStrData && (typ == "image" || (isMime && strings.HasPrefix(strings.ToLower(mime), "image/")))
		position := (key == "content" && typ == "image") || key == "images"
		if payload && position && strings.HasPrefix(data, blob.RefPrefix) {
			if nv, ok := r.base64(get("data")); ok {
				set("data", nv)
				return encodeObject(ms), true
			}
			return v, false
		}
	}
	changed := false
	if typ == "image_generation_call" && isRefString(get("result")) {
		if nv, ok := r.base64(get("result")); ok {
			set("result", nv)
			changed = true
		}
	}
	if isRefString(get("image_url")) {
		if nv, ok := r.text(get("image_url")); ok {
			set("image_url", nv)
			changed = true
		}
	}
	for i := range ms {
		if nv, ok := r.visit18(ms[i].val, keyName(ms[i].key), true); ok {
			ms[i].val, changed = nv, true
		}
	}
	if !changed {
		return v, false
	}
	return encodeObject(ms), true
}

// resolveO14 is the O14 / xcsh resolution: image blocks directly in
// message.content or custom_message.content, and image_url strings anywhere.
func (r *blobResolver) resolveO14(entry []byte, typ string) []byte {
	if !bytes.Contains(entry, blobPrefix) {
		return entry
	}
	blocks := func(content []byte) ([]byte, bool) {
		if !isArray(content) {
			return content, false
		}
		els := elements(content)
		changed := false
		for i, b := range els {
			if !isObject(b) || !isStr(sub(trimWS(b), "type"), "image") || !isRefString(sub(trimWS(b), "data")) {
				continue
			}
			if nv, ok := r.base64(sub(trimWS(b), "data")); ok {
				els[i], changed = withMember(b, "data", nv), true
			}
		}
		if !changed {
			return content, false
		}
		return encodeArray(els), true
	}
	out := entry
	switch typ {
	case "message":
		if m := sub(trimWS(out), "message"); isObject(m) {
			if nc, ok := blocks(sub(trimWS(m), "content")); ok {
				out = withMember(out, "message", withMember(m, "content", nc))
			}
		}
	case "custom_message":
		if nc, ok := blocks(sub(trimWS(out), "content")); ok {
			out = withMember(out, "content", nc)
		}
	}
	if nv, ok := r.imageURLs(out); ok {
		out = nv
	}
	return out
}

func (r *blobResolver) imageURLs(v []byte) ([]byte, bool) {
	if isArray(v) {
		els := elements(v)
		changed := false
		for i, e := range els {
			if ne, ok := r.imageURLs(e); ok {
				els[i], changed = ne, true
			}
		}
		if !changed {
			return v, false
		}
		return encodeArray(els), true
	}
	if !isObject(v) {
		return v, false
	}
	ms := members(v)
	changed := false
	for i := range ms {
		if keyName(ms[i].key) == "image_url" && isRefString(ms[i].val) {
			if nv, ok := r.text(ms[i].val); ok {
				ms[i].val, changed = nv, true
			}
			continue
		}
		if nv, ok := r.imageURLs(ms[i].val); ok {
			ms[i].val, changed = nv, true
		}
	}
	if !changed {
		return v, false
	}
	return encodeObject(ms), true
}
