package jsonl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"runtime/debug"
	"sync/atomic"
	"unsafe"
)

// ErrFileChanged is returned by ReadParallel when the file it read through
// a memory mapping was truncated (or rewritten in place and the reading
// failed) while it was read: what was read of it cannot be trusted.
var ErrFileChanged = errors.New("the file was truncated or rewritten while it was read")

// ErrMapRead is returned by ReadParallel when the system could not give
// a page of a file it read through a memory mapping (an I/O error).
var ErrMapRead = errors.New("the file could not be read (fault in its memory mapping)")

// noMap turns mappings off (tests compare both ways of reading).
var noMap = false

// minMap is the smallest input ReadParallel maps rather than reads (tests
// make it small); above maxMap it reads (the mapping must fit the address
// space).
var minMap int64 = 16 << 10

const maxMap = 1 << 40

// mapsOpened counts the inputs read through a mapping (for tests).
var mapsOpened atomic.Int64

// dropStep is how far the pages already read of a mapping may run ahead
// of the dropped ones before they are dropped (see mapping.release).
const dropStep = 4 << 20

// mapping is a regular file mapped read-only for ReadParallel, from its
// read position at the call to its size then. Reading a mapped file is
// reading it as it was when the call started: bytes appended later are
// not read (pi's Open takes the size at the same time). The kernel copies
// nothing: the workers scan the file's cached pages in place.
//
// A file truncated under the mapping faults on the pages past its new
// end: the goroutines that touch the mapping (reader, workers, the
// caller's inline pass) turn faults into panics (debug.SetPanicOnFault)
// and recover them as ErrFileChanged when the file did change (a fault
// in the mapping of an unchanged file, an I/O error, as ErrMapRead; any
// other panic while the file is unchanged is a bug and goes on). Bytes of the last
// page past a new end read as zeros, without a fault: a final fstat
// catches that truncation too.
type mapping struct {
	f       *os.File
	st      os.FileInfo
	all     []byte // the mapping, from a page boundary
	skip    int    // where the input starts in all
	data    []byte // the input: all[skip:]
	pos     int64  // the file's read position at the start
	page    int
	dropped int     // all's pages before this were dropped (release)
	lo, hi  uintptr // the mapping's addresses
}

// openMapping maps r when it is a regular file worth mapping, else nil.
func openMapping(r io.Reader) *mapping {
	f, ok := r.(*os.File)
	if !ok || !canMap || noMap {
		return nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	size := st.Size()
	if size-pos < minMap || size > maxMap {
		return nil
	}
	page := os.Getpagesize()
	base := pos &^ int64(page-1)
	all, err := mapBytes(f, base, int(size-base))
	if err != nil {
		return nil
	}
	skip := int(pos - base)
	mapsOpened.Add(1)
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(all)))
	return &mapping{f: f, st: st, all: all, skip: skip, data: all[skip:], pos: pos, page: page, lo: lo, hi: lo + uintptr(len(all))}
}

// close unmaps the file and leaves its read position at the end of what
// was read, as reading it to its end would.
func (m *mapping) close() {
	end := m.pos + int64(len(m.data))
	unmapBytes(m.all)
	m.all, m.data = nil, nil
	_, _ = m.f.Seek(end, io.SeekStart)
}

// changed reports whether the file is not the one mapped: shorter than
// the mapping, or modified since (or gone).
func (m *mapping) changed() bool {
	st, err := m.f.Stat()
	return err != nil || st.Size() < m.pos+int64(len(m.data)) || !st.ModTime().Equal(m.st.ModTime())
}

// truncated reports whether the file is now shorter than the mapping.
func (m *mapping) truncated() bool {
	st, err := m.f.Stat()
	return err != nil || st.Size() < m.pos+int64(len(m.data))
}

// recovered is the error for a panic p recovered while the mapping was
// read: ErrFileChanged when the file changed (a fault past a new end, or
// bytes changed between the scan and the inspection of a line); a fault
// in the mapping of an unchanged file is the system failing to read it (an
// I/O error, which read calls would have returned), given as ErrMapRead;
// any other panic was not caused by the file and goes on.
func (m *mapping) recovered(p any) error {
	if m.changed() {
		return ErrFileChanged
	}
	if f, ok := p.(interface{ Addr() uintptr }); ok && f.Addr() >= m.lo && f.Addr() < m.hi {
		return fmt.Errorf("%s: %w", m.f.Name(), ErrMapRead)
	}
	panic(p)
}

// release drops the pages of the input before offset end (a job's end:
// every job before it is done) once they are dropStep past the last drop,
// so that the resident set of a large file stays a few chunks.
func (m *mapping) release(end int64) {
	to := (m.skip + int(end)) &^ (m.page - 1)
	if to-m.dropped >= dropStep {
		dropPages(m.all[m.dropped:to])
		m.dropped = to
	}
}

// dropInside drops the whole pages of the input in [from, to) (a line
// longer than a chunk, fed to its scanner, which no job shares).
func (m *mapping) dropInside(from, to int) {
	a := (m.skip + from + m.page - 1) &^ (m.page - 1)
	b := (m.skip + to) &^ (m.page - 1)
	if b > a {
		dropPages(m.all[a:b])
	}
}

