//go:build !linux && !darwin && !freebsd

package jsonl

import (
	"errors"
	"os"
)

// On other systems ReadParallel reads files with read calls only.

const canMap = false

func mapBytes(f *os.File, offset int64, length int) ([]byte, error) {
	return nil, errors.ErrUnsupported
}

func unmapBytes(b []byte) {}

func dropPages(b []byte) {}
