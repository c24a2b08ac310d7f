package agentlock

import (
	"errors"
	"os"
	"syscall"
)

// gate is one held omp OS gate: on Linux the abstract socket omp binds, plus
// an flock on the sidecar file when that file exists (a non-Linux omp or an
// older build sharing the directory would use it). We never create the
// sidecar on Linux, because omp does not.
type gate struct {
	fd   int
	file *os.File
}

func bindAbstract(name string) (int, bool, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, false, err
	}
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: "@" + name}); err != nil {
		syscall.Close(fd)
		if errors.Is(err, syscall.EADDRINUSE) {
			return -1, true, nil
		}
		return -1, false, err
	}
	return fd, false, nil
}

func tryGate(sidecar, name string) (*gate, bool, error) {
	fd, held, err := bindAbstract(name)
	if err != nil || held {
		return nil, held, err
	}
	f, held, err := flockSidecar(sidecar, false)
	if err != nil || held {
		syscall.Close(fd)
		return nil, held, err
	}
	return &gate{fd: fd, file: f}, false, nil
}

func (g *gate) release() {
	if g == nil {
		return
	}
	unflock(g.file)
	if g.fd >= 0 {
		syscall.Close(g.fd)
		g.fd = -1
	}
}

func probeGate(sidecar, name string) (bool, error) {
	g, held, err := tryGate(sidecar, name)
	if err != nil || held {
		return held, err
	}
	g.release()
	return false, nil
}
