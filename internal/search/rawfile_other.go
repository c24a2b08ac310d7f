//go:build !unix

package search

import "os"

type rawFile = os.File

// openRaw is os.Open where plain system calls are not at hand.
func openRaw(path string) (*rawFile, error) { return os.Open(path) }
