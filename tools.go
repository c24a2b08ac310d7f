//go:build tools

// This file keeps dependencies that are about to be used in go.mod while
// several packages are being written at once. It is not compiled.
package tools

import (
	_ "github.com/fatih/color"
	_ "github.com/mattn/go-isatty"
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/cobra/doc"
	_ "github.com/spf13/viper"
	_ "github.com/stretchr/testify/assert"
	_ "github.com/stretchr/testify/require"
	_ "github.com/valyala/fastjson"
	_ "golang.org/x/sys/unix"
	_ "golang.org/x/term"
	_ "modernc.org/sqlite"
	_ "github.com/google/uuid"
)
