package jsonl

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// ParallelOptions configure ReadParallel.
type ParallelOptions struct {
	// Capture names the members captured from each object line (as
	// Reader.SetCapture). Of the raw value of the member holding the Sub
	// object only the first byte is kept (in Record.Top); its Sub captures
	// are kept whole.
	Capture *Capture
	// Workers is the number of validating goroutines (0: GOMAXPROCS).
	Workers int
	// ChunkSize is the size of the pieces the input is cut into, at line
	// boundaries. A line longer than a chunk is validated as it is read, on
	// the reading goroutine, and not kept (Record.Streamed). 0: the input
	// is read in pieces of ReadSize, and a piece that holds no line end
	// grows, up to ChunkSize, before its line is streamed.
	ChunkSize int
	// Keep reports whether a record's Raw bytes are kept in its batch. It
	// is called on a worker, in no particular order; a record not kept has
	// a nil Raw (its Size still gives its length). nil keeps every Raw.
	Keep func(rec *Record) bool
	// Inspect, when set, is called on a worker for each record of a chunk,
	// in file order within the chunk and before Keep, with the batch the
	// record goes to (its position there is len(b.Records)). The record's
	// captures still point into the chunk, the Sub member's raw value
	// included; a capture Inspect sets to nil is not copied into the batch.
	// What it derives can go to b.Aux, which fn sees with the batch. Lines
	// longer than a chunk (Record.Streamed) are not inspected.
	Inspect func(rec *Record, b *Batch)
	// InPlace lets the Raw, Top and Sub bytes of a batch point into the
	// input where ReadParallel maps it (a regular file, mapped.go) instead
	// of copies in the batch: they stay valid until ReadParallel returns
	// (not only until fn returns), and fn must not write to them. fn then
	// runs with memory faults turned into panics: one caused by the file
	// changing under the mapping ends the read with ErrFileChanged.
	InPlace bool
	// LongTop and LongSub, when above 0, limit what is captured of a line
	// longer than a chunk to the first LongTop members of Capture.Top and
	// the first LongSub of Capture.SubKeys (the others read as absent), for
	// callers that read only those of such a line: a captured member is
	// held whole, and a 200 MB message content must not be.
	LongTop, LongSub int
}

// NewReaderSize is NewReader with a read buffer of n bytes: for an input
// known to be small (a sniffed head), whose lines are read the same way.
func NewReaderSize(r io.Reader, n int) *Reader { return newReaderSize(r, max(n, 16)) }

// ChunkSize is the longest line ReadParallel's workers validate by
// default; a longer one is validated as it is read.
const ChunkSize = 4 << 20

// ReadSize is the size of ReadParallel's read buffers by default. Small
// buffers, reused, are still in the cache when the kernel copies the next
// piece of the file into them, and that piece is still in the cache when
// a worker scans it: on the 1 GiB pi session, 512 KiB instead of 4 MiB
// took the kernel's copy from 15 % of the CPU samples to 11 % and the
// workers' scan 5-9 % less time.
const ReadSize = 512 << 10

// readSize and maxChunk are ReadSize and ChunkSize; tests make them small.
var readSize, maxChunk = ReadSize, ChunkSize

// Batch is the records of one chunk, in file order. Their Raw, Top and Sub
// bytes live in the batch and stay valid until fn returns.
type Batch struct {
	Records []Record
	// Aux is the caller's, for ParallelOptions.Inspect: batches are
	// reused, and Aux is kept as fn left it.
	Aux     any
	arena   []byte
	slots   [][]byte
	inPlace bool // keep gives the bytes themselves (ParallelOptions.InPlace)
}

func (b *Batch) keep(p []byte) []byte {
	if p == nil {
		return nil
	}
	if b.inPlace {
		return p[:len(p):len(p)]
	}
	start := len(b.arena)
	b.arena = append(b.arena, p...)
	return b.arena[start:len(b.arena):len(b.arena)]
}

// ReadParallel reads r once, front to back, in chunks cut at line
// boundaries; workers split, classify, validate and capture the lines of
// each chunk exactly as a Reader in capture mode does (one Scanner per
// worker), and fn is called with each chunk's batch in file order on the
// caller's goroutine. Line numbers, offsets, BOM, CRLF and torn tails are
// those the Reader gives. It returns the first read error or fn's error.
func ReadParallel(r io.Reader, o ParallelOptions, fn func(*Batch) error) error {
	// A regular file is mapped (mapped.go), read otherwise.
	m := openMapping(r)
	err := readParallel(r, m, o, fn)
	if m != nil {
		m.close() // not when fn panicked: the workers may be at work on it
	}
	return err
}

