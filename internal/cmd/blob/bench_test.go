package blob

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/blob"
	"github.com/sessctl/sessctl/internal/blob/blobbench"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
)

// BenchmarkGCDryRun times a whole `sessctl blob-gc --json` dry run (store
// discovery, mark over every session file, plan over every blob, JSON
// output) on an oh-my-pi agent dir: SESSCTL_BENCH_GC_MB MiB of synthetic
// session files (default 256; internal/blob/blobbench) and
// SESSCTL_BENCH_GC_BLOBS blob files of 4 KiB (default 20000), all older
// than the grace period and unreferenced (the generator's refs name random
// hashes), so every blob is planned for deletion. Generated under
// b.TempDir and removed afterwards, or, when SESSCTL_BENCH_GC_HOME is set,
// generated there and kept, so that the binary can be timed on it:
// HOME=$SESSCTL_BENCH_GC_HOME sessctl blob-gc (docs/benchmarks.md §4).
func BenchmarkGCDryRun(b *testing.B) {
	mb, nblobs := envInt("SESSCTL_BENCH_GC_MB", 256), envInt("SESSCTL_BENCH_GC_BLOBS", 20000)
	home := os.Getenv("SESSCTL_BENCH_GC_HOME")
	if home == "" {
		home = b.TempDir()
	} else if _, err := os.Stat(home); err == nil {
		b.Fatalf("%s exists; give a new folder", home)
	}
	agent := filepath.Join(home, ".omp", "agent")
	st, err := blobbench.Generate(filepath.Join(agent, "sessions"), int64(mb)<<20, 11)
	if err != nil {
		b.Fatal(err)
	}
	store := filepath.Join(agent, "blobs")
	if err := os.MkdirAll(store, 0o755); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour)
	data := make([]byte, 4096)
	for i := 0; i < nblobs; i++ {
		binary.LittleEndian.PutUint64(data, uint64(i))
		h := blob.Hash(sha256.Sum256(data))
		p := filepath.Join(store, h.String())
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	b.SetBytes(st.Bytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		io, _, out, _ := iostreams.Test()
		f := &cmdutil.Factory{IO: io, Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		}}
		if err := RunGC(&GCOptions{IO: io, Factory: f, JSON: true, Grace: time.Hour}); err != nil {
			b.Fatal(err)
		}
		var res GCResult
		if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res.Stores) != 1 ||
			res.Stores[0].SessionFiles != st.Files || res.Stores[0].Counts.Delete != nblobs {
			b.Fatalf("unexpected result: %v %+v", err, res.Stores)
		}
	}
}

func envInt(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
		return v
	}
	return def
}
