// Command evict drops given files from the page cache, for cold-cache
// figures on a shared machine where dropping the whole cache
// (/proc/sys/vm/drop_caches) is not acceptable (docs/benchmarks.md,
// section 9). It writes back each file's dirty pages, then advises the
// kernel that its cached pages are not needed (posix_fadvise
// POSIX_FADV_DONTNEED), and reports how much of the file was resident in the
// page cache before and after (mincore). Linux only.
//
//	go run ./bench/evict FILE...        # evict, print residency before/after
//	go run ./bench/evict -check FILE... # only print residency
//
// It exits 1 when a file cannot be evicted or stays more than -max percent
// resident (default 1), so a benchmark script can rely on a cold start.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	check := flag.Bool("check", false, "only report residency, evict nothing")
	maxPct := flag.Float64("max", 1, "fail when more than this percentage of a file stays resident after eviction")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: evict [-check] [-max PCT] FILE...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	status := 0
	for _, path := range flag.Args() {
		if err := run(path, *check, *maxPct); err != nil {
			fmt.Fprintf(os.Stderr, "evict: %s: %v\n", path, err)
			status = 1
		}
	}
	os.Exit(status)
}

func run(path string, check bool, maxPct float64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	before, total, err := resident(f)
	if err != nil {
		return err
	}
	if check {
		fmt.Printf("%s: %d of %d pages resident (%.1f%%)\n", path, before, total, pct(before, total))
		return nil
	}
	if err := f.Sync(); err != nil { // dirty pages cannot be dropped
		return err
	}
	if err := dropCache(f); err != nil {
		return err
	}
	after, _, err := resident(f)
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d of %d pages resident before, %d after (%.1f%%)\n", path, before, total, after, pct(after, total))
	if pct(after, total) > maxPct {
		return fmt.Errorf("%.1f%% still resident (mapped or locked by another process?)", pct(after, total))
	}
	return nil
}

func pct(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(n) / float64(total)
}