func readParallel(r io.Reader, m *mapping, o ParallelOptions, fn func(*Batch) error) error {
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	size, maxSize := o.ChunkSize, o.ChunkSize // read buffer, longest line a worker gets
	if size <= 0 {
		size, maxSize = readSize, max(maxChunk, readSize)
	}
	// Free lists, not sync.Pools: a pool is emptied by every collection,
	// and an index pass allocates enough to collect often.
	freeBufs := make(chan *chunkBuf, 4*workers+2)
	getBuf := func() *chunkBuf {
		var cb *chunkBuf
		select {
		case cb = <-freeBufs:
		default:
			cb = sharedBuf(size)
		}
		cb.refs.Store(1)
		return cb
	}
	release := func(cb *chunkBuf) {
		if cb.refs.Add(-1) == 0 && len(cb.b) == size { // a grown buffer is left to the collector
			select {
			case freeBufs <- cb:
			default:
			}
		}
	}
	freeBatches := make(chan *Batch, 4*workers+2)
	getBatch := func() *Batch {
		select {
		case b := <-freeBatches:
			return b
		default:
			return sharedBatch()
		}
	}
	var cb0 *chunkBuf
	var n0 int
	if m != nil {
		if len(m.data) < size { // what a first read would find whole
			return m.inline(o, getBatch(), fn)
		}
	} else {
		// The first buffer is read here: an input that fits in it (most
		// session files of a listing) is split and scanned on the caller's
		// goroutine, without the reader, workers and hand-offs between them.
		cb0 = getBuf()
		var err0 error
		n0, err0 = io.ReadFull(r, cb0.b)
		if errors.Is(err0, io.EOF) || errors.Is(err0, io.ErrUnexpectedEOF) {
			b := getBatch()
			b.inPlace = false
			err := readInline(cb0.b[:n0], o, b, fn)
			cb0.refs.Store(0)
			putSharedBuf(cb0)
			return err
		}
		if err0 != nil {
			return err0
		}
	}
	order := make(chan *pjob, 2*workers)
	work := make(chan *pjob, 2*workers)
	quit := make(chan struct{})
	var readErr error

	p := &pipe{o: o, size: size, maxSize: maxSize, order: order, work: work, quit: quit,
		getBuf: getBuf, release: release, getBatch: getBatch}
	// The reader: cut the input into chunks of whole lines (at most
	// maxChunkLines each, so that a chunk of tiny lines does not make a
	// batch of millions of records).
	go func() {
		defer close(order)
		defer close(work)
		if m != nil {
			debug.SetPanicOnFault(true)
			defer func() {
				if e := recover(); e != nil {
					readErr = m.recovered(e)
				}
			}()
			readErr = m.cut(p)
			return
		}
		readErr = p.readChunks(r, cb0, n0)
	}()

	// The workers.
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m != nil {
				debug.SetPanicOnFault(true) // this goroutine's, which ends with the call
			}
			s := getScanner(o.Capture)
			for j := range work {
				inPlace := m != nil && o.InPlace
				if m == nil {
					scanJob(s, j, o, getBatch, inPlace, quit)
				} else if j.err = m.scan(s, j, o, getBatch, inPlace, quit); j.err != nil {
					s = NewScanner(o.Capture) // left mid-line
				}
				if j.buf != nil {
					release(j.buf)
				}
				close(j.out)
			}
			putScanner(s)
		}()
	}

	// The merge, in file order, on the caller's goroutine.
	call := fn
	if m != nil && o.InPlace { // fn reads the mapping
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		call = func(b *Batch) (err error) {
			defer func() {
				if p := recover(); p != nil {
					err = m.recovered(p)
				}
			}()
			return fn(b)
		}
	}
	var err error
	line := 0
	for j := range order {
		if err != nil {
			continue // drain (a job the reader gave up on is never done)
		}
		for b := range j.out {
			if err == nil {
				for i := range b.Records {
					b.Records[i].Line += line
				}
				line += len(b.Records)
				if err = call(b); err != nil {
					close(quit)
				}
			}
			b.Records, b.arena, b.slots = b.Records[:0], b.arena[:0], b.slots[:0]
			select {
			case freeBatches <- b:
			default:
			}
		}
		if err == nil && j.err != nil {
			err = j.err
			close(quit)
		}
		if m != nil {
			m.release(j.end)
		}
	}
	wg.Wait()
	for {
		select {
		case cb := <-freeBufs:
			putSharedBuf(cb)
			continue
		case b := <-freeBatches:
			putSharedBatch(b)
			continue
		default:
		}
		break
	}
	if err != nil {
		return err
	}
	if readErr == nil && m != nil && m.truncated() {
		return ErrFileChanged
	}
	return readErr
}

