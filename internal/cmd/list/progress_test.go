package list

import (
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/stretchr/testify/assert"
)

func TestProgressOnlyOnSlowScansAndTerminals(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	ios.SetStderrTTY(true)
	var so discover.Options
	stop := startProgress(ios, &so)
	so.Progress(3, 10)
	stop() // fast: nothing shown
	assert.Empty(t, errOut.String())

	stop = startProgress(ios, &so)
	so.Progress(3, 10)
	time.Sleep(700 * time.Millisecond)
	stop()
	assert.Contains(t, errOut.String(), "Scanning sessions: 3/10 files")
	assert.True(t, strings.HasSuffix(errOut.String(), "\r\x1b[K"), "the line is cleared at the end")

	ios2, _, _, errOut2 := iostreams.Test() // stderr not a terminal
	var so2 discover.Options
	stop = startProgress(ios2, &so2)
	assert.Nil(t, so2.Progress)
	stop()
	assert.Empty(t, errOut2.String())
}
