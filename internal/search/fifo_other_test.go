//go:build !unix

package search

import "errors"

// mkfifo: no FIFOs here.
func mkfifo(string) error { return errors.New("no FIFOs on this system") }