// pipe is what ReadParallel's reader needs: the options, buffer sizes,
// the channels to the merge and the workers and the free lists.
type pipe struct {
	o             ParallelOptions
	size, maxSize int // read buffer, longest line a worker gets
	order, work   chan *pjob
	quit          chan struct{}
	getBuf        func() *chunkBuf
	release       func(*chunkBuf)
	getBatch      func() *Batch
}

// send hands j to the merge (and to a worker): false when the merge quit.
func (p *pipe) send(j *pjob, toWorker bool) bool {
	select {
	case p.order <- j:
	case <-p.quit:
		return false
	}
	if toWorker {
		select {
		case p.work <- j:
		case <-p.quit:
			return false
		}
	}
	return true
}

// readChunks is the reader of an input read with read calls: cb0 holds
// its first n0 bytes (a full buffer).
func (p *pipe) readChunks(r io.Reader, cb0 *chunkBuf, n0 int) error {
	o, maxSize := p.o, p.maxSize
	getBuf, release, getBatch := p.getBuf, p.release, p.getBatch
	var offset int64
	first := true
	emit := func(cb *chunkBuf, data []byte) bool {
		if len(data) == 0 {
			return true
		}
		cb.refs.Add(1)
		if !p.send(&pjob{data: data, buf: cb, offset: offset, first: first, out: make(chan *Batch, jobBatches)}, true) {
			return false
		}
		offset += int64(len(data))
		first = false
		return true
	}
	cb := cb0
	carry := 0
	for {
		buf := cb.b
		var n int
		var err error
		if cb0 != nil { // read by the caller: a full buffer
			n, cb0 = n0, nil
		} else {
			n, err = io.ReadFull(r, buf[carry:])
		}
		data := buf[:carry+n]
		eof := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
		if err != nil && !eof {
			return err
		}
		if eof {
			emit(cb, data)
			release(cb)
			return nil
		}
		last := lastNewline(data)
		if last < 0 && len(buf) < maxSize {
			// No line end yet: read on into a larger buffer (no job
			// holds this one: it has no complete line).
			nb := &chunkBuf{b: make([]byte, min(2*len(buf), maxSize))}
			nb.refs.Store(1)
			carry = copy(nb.b, data)
			release(cb)
			cb = nb
			continue
		}
		if last < 0 {
			// A line longer than a chunk: validate it as it is read
			// (no job holds this buffer: it has no complete line).
			j := &pjob{offset: offset, first: first, out: make(chan *Batch, 1)}
			b := getBatch()
			b.inPlace = false
			head := data // the line's start, then what follows from r
			rest, size, e := streamLine(o.Capture, o.LongTop, o.LongSub, offset, first, b, func() ([]byte, error) {
				if head != nil {
					p := head
					head = nil
					return p, nil
				}
				n, err := r.Read(buf)
				return buf[:n], err
			})
			if e != nil {
				return e
			}
			j.out <- b
			close(j.out)
			if !p.send(j, false) {
				return nil
			}
			offset += size
			first = false
			carry = copy(buf, rest)
			continue
		}
		if !emit(cb, data[:last+1]) {
			return nil
		}
		nb := getBuf()
		if tail := len(data) - last - 1; 2*tail > len(nb.b) && len(nb.b) < maxSize {
			// the start of a long line (after a grown buffer): room
			// for it and as much again
			release(nb)
			nb = &chunkBuf{b: make([]byte, min(max(2*tail, 2*len(nb.b)), maxSize))}
			nb.refs.Store(1)
		}
		carry = copy(nb.b, data[last+1:])
		release(cb)
		cb = nb
	}
}

