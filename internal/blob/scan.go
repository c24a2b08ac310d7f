package blob

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// scanBufSize is the read buffer of the mark scanner. Large buffers keep the
// per-read overhead and the carry-over copies negligible.
const scanBufSize = 1 << 20

var refPrefix = []byte(RefPrefix)

var bufPool = sync.Pool{New: func() any { b := make([]byte, scanBufSize); return &b }}

// Scan calls fn for every blob reference in r: "blob:sha256:" followed by
// exactly 64 lowercase hex digits and then a byte that is not a lowercase
// hex digit, or the end of input. It reads r in large chunks, finds
// candidates with bytes.Index and carries the unfinished tail of each chunk
// over to the next, so matches that straddle reads are found and lines of
// any length are fine. fn may be called several times for the same hash.
// The only error returned is a read error from r; matches before it have
// already been reported.
func Scan(r io.Reader, fn func(Hash)) error {
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	return scanBuf(r, *bp, fn)
}

// scanBuf is Scan with a caller-supplied buffer (len(buf) > RefLen+1).
func scanBuf(r io.Reader, buf []byte, fn func(Hash)) error {
	if len(buf) <= RefLen+1 {
		panic("blob: scan buffer too small")
	}
	n := 0 // valid bytes in buf
	for {
		// Fill the buffer completely (or to EOF) before searching.
		eof := false
		for n < len(buf) {
			m, err := r.Read(buf[n:])
			n += m
			if err == io.EOF {
				eof = true
				break
			}
			if err != nil {
				return err
			}
		}
		keep := searchChunk(buf[:n], n, eof, fn)
		if eof {
			return nil
		}
		if keep < 0 {
			// No candidate pending: a prefix may still straddle the chunk
			// end, so keep its longest possible partial (len-1 bytes).
			// Those bytes hold no complete prefix, so nothing is reported
			// twice.
			keep = max(n-(len(refPrefix)-1), 0)
		}
		n = copy(buf, buf[keep:n])
	}
}

// searchChunk reports every ref in data that starts before limit. final
// says that data ends at the end of the input. It returns the start of a
// candidate that cannot be decided because data ends too early (only
// possible if !final), or -1.
func searchChunk(data []byte, limit int, final bool, fn func(Hash)) int {
	n := len(data)
	// Matches found in data[:stop] start before limit.
	stop := min(n, limit+len(refPrefix)-1)
	pos := 0
	for {
		j := bytes.Index(data[pos:stop], refPrefix)
		if j < 0 {
			return -1
		}
		i := pos + j
		end := i + RefLen
		if end > n || (end == n && !final) {
			// Not enough bytes to decide (digits or the boundary byte
			// are still to come).
			if final {
				return -1
			}
			return i
		}
		if end == n || !isLowerHex(data[end]) {
			if h, ok := decodeHex(data[i+len(RefPrefix) : end]); ok {
				fn(h)
			}
		}
		// The prefix cannot overlap itself, so the next candidate starts
		// after it (it may start inside a malformed digit run).
		pos = i + len(RefPrefix)
	}
}

// gzipMagic starts every gzip member.
var gzipMagic = []byte{0x1f, 0x8b}

// ScanFile scans one session file with Scan. A file that starts with the
// gzip magic bytes is decompressed (all members) whatever its name; a
// damaged gzip stream is an error. Only regular files are read (a FIFO or
// device named like a session file is an error, not a hang).
func ScanFile(path string, fn func(Hash)) error {
	_, err := scanFile(path, fn)
	return err
}

// scanFile scans path and returns the FileInfo of the opened file.
func scanFile(path string, fn func(Hash)) (os.FileInfo, error) {
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	return scanFileBuf(path, *bp, fn)
}

func scanFileBuf(path string, buf []byte, fn func(Hash)) (os.FileInfo, error) {
	// Stat first so that opening a FIFO cannot block.
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return st, fmt.Errorf("%s: not a regular file (%v)", path, st.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return st, err
	}
	defer f.Close()
	fst, err := f.Stat()
	if err != nil {
		return st, err
	}
	if !fst.Mode().IsRegular() {
		return fst, fmt.Errorf("%s: not a regular file (%v)", path, fst.Mode().Type())
	}
	var head [2]byte
	m, err := io.ReadFull(f, head[:])
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return fst, fmt.Errorf("%s: %w", path, err)
	}
	if m == 2 && bytes.Equal(head[:], gzipMagic) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fst, fmt.Errorf("%s: %w", path, err)
		}
		zr, err := gzip.NewReader(bufio.NewReaderSize(f, 256<<10))
		if err != nil {
			return fst, fmt.Errorf("%s: gzip: %w", path, err)
		}
		defer zr.Close()
		if err := scanBuf(zr, buf, fn); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = fmt.Errorf("truncated gzip stream: %w", err)
			}
			return fst, fmt.Errorf("%s: %w", path, err)
		}
		return fst, nil
	}
	r := io.MultiReader(bytes.NewReader(head[:m]), f)
	if err := scanBuf(r, buf, fn); err != nil {
		return fst, fmt.Errorf("%s: %w", path, err)
	}
	return fst, nil
}
