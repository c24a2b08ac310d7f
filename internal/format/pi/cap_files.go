package pi

import (
	"bufio"
	"bytes"
	"io"
	"os"

	"github.com/sessctl/sessctl/internal/blob"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

var _ sessfmt.Filer = Format{}

// SessionFiles lists the session file and, for oh-my-pi and xcsh files
// beside a blob store (<agent>/blobs next to <agent>/sessions), every blob
// the file references ("blob:sha256:" + 64 lowercase hex, found by a
// streaming scan of the bytes) that exists in the store: those are shared
// by every session that references them, so they are counted once, in the
// store's row.
func (Format) SessionFiles(ref sessfmt.Ref) ([]sessfmt.FileUse, error) {
	out := []sessfmt.FileUse{{Path: ref.Path, Kind: "transcript"}}
	dir := BlobDir(ref.Path)
	if dir == "" {
		return out, nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return out, nil
	}
	f, err := os.Open(ref.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	store := blob.Store{Dir: dir}
	seen := map[blob.Hash]bool{}
	err = scanBlobRefs(f, func(h blob.Hash) {
		if seen[h] {
			return
		}
		seen[h] = true
		p := store.Path(h)
		if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
			out = append(out, sessfmt.FileUse{Path: p, Kind: "blob", Bytes: st.Size(), Shared: dir})
		}
	})
	return out, err
}

// scanBlobRefs calls fn for every exact blob reference in r, reading it in
// chunks (a reference cut by a chunk boundary is found in the overlap).
func scanBlobRefs(r io.Reader, fn func(blob.Hash)) error {
	const refLen = len(blob.RefPrefix) + 64
	br := bufio.NewReaderSize(r, 1<<16)
	buf := make([]byte, 0, 1<<17)
	chunk := make([]byte, 1<<16)
	for {
		n, err := br.Read(chunk)
		buf = append(buf, chunk[:n]...)
		i := 0
		for {
			j := bytes.Index(buf[i:], blobPrefix)
			if j < 0 {
				break
			}
			at := i + j
			if at+refLen > len(buf) {
				break // may continue in the next chunk
			}
			if h, perr := blob.ParseRef(string(buf[at : at+refLen])); perr == nil {
				fn(h)
			}
			i = at + 1
		}
		// keep what could be the start of a reference
		keep := refLen - 1
		if keep > len(buf) {
			keep = len(buf)
		}
		buf = append(buf[:0], buf[len(buf)-keep:]...)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