// readInline is ReadParallel for an input that fits in its first read
// buffer (data, read to its end): the chunks are split, scanned and
// handed to fn in order on the caller's goroutine, with the records the
// workers would give.
func readInline(data []byte, o ParallelOptions, b *Batch, fn func(*Batch) error) error {
	s := getScanner(o.Capture)
	line := 0
	var err error
	for start := 0; start < len(data) && err == nil; {
		start = scanLines(s, data, start, o, b, 0, true)
		for i := range b.Records {
			b.Records[i].Line += line
		}
		line += len(b.Records)
		err = fn(b)
		b.Records, b.arena, b.slots = b.Records[:0], b.arena[:0], b.slots[:0]
	}
	putSharedBatch(b)
	putScanner(s)
	return err
}

// sharedScanners keeps Scanners between ReadParallel calls (a listing
// makes three per file otherwise, each with its key tables).
var sharedScanners = make(chan *Scanner, 8)

// getScanner returns a kept Scanner of capture c, or a new one.
func getScanner(c *Capture) *Scanner {
	select {
	case s := <-sharedScanners:
		if s.f == c {
			return s
		}
	default:
	}
	return NewScanner(c)
}

// putScanner keeps s, which is between lines (a Scanner a fault stopped
// mid-line is not given back).
func putScanner(s *Scanner) {
	select {
	case sharedScanners <- s:
	default:
	}
}

// sharedBufs keeps default-size read buffers (ReadSize) between
// ReadParallel calls: a listing indexes thousands of files, most smaller
// than a buffer, and a fresh zeroed buffer per file costs more than
// reading the file.
var sharedBufs = make(chan *chunkBuf, 16)

func sharedBuf(size int) *chunkBuf {
	if size == ReadSize {
		select {
		case cb := <-sharedBufs:
			return cb
		default:
		}
	}
	return &chunkBuf{b: make([]byte, size)}
}

// sharedBatches keeps batches between ReadParallel calls, with the
// capacity their records, captures and arena grew to.
var sharedBatches = make(chan *Batch, 16)

func sharedBatch() *Batch {
	select {
	case b := <-sharedBatches:
		return b
	default:
		return &Batch{}
	}
}

func putSharedBatch(b *Batch) {
	if cap(b.arena) > 2<<20 {
		return // not kept: a batch of long lines
	}
	b.Records, b.arena, b.slots, b.Aux, b.inPlace = b.Records[:0], b.arena[:0], b.slots[:0], nil, false
	select {
	case sharedBatches <- b:
	default:
	}
}

func putSharedBuf(cb *chunkBuf) {
	if len(cb.b) != ReadSize || cb.refs.Load() != 0 {
		return
	}
	select {
	case sharedBufs <- cb:
	default:
	}
}

// pjob is one chunk of ReadParallel: whole lines of one read buffer (or
// of a mapping's window, or a line longer than a chunk).
type pjob struct {
	data   []byte // whole lines (the last one may lack its newline)
	buf    *chunkBuf
	offset int64
	first  bool        // the chunk starts the input (line 1)
	out    chan *Batch // its batches, in order, as they are scanned; closed when done
	end    int64       // a mapped job's end: offset + its bytes
	err    error       // a mapped job's scan failed (mapping.scan); set before out is closed
}

// jobBatches is how many scanned batches of a job may wait for the merge:
// a chunk of tiny lines makes many batches, which are not all held at once.
const jobBatches = 1

// chunkBuf is a read buffer shared by the jobs cut from it.
type chunkBuf struct {
	b    []byte
	refs atomic.Int32
}

// maxChunkLines bounds the lines of one batch.
const maxChunkLines = 8192

// scanJob scans the lines of job j into batches of at most maxChunkLines
// lines each, handed to the merge on j.out as they are done (until quit).
func scanJob(s *Scanner, j *pjob, o ParallelOptions, getBatch func() *Batch, inPlace bool, quit <-chan struct{}) {
	for start := 0; start < len(j.data); {
		b := getBatch()
		b.inPlace = inPlace
		start = scanLines(s, j.data, start, o, b, j.offset, j.first)
		select {
		case j.out <- b:
		case <-quit:
			return
		}
	}
}

