//go:build !linux

package main

import (
	"errors"
	"os"
)

var errUnsupported = errors.New("evict works on Linux only")

func dropCache(*os.File) error { return errUnsupported }

func resident(*os.File) (int, int, error) { return 0, 0, errUnsupported }
