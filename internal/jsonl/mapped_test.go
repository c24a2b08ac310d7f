package jsonl

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// batchRecs is what ReadParallel gave: each batch's records, in order.
type batchRecs [][]parallelRec

// inPlace sets ParallelOptions.InPlace for readBatches.
var inPlace bool

func readBatches(t *testing.T, r io.Reader, workers int, fn func(n int)) (batchRecs, error) {
	t.Helper()
	var out batchRecs
	err := ReadParallel(r, ParallelOptions{Capture: fuzzCapture, Workers: workers, InPlace: inPlace}, func(b *Batch) error {
		var recs []parallelRec
		for i := range b.Records {
			r := &b.Records[i]
			x := recOf(r, !r.Streamed)
			x.Streamed = r.Streamed
			recs = append(recs, x)
		}
		out = append(out, recs)
		if fn != nil {
			fn(len(out))
		}
		return nil
	})
	return out, err
}

// mapSmall makes files of any size mapped, with small buffers.
func mapSmall(t testing.TB, read, chunk int) {
	growSizes(t, read, chunk)
	m := minMap
	minMap = 1
	t.Cleanup(func() { minMap = m })
}

func writeTemp(t testing.TB, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readMappedFile reads path from pos through ReadParallel, which must map
// it when mapped is set.
func readMappedFile(t *testing.T, path string, pos int64, workers int, mapped bool, fn func(n int, f *os.File)) (batchRecs, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(pos, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	before := mapsOpened.Load()
	var cb func(int)
	if fn != nil {
		cb = func(n int) { fn(n, f) }
	}
	got, err := readBatches(t, f, workers, cb)
	if m := mapsOpened.Load() > before; m != mapped {
		t.Fatalf("mapped %v, want %v", m, mapped)
	}
	if err == nil {
		if at, _ := f.Seek(0, io.SeekCurrent); at != int64(len(mustRead(t, path))) && fn == nil {
			t.Fatalf("read position %d after the read, want the end", at)
		}
	}
	return got, err
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mappedInputs: lines shorter than a read buffer, longer (the buffer
// grows), longer than a chunk (streamed), CRLF, BOM, blank and bad lines,
// a torn last line; a file of one line without newline, of one long line,
// one line ending at a buffer's end.
func mappedInputs() map[string][]byte {
	line := func(n int) string {
		return `{"type":"message","id":"x","message":{"role":"user","content":"` + strings.Repeat("y", n) + `"}}` + "\n"
	}
	var b strings.Builder
	b.WriteString("\xef\xbb\xbf" + `{"type":"session","id":"s"}` + "\r\n")
	for i := 0; i < 400; i++ {
		b.WriteString(line([]int{3, 40, 100, 300, 450, 600, 2000, 10, 5000}[i%9] + i%5))
		if i%37 == 0 {
			b.WriteString("\n  \nnot json\r\n[1,2]\n")
		}
	}
	b.WriteString(`{"type":"message","id":"torn","message":{"role":"user","content":"` + strings.Repeat("z", 700))
	exact := line(128 - len(line(0))) // two read buffers exactly
	return map[string][]byte{
		"mixed":          []byte(b.String()),
		"one short line": []byte(`{"type":"session"}`),
		"one long line":  []byte(`{"type":"message","message":{"content":"` + strings.Repeat("q", 3000) + `"}}`),
		"long with nl":   []byte(`{"type":"message","message":{"content":"` + strings.Repeat("q", 3000) + `"}}` + "\r\n"),
		"buffer ends":    []byte(strings.Repeat(exact, 40)),
		"tiny lines":     []byte(strings.Repeat("{}\n", 30000)),
	}
}

// TestMappedSameBatches: a mapped file gives the batches, records and
// captures the read calls give, batch for batch, from any read position.
func TestMappedSameBatches(t *testing.T) {
	mapSmall(t, 64, 512)
	for name, data := range mappedInputs() {
		path := writeTemp(t, data)
		for _, pos := range []int64{0, 1, 70, int64(len(data) / 2)} {
			if pos > int64(len(data)) {
				continue
			}
			for w := 1; w <= 3; w++ {
				want, err := readBatches(t, bytes.NewReader(data[pos:]), w, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, err := readMappedFile(t, path, pos, w, pos < int64(len(data)), nil)
				if err != nil {
					t.Fatalf("%s from %d: %v", name, pos, err)
				}
				if !reflect.DeepEqual(want, got) {
					t.Fatalf("%s from %d, %d workers: mapped batches differ\nread   %v\nmapped %v", name, pos, w, want, got)
				}
			}
		}
	}
}

// TestMappedDefaultSizes: the same with the default buffer sizes, a file
// smaller than a buffer (read inline) and one of many chunks with a line
// longer than a chunk.
func TestMappedDefaultSizes(t *testing.T) {
	small := bytes.Repeat([]byte(`{"type":"message","id":"a","parentId":"b","message":{"role":"user","id":"m"}}`+"\n"), 1000)
	var big bytes.Buffer
	for big.Len() < 3*ReadSize {
		big.Write(small)
	}
	big.WriteString(`{"type":"message","message":{"role":"user","content":"` + strings.Repeat("y", ChunkSize+100) + `"}}` + "\n")
	big.Write(small)
	for _, data := range [][]byte{small, big.Bytes()} {
		want, err := readBatches(t, bytes.NewReader(data), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readMappedFile(t, writeTemp(t, data), 0, 2, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%d bytes: mapped batches differ", len(data))
		}
	}
}

// TestMappedEmpty: an empty file is read (nothing to map) and gives nothing.
func TestMappedEmpty(t *testing.T) {
	mapSmall(t, 64, 512)
	got, err := readMappedFile(t, writeTemp(t, nil), 0, 2, false, nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("%v %v", got, err)
	}
}

// TestMappedGrown: bytes appended while a mapped file is read are not read:
// the records are those of the file as it was (a torn last line stays
// torn), with no error.
func TestMappedGrown(t *testing.T) {
	mapSmall(t, 64, 512)
	for _, name := range []string{"mixed", "tiny lines", "one short line"} {
		data := mappedInputs()[name]
		path := writeTemp(t, data)
		want, err := readBatches(t, bytes.NewReader(data), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readMappedFile(t, path, 0, 2, true, func(n int, f *os.File) {
			if n == 1 {
				w, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Error(err)
					return
				}
				w.WriteString(`"}}` + "\n" + strings.Repeat(`{"type":"label"}`+"\n", 5000))
				w.Close()
			}
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%s: records of the grown file differ from the file's at the start", name)
		}
	}
}

// TestMappedTruncated: a mapped file truncated while it is read (to
// nothing, or by a few bytes, within its last page) ends the read with
// ErrFileChanged, without a crash, whether the pages past the new end are
// still to be scanned (a fault) or were scanned already.
func TestMappedTruncated(t *testing.T) {
	mapSmall(t, 64, 512)
	var big bytes.Buffer
	for i := 0; big.Len() < 4<<20; i++ {
		big.WriteString(`{"type":"message","id":"` + strings.Repeat("i", i%50) + `","message":{"role":"user"}}` + "\n")
	}
	inputs := map[string][]byte{"mixed": mappedInputs()["mixed"], "big": big.Bytes(), "small": []byte(strings.Repeat("{}\n", 100))}
	for name, data := range inputs {
		for _, cut := range []int64{0, int64(len(data)) / 3, int64(len(data)) - 5} {
			path := writeTemp(t, data)
			_, err := readMappedFile(t, path, 0, 2, true, func(n int, f *os.File) {
				if n == 1 {
					if err := os.Truncate(path, cut); err != nil {
						t.Error(err)
					}
				}
			})
			if !errors.Is(err, ErrFileChanged) {
				t.Fatalf("%s cut to %d: err %v, want ErrFileChanged", name, cut, err)
			}
		}
	}
}

// TestMappedNotRegular: a pipe is read, not mapped.
func TestMappedNotRegular(t *testing.T) {
	mapSmall(t, 64, 512)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	data := mappedInputs()["mixed"]
	go func() { w.Write(data); w.Close() }()
	before := mapsOpened.Load()
	got, err := readBatches(t, r, 2, nil)
	r.Close()
	if err != nil || mapsOpened.Load() != before {
		t.Fatalf("err %v, mapped %v", err, mapsOpened.Load() != before)
	}
	var n int
	for _, b := range got {
		n += len(b)
	}
	if want := readSerial(data); n != len(want) {
		t.Fatalf("%d records, want %d", n, len(want))
	}
}

// FuzzParallelMapped: for any input, position and sizes, a mapped file
// gives the batches the read calls give.
func FuzzParallelMapped(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, uint8(3), uint8(2), uint8(0))
	}
	for _, s := range mappedInputs() {
		if len(s) < 10000 {
			f.Add(s, uint8(0), uint8(3), uint8(5))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, read, grow, pos uint8) {
		if maxDepth(data) >= 299 {
			return
		}
		r := 16 + int(read)%64
		mapSmall(t, r, r*(1+int(grow)%8))
		p := min(int64(pos), int64(len(data)))
		want, err := readBatches(t, bytes.NewReader(data[p:]), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readMappedFile(t, writeTemp(t, data), p, 2, p < int64(len(data)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("mapped batches differ\nread   %v\nmapped %v", want, got)
		}
	})
}

// withInPlace runs f with ParallelOptions.InPlace set, then unset.
func withInPlace(f func()) {
	inPlace = true
	defer func() { inPlace = false }()
	f()
}

// TestMappedInPlace: batches whose bytes point into the mapping
// (ParallelOptions.InPlace) hold the records the copies hold, and a file
// truncated while fn reads them ends the read with ErrFileChanged (the
// fault in fn is recovered), not a crash.
func TestMappedInPlace(t *testing.T) {
	mapSmall(t, 64, 512)
	for name, data := range mappedInputs() {
		want, err := readBatches(t, bytes.NewReader(data), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got batchRecs
		withInPlace(func() { got, err = readMappedFile(t, writeTemp(t, data), 0, 2, true, nil) })
		if err != nil || !reflect.DeepEqual(want, got) {
			t.Fatalf("%s: in place: err %v, same %v", name, err, reflect.DeepEqual(want, got))
		}
	}
	var big bytes.Buffer
	for i := 0; big.Len() < 4<<20; i++ {
		big.WriteString(`{"type":"label","id":"` + strings.Repeat("i", i%50) + `"}` + "\n")
	}
	for _, data := range [][]byte{big.Bytes(), []byte(strings.Repeat("{}\n", 100))} {
		path := writeTemp(t, data)
		var err error
		withInPlace(func() {
			_, err = readMappedFile(t, path, 0, 2, true, func(n int, f *os.File) {
				if n == 1 {
					if err := os.Truncate(path, 0); err != nil {
						t.Error(err)
					}
				}
			})
		})
		if !errors.Is(err, ErrFileChanged) {
			t.Fatalf("%d bytes truncated: err %v, want ErrFileChanged", len(data), err)
		}
	}
}

// TestMappedPanicGoesOn: a panic in fn while the file is unchanged is not
// taken for a change of the file: it reaches the caller.
func TestMappedPanicGoesOn(t *testing.T) {
	mapSmall(t, 64, 512)
	for _, in := range []bool{false, true} {
		f, err := os.Open(writeTemp(t, mappedInputs()["mixed"]))
		if err != nil {
			t.Fatal(err)
		}
		got := func() (p any) {
			defer func() { p = recover() }()
			ReadParallel(f, ParallelOptions{Capture: fuzzCapture, InPlace: in}, func(b *Batch) error { panic("boom") })
			return nil
		}()
		f.Close()
		if got != "boom" {
			t.Fatalf("in place %v: recovered %v, want boom", in, got)
		}
	}
}

// faultAt is a panic value like the runtime's for a memory fault.
type faultAt uintptr

func (f faultAt) Addr() uintptr { return uintptr(f) }
func (f faultAt) Error() string { return "fault" }

// TestMappedRecovered: a fault inside the mapping of an unchanged file (an
// I/O error under it) is an error, ErrMapRead; a fault elsewhere and any
// other panic go on.
func TestMappedRecovered(t *testing.T) {
	mapSmall(t, 64, 512)
	f, err := os.Open(writeTemp(t, mappedInputs()["mixed"]))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := openMapping(f)
	if m == nil {
		t.Fatal("not mapped")
	}
	defer m.close()
	if err := m.recovered(faultAt(m.lo + 5)); !errors.Is(err, ErrMapRead) {
		t.Fatalf("fault in the mapping: %v", err)
	}
	for _, p := range []any{faultAt(m.hi), faultAt(m.lo - 1), "boom"} {
		got := func() (r any) {
			defer func() { r = recover() }()
			m.recovered(p)
			return nil
		}()
		if got != p {
			t.Fatalf("%v: recovered %v, want it to go on", p, got)
		}
	}
}