// scanLines classifies, validates and captures the lines of data from
// start into b, at most maxChunkLines of them, with line numbers counted
// from 1 within the batch, and returns where it stopped. data starts at
// offset of the input, and first is set when that is the input's start.
// A line's end is found by its scan (Scanner.scanLine), not looked for
// before: a valid value followed by white space and '\n' (or the end of
// data) ends there. Any other line (blank, malformed, NUL, torn, a value
// broken by a '\n') is found with IndexByte and, when its end was found
// by the scan, classified without a second scan (classifyInvalid: the scan
// of the line over the rest of data fails exactly when its scan alone
// does, as a '\n' is no white space to a Scanner and ends every scan);
// its record is the same either way. A value that broke off at the '\n'
// itself (a pretty-printed or crafted value spanning lines) makes its line
// Malformed at once.
func scanLines(s *Scanner, data []byte, start int, o ParallelOptions, b *Batch, offset int64, first bool) int {
	pos := start
	byScan := lineEndsByScan
	for line := 1; line <= maxChunkLines && pos < len(data); line++ {
		var raw []byte
		var nl, cr, bom bool
		kind := Kind(0)
		from := pos // where the line's value may start: past a BOM
		if first && pos == 0 && bytes.HasPrefix(data, BOM) {
			bom, from = true, len(BOM)
		}
		scanned := false // the line's scan failed: no valid value
		if byScan {
			end, ok := s.scanLine(data, from)
			scanned = !ok
			if ok {
				raw, nl = data[pos:end], end < len(data)
				cr = end > pos && data[end-1] == '\r'
				kind = NonObject
				if s.object {
					kind = Object
				}
			} else if end < len(data) && data[end] == '\n' && skipSpace(data, from) < end {
				// The value broke off at the line's '\n' (it would span
				// lines): every byte before it was scanned as JSON (no
				// NUL), and not all as white space, so the line is
				// Malformed, as classifyScan would find it.
				raw, nl = data[pos:end], true
				cr = end > pos && data[end-1] == '\r'
				kind = Malformed
			}
		}
		if kind == 0 {
			raw = data[pos:]
			if i := bytes.IndexByte(raw, '\n'); i >= 0 {
				raw, nl = raw[:i], true
				cr = i > 0 && raw[i-1] == '\r'
			} else if len(raw) > 0 && raw[len(raw)-1] == '\r' {
				cr = true // a last line without newline (Record.Body drops its '\r' too)
			}
		}
		size := len(raw)
		if nl {
			size++
		}
		if kind == 0 {
			body := raw
			if bom {
				body = body[len(BOM):]
			}
			if cr && len(body) > 0 { // rec.Body(), without reading the line's last byte again
				body = body[:len(body)-1]
			}
			if scanned {
				kind = classifyInvalid(body, nl)
			} else {
				kind = classifyScan(s, body, nl)
			}
		}
		// The record is built in its place in the batch, past b.Records
		// (Inspect sees the batch as it was before it), every field
		// written once (setLine): no record zeroed and then copied.
		n := len(b.Records)
		if n == cap(b.Records) {
			b.Records = append(b.Records, Record{})[:n]
		}
		rec := &b.Records[:n+1][n]
		setLine(rec, line, offset+int64(pos), raw, nl, int64(size), bom, nl && cr, kind)
		pos += size
		if kind == Object {
			rec.Top, rec.Sub = s.Top, s.Sub
		}
		if o.Inspect != nil {
			o.Inspect(rec, b)
		}
		if o.Keep != nil && !o.Keep(rec) {
			rec.Raw = nil
		} else if !b.inPlace && raw != nil {
			rec.Raw = b.keep(raw)
		} else if raw != nil {
			rec.Raw = raw[:len(raw):len(raw)]
		}
		if rec.Top != nil {
			b.captures(rec, s.subSlot)
		}
		b.Records = b.Records[:n+1]
	}
	return pos
}

// setLine sets every field of *rec: those of a line given, the others
// zero (rec is a reused record of a batch). TestSetLineAllFields checks
// that it leaves none as it was.
func setLine(rec *Record, line int, offset int64, raw []byte, nl bool, size int64, bom, crlf bool, kind Kind) {
	rec.Line, rec.Offset, rec.Raw, rec.Newline = line, offset, raw, nl
	rec.Kind, rec.BOM, rec.CRLF, rec.Value = kind, bom, crlf, nil
	rec.Top, rec.Sub, rec.Size, rec.Streamed = nil, nil, size, false
}

