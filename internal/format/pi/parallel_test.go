package pi

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// indexSummary is what the parallel and the serial index pass must agree on.
func indexSummary(f *File) string {
	var b strings.Builder
	fmt.Fprintf(&b, "dialect %s size %d name %q header %+v err %v slot %+v\n", f.Dialect, f.Size, f.Name, f.Header, f.HeaderErr, f.TitleSlot)
	for i, e := range f.Entries {
		n := f.Index.Node(i)
		fmt.Fprintf(&b, "%d %d %d %s/%s %v %v %q %q %v parent=%d\n", e.Offset(), e.Len(), n.Line, e.Type(), e.Role(), e.NoID(), e.NullID(), n.ID, n.Parent, n.HasParent, f.Index.Parent(i))
	}
	for _, p := range f.Problems {
		fmt.Fprintf(&b, "%+v\n", p)
	}
	fmt.Fprintf(&b, "labels %v\n", f.Labels)
	return b.String()
}

// TestParallelIndexSameAsSerial indexes every pi-family file of testdata
// (and the generated pathological ones) with the parallel pass and with the
// serial one: the index, problems, labels and header must be the same.
func TestParallelIndexSameAsSerial(t *testing.T) {
	var files []string
	for _, root := range []string{"../../../testdata/pi", "../../../testdata/omp", "../../../testdata/field"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
	}
	files = append(files, writeTiny(t, 50_000))
	if len(files) < 20 {
		t.Fatalf("only %d files found", len(files))
	}
	defer func() { serialIndex, indexChunkSize = false, 0 }()
	for _, p := range files {
		serialIndex = true
		a, errA := Open(p, Options{})
		serialIndex = false
		for _, chunk := range []int{0, 64} { // 64 bytes: lines straddle chunks, most are longer than one
			indexChunkSize = chunk
			b, errB := Open(p, Options{})
			if (errA == nil) != (errB == nil) {
				t.Fatalf("%s: serial error %v, parallel error %v", p, errA, errB)
			}
			if errA != nil {
				continue
			}
			if sa, sb := indexSummary(a), indexSummary(b); sa != sb {
				t.Fatalf("%s (chunk %d): serial and parallel index differ:\nserial:\n%s\nparallel:\n%s", p, chunk, sa, sb)
			}
			if !reflect.DeepEqual(a.Labels, b.Labels) {
				t.Fatalf("%s: labels differ", p)
			}
		}
	}
	t.Logf("%d files", len(files))
}
