package jsonl

import (
	"reflect"
	"strings"
	"testing"
)

// growSizes sets small default read and chunk sizes for a test.
func growSizes(t testing.TB, read, chunk int) {
	r, c := readSize, maxChunk
	readSize, maxChunk = read, chunk
	t.Cleanup(func() { readSize, maxChunk = r, c })
}

// FuzzParallelGrow is FuzzParallel with the default sizes made small: read
// buffers of 16-79 bytes that grow, up to 1-8 times that, for a line
// without its end, and stream a longer one. Records must be the serial
// Reader's.
func FuzzParallelGrow(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, uint8(3), uint8(2), uint8(1))
	}
	f.Add([]byte(strings.Repeat(`{"type":"message","id":"a","message":{"role":"user"}}`+"\n", 9)+`{"a":"`+strings.Repeat("x", 300)+`"}`+"\n{}\n"), uint8(0), uint8(3), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, read, grow, workers uint8) {
		if maxDepth(data) >= 299 {
			return
		}
		r := 16 + int(read)%64
		growSizes(t, r, r*(1+int(grow)%8))
		compareRecs(t, data, readSerial(data), readPar(t, data, 1+int(workers)%3, 0))
	})
}

// TestParallelGrow: lines shorter than a read buffer, longer than one but
// not than a chunk (the buffer grows, the line goes to a worker whole),
// and longer than a chunk (streamed), in every order, a torn one last.
func TestParallelGrow(t *testing.T) {
	growSizes(t, 64, 512)
	line := func(n int) string {
		return `{"type":"message","id":"x","message":{"role":"user","content":"` + strings.Repeat("y", n) + `"}}` + "\n"
	}
	var b strings.Builder
	for i := 0; i < 300; i++ {
		b.WriteString(line([]int{3, 40, 100, 300, 450, 600, 2000, 10}[i%8] + i%5))
	}
	b.WriteString(`{"type":"message","id":"torn","message":{"role":"user","content":"` + strings.Repeat("z", 700))
	data := []byte(b.String())
	want := readSerial(data)
	long := 0 // lines with no end in their first 512 bytes
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if len(l) > 512 {
			long++
		}
	}
	streamed := 0
	for w := 1; w <= 3; w++ {
		got := readPar(t, data, w, 0)
		compareRecs(t, data, want, got)
		streamed = 0
		for _, r := range got {
			if r.Streamed {
				streamed++
			}
		}
	}
	if streamed != long || long < 100 {
		t.Fatalf("%d lines streamed, %d longer than a chunk", streamed, long)
	}
}

// setNonZero sets the Record field f (named name) to a value other than
// its zero value.
func setNonZero(t *testing.T, f reflect.Value, name string) {
	t.Helper()
	switch f.Kind() {
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint8:
		if f.CanInt() {
			f.SetInt(7)
		} else {
			f.SetUint(7)
		}
	case reflect.Slice:
		f.Set(reflect.MakeSlice(f.Type(), 1, 1))
	case reflect.Pointer:
		f.Set(reflect.New(f.Type().Elem()))
	default:
		t.Fatalf("field %s of kind %s: teach this test to set it", name, f.Kind())
	}
}

// copyRecord copies every field of a Record: each field set to a value
// other than its zero value in turn must arrive.
func TestCopyRecordAllFields(t *testing.T) {
	typ := reflect.TypeOf(Record{})
	for i := 0; i < typ.NumField(); i++ {
		var src, dst Record
		f := reflect.ValueOf(&src).Elem().Field(i)
		setNonZero(t, f, typ.Field(i).Name)
		copyRecord(&dst, &src)
		if !reflect.DeepEqual(dst, src) {
			t.Fatalf("copyRecord does not copy %s", typ.Field(i).Name)
		}
	}
}

func TestSetLineAllFields(t *testing.T) {
	typ := reflect.TypeOf(Record{})
	for i := 0; i < typ.NumField(); i++ {
		var rec Record
		f := reflect.ValueOf(&rec).Elem().Field(i)
		setNonZero(t, f, typ.Field(i).Name)
		setLine(&rec, 0, 0, nil, false, 0, false, false, 0)
		if !reflect.DeepEqual(rec, Record{}) {
			t.Fatalf("setLine leaves %s as it was", typ.Field(i).Name)
		}
	}
	var rec Record
	raw := []byte("{}\r")
	setLine(&rec, 3, 10, raw, true, 4, true, true, Object)
	want := Record{Line: 3, Offset: 10, Raw: raw, Newline: true, Size: 4, BOM: true, CRLF: true, Kind: Object}
	if !reflect.DeepEqual(rec, want) {
		t.Fatalf("setLine: %+v, want %+v", rec, want)
	}
}