// inline is readInline over the whole mapped input, on the caller's
// goroutine.
func (m *mapping) inline(o ParallelOptions, b *Batch, fn func(*Batch) error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if p := recover(); p != nil {
			err = m.recovered(p)
		}
	}()
	b.inPlace = o.InPlace
	if err = readInline(m.data, o, b, fn); err == nil && m.truncated() {
		err = ErrFileChanged
	}
	return err
}

// scan is scanJob for a job of the mapping, with a fault (or a panic
// while the file changed) returned as an error.
func (m *mapping) scan(s *Scanner, j *pjob, o ParallelOptions, getBatch func() *Batch, inPlace bool, quit <-chan struct{}) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = m.recovered(p)
		}
	}()
	scanJob(s, j, o, getBatch, inPlace, quit)
	return nil
}

// streamLine is streamLine for a line of the mapping longer than a chunk,
// starting at p: its pieces are slices of the mapping, and the pages fed
// are dropped as it goes. It adds the line's record to b and returns the
// line's size.
func (m *mapping) streamLine(p int, c *Capture, longTop, longSub int, first bool, b *Batch) int64 {
	data := m.data[p:]
	pos, fed := 0, 0 // fed: where the last drop ended
	_, size, _ := streamLine(c, longTop, longSub, int64(p), first, b, func() ([]byte, error) {
		if pos-fed >= dropStep { // the pieces before pos were fed
			m.dropInside(p+fed, p+pos)
			fed = pos
		}
		piece := data[pos:min(pos+streamPiece, len(data))]
		pos += len(piece)
		if pos == len(data) {
			return piece, io.EOF
		}
		return piece, nil
	})
	return size
}

// streamPiece is how much of a long line is given to its scanner at once.
const streamPiece = 512 << 10

// cut is the reader of a mapped input: it cuts the input into the jobs
// the reader of read calls (pipe.readChunks) would, as if each read filled
// its buffer, which a regular file's read does: same chunks, same lines
// streamed, same batches.
func (m *mapping) cut(p *pipe) error {
	o, size, maxSize := p.o, p.size, p.maxSize
	data := m.data
	pos, n := 0, size // where the next buffer starts, its size
	emit := func(end int) bool {
		if end == pos {
			return true
		}
		return p.send(&pjob{data: data[pos:end], offset: int64(pos), first: pos == 0, end: int64(end), out: make(chan *Batch, jobBatches)}, true)
	}
	for {
		if len(data)-pos < n { // a read would reach the end
			emit(len(data))
			return nil
		}
		buf := data[pos : pos+n]
		last := lastNewline(buf)
		if last < 0 && n < maxSize {
			n = min(2*n, maxSize)
			continue
		}
		if last < 0 {
			j := &pjob{offset: int64(pos), first: pos == 0, out: make(chan *Batch, 1)}
			b := p.getBatch()
			b.inPlace = false // the captures are the stream scanner's
			l := m.streamLine(pos, o.Capture, o.LongTop, o.LongSub, pos == 0, b)
			j.end = int64(pos) + l
			j.out <- b
			close(j.out)
			if !p.send(j, false) {
				return nil
			}
			pos += int(l) // the buffer keeps its size
			continue
		}
		if !emit(pos + last + 1) {
			return nil
		}
		pos += last + 1
		tail := n - last - 1
		n = size
		if 2*tail > size && size < maxSize {
			n = min(max(2*tail, 2*size), maxSize)
		}
	}
}

// lastNewline is bytes.LastIndexByte(b, '\n') (a plain loop, a byte a
// step), eight bytes a step: the reader's cut looks back from a buffer's
// end for the last line end, and the line cut there is as often long as
// the buffer is wide (its mapping's cut was 0.9 % of list's samples).
func lastNewline(b []byte) int {
	const low7 = lsb * 0x7f
	i := len(b)
	for ; i >= 32; i -= 32 {
		// x's zero bytes are the '\n' bytes of a word; nl(x) has the high
		// bit of each of them (exactly: no borrow runs between bytes).
		w := (*[32]byte)(b[i-32 : i])
		x0 := binary.LittleEndian.Uint64(w[0:]) ^ (lsb * '\n')
		x1 := binary.LittleEndian.Uint64(w[8:]) ^ (lsb * '\n')
		x2 := binary.LittleEndian.Uint64(w[16:]) ^ (lsb * '\n')
		x3 := binary.LittleEndian.Uint64(w[24:]) ^ (lsb * '\n')
		y0 := (x0&low7 + low7) | x0
		y1 := (x1&low7 + low7) | x1
		y2 := (x2&low7 + low7) | x2
		y3 := (x3&low7 + low7) | x3
		if y0&y1&y2&y3|low7 != ^uint64(0) {
			break // a '\n' in these 32 bytes: found a word at a time below
		}
	}
	for ; i >= 8; i -= 8 {
		x := binary.LittleEndian.Uint64(b[i-8:i]) ^ (lsb * '\n')
		if y := ^((x&low7 + low7) | x | low7); y != 0 {
			return i - 8 + (63-bits.LeadingZeros64(y))>>3
		}
	}
	for i > 0 {
		i--
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}
