// Command blobmark generates synthetic session files and times the blob
// mark phase over them. Used by bench/blob-mark.sh; not part of sessctl.
//
//	blobmark gen  -dir DIR -size 5G
//	blobmark mark -dir DIR [-workers 2]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/blob"
	"github.com/sessctl/sessctl/internal/blob/blobbench"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: blobmark gen|mark -dir DIR ...")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	dir := fs.String("dir", "", "directory")
	size := fs.String("size", "5G", "gen: total size (K, M, G suffix)")
	seed := fs.Uint64("seed", 1, "gen: random seed")
	workers := fs.Int("workers", 2, "mark: parallel files")
	fs.Parse(os.Args[2:])
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "-dir is required")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "gen":
		n, err := parseSize(*size)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		st, err := blobbench.Generate(*dir, n, *seed)
		out(map[string]any{"files": st.Files, "bytes": st.Bytes, "refs": st.Refs, "lines": st.Lines})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "mark":
		start := time.Now()
		m, err := blob.Mark(context.Background(), blob.Source{Roots: []string{*dir}}, *workers)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		sec := time.Since(start).Seconds()
		out(map[string]any{
			"workers": *workers, "files": m.NumFiles(), "bytes": m.Bytes(), "hashes": m.Len(),
			"errors": len(m.Errors()), "seconds": sec, "mb_per_s": float64(m.Bytes()) / 1e6 / sec,
		})
		if len(m.Errors()) > 0 {
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown subcommand", os.Args[1])
		os.Exit(2)
	}
}

func out(v any) {
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return int64(n * float64(mult)), nil
}