// lineEndsByScan: scanLines lets the scan find the lines' ends (tests
// turn it off to compare with the lines found first).
var lineEndsByScan = true

// add appends rec with its captures copied into b (of the Sub member's
// raw value only the first byte); rec's Top and Sub are changed to those
// copies.
func (b *Batch) add(rec *Record, subSlot int) {
	if rec.Top != nil {
		b.captures(rec, subSlot)
	}
	b.Records = append(b.Records, Record{})
	copyRecord(&b.Records[len(b.Records)-1], rec)
}

// captures copies rec's captures (rec.Top is not nil) into b.slots (of
// the Sub member's raw value only the first byte) and points rec's Top
// and Sub at those copies.
func (b *Batch) captures(rec *Record, subSlot int) {
	top, sub := rec.Top, rec.Sub
	at := len(b.slots)
	end := at + len(top) + len(sub)
	if end > cap(b.slots) {
		b.slots = append(b.slots[:cap(b.slots)], make([][]byte, end-cap(b.slots))...)
	}
	slots := b.slots[at:end:end]
	dst, rest := slots[:len(top)], slots[len(top):]
	if b.inPlace {
		for k, v := range top {
			if v != nil {
				v = v[:len(v):len(v)]
				if k == subSlot && len(v) > 0 {
					v = v[:1:1] // its first byte tells its kind; Sub holds what is captured of it
				}
			}
			dst[k] = v
		}
		rest = rest[:len(sub)]
		for k, v := range sub {
			if v != nil {
				v = v[:len(v):len(v)]
			}
			rest[k] = v
		}
	} else {
		for k, v := range top {
			if k == subSlot && len(v) > 0 {
				v = v[:1] // its first byte tells its kind; Sub holds what is captured of it
			}
			dst[k] = b.keep(v)
		}
		rest = rest[:len(sub)]
		for k, v := range sub {
			rest[k] = b.keep(v)
		}
	}
	b.slots = b.slots[:end]
	rec.Top, rec.Sub = dst, rest
}

// copyRecord sets *dst to *src field by field (see scanChunk: *dst = *src
// would load src in wider words than its fields were just stored in).
// TestCopyRecordAllFields checks that it copies every field.
func copyRecord(dst, src *Record) {
	dst.Line, dst.Offset, dst.Raw, dst.Newline = src.Line, src.Offset, src.Raw, src.Newline
	dst.Kind, dst.BOM, dst.CRLF, dst.Value = src.Kind, src.BOM, src.CRLF, src.Value
	dst.Top, dst.Sub, dst.Size, dst.Streamed = src.Top, src.Sub, src.Size, src.Streamed
}

// streamLine validates a line longer than a chunk, starting at offset of
// the input, as next gives it a piece at a time (the first piece starts
// the line; the last one holds its newline or ends with io.EOF). It adds
// the line's record (Streamed, line 1) to b and returns the bytes of the
// last piece after the line and the line's size. The reader of read calls
// and the mapping's (mapping.streamLine) differ only in their pieces.
func streamLine(c *Capture, longTop, longSub int, offset int64, first bool, b *Batch, next func() ([]byte, error)) (rest []byte, size int64, err error) {
	st := newStreamScanner(c)
	st.keepTop, st.keepSub = longTop, longSub
	rec := Record{Line: 1, Offset: offset, Streamed: true}
	var last byte
	nl := false
	for start := true; ; start = false {
		piece, e := next()
		if start && first && bytes.HasPrefix(piece, BOM) {
			rec.BOM = true
			size += int64(len(BOM))
			piece = piece[len(BOM):]
		}
		if i := bytes.IndexByte(piece, '\n'); i >= 0 {
			rest, nl = piece[i+1:], true
			piece = piece[:i]
			size++
		}
		if len(piece) > 0 {
			st.Write(piece)
			last = piece[len(piece)-1]
			size += int64(len(piece))
		}
		if nl || errors.Is(e, io.EOF) {
			break
		}
		if e != nil {
			return nil, 0, e
		}
	}
	rec.Newline, rec.Size = nl, size
	rec.CRLF = nl && last == '\r'
	streamedKind(st, &rec)
	b.add(&rec, st.subSlot)
	return rest, size, nil
}
