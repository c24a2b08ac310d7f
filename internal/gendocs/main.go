// Command gendocs writes sessctl's man pages (make man). It is not part of
// the sessctl binary.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sessctl/sessctl/internal/app"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/spf13/cobra/doc"
)

func main() {
	dir := flag.String("man", "man", "directory for the man pages")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ios, _, _, _ := iostreams.Test()
	root := app.NewRootCmd(&cmdutil.Factory{IO: ios, Getenv: os.Getenv})
	date := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	hdr := &doc.GenManHeader{Title: "SESSCTL", Section: "1", Date: &date, Source: "sessctl", Manual: "sessctl manual"}
	if err := doc.GenManTree(root, hdr, *dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
