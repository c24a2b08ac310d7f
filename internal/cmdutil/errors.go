// Package cmdutil holds what every command shares: the factory of
// dependencies, typed errors that map to exit codes, and flag helpers.
package cmdutil

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// Exit codes. They are documented in `sessctl help exit-codes` and stable.
const (
	ExitOK       = 0 // success
	ExitError    = 1 // an error: a file could not be read or written, bad input
	ExitUsage    = 2 // usage error: bad flags or arguments, ambiguous session
	ExitProblems = 3 // the command ran and found problems, or action is needed
)

// FlagError is a usage error; the usage text is printed with it (exit 2).
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// FlagErrorf builds a FlagError.
func FlagErrorf(format string, a ...any) error {
	return &FlagError{Err: fmt.Errorf(format, a...)}
}

// UsageError is a usage error that is not about flags (exit 2, no usage text),
// e.g. an ambiguous session prefix.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// UsageErrorf builds a UsageError.
func UsageErrorf(format string, a ...any) error {
	return &UsageError{Err: fmt.Errorf(format, a...)}
}

// ProblemsError means the command completed and found problems (exit 3). Its
// message, if any, is printed on stderr.
type ProblemsError struct{ Msg string }

func (e *ProblemsError) Error() string { return e.Msg }

// ErrProblems is a ProblemsError without a message.
var ErrProblems = &ProblemsError{}

// SilentError exits 1 without printing anything more (the command already
// said what went wrong).
var SilentError = errors.New("SilentError")

// ExitCode maps an error returned by a command to the process exit code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var fe *FlagError
	var ue *UsageError
	var pe *ProblemsError
	switch {
	case errors.As(err, &fe), errors.As(err, &ue):
		return ExitUsage
	case errors.As(err, &pe):
		return ExitProblems
	default:
		return ExitError
	}
}

// ExactArgs is cobra.ExactArgs whose error is a usage error (exit 2).
func ExactArgs(n int) func(cmd *cobra.Command, args []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(cmd, args); err != nil {
			return &FlagError{Err: err}
		}
		return nil
	}
}

// MinimumNArgs is cobra.MinimumNArgs whose error is a usage error (exit 2).
func MinimumNArgs(n int) func(cmd *cobra.Command, args []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.MinimumNArgs(n)(cmd, args); err != nil {
			return &FlagError{Err: err}
		}
		return nil
	}
}
