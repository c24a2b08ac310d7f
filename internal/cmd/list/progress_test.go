package list

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/stretchr/testify/assert"
)

// lockedBuffer is a bytes.Buffer safe to read while the progress goroutine writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestProgressOnlyOnSlowScansAndTerminals(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	errOut := &lockedBuffer{}
	ios.ErrOut = errOut
	ios.SetStderrTTY(true)
	var so discover.Options
	stop := startProgress(ios, &so)
	so.Progress(3, 10)
	stop() // fast: nothing shown
	assert.Empty(t, errOut.String())

	stop = startProgress(ios, &so)
	so.Progress(3, 10)
	time.Sleep(600 * time.Millisecond)
	for i := 0; i < 100 && !strings.Contains(errOut.String(), "Scanning"); i++ {
		time.Sleep(50 * time.Millisecond) // a busy machine may run the goroutine late
	}
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
