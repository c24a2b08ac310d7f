// Command sessctl inspects and repairs the session files of coding agents.
package main

import (
	"os"

	"github.com/sessctl/sessctl/internal/app"
)

func main() { os.Exit(app.Main()) }
