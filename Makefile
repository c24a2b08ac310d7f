# sessctl — build, test, demo, docs and benchmarks.
# Everything here needs only Go (GOTOOLCHAIN=local); `make bench` also uses
# Node and the npm packages named in bench/node/README.md when present.

export GOTOOLCHAIN := local
GO      ?= go
BIN     ?= bin/sessctl
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/sessctl/sessctl/internal/app.Version=$(VERSION)
DEMO    ?= testdata/pi/parity/sessions/058-everything.jsonl
FUZZTIME ?= 60s

.PHONY: all build test cross vet demo man completions bench bench-scale fuzz clean

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/sessctl

## test: unit, golden, parity and end-to-end (testscript) tests, after the cross-OS check
test: cross
	$(GO) test -timeout 45m ./...

## cross: go vet (which compiles the tests too) for the other supported OSes;
## pure Go cross-compilation, so it needs nothing but Go. CROSS lists GOOS/GOARCH.
CROSS ?= darwin/arm64 windows/amd64 freebsd/amd64
cross:
	@for t in $(CROSS); do \
	  echo "== go vet GOOS=$${t%/*} GOARCH=$${t#*/}"; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./... || exit 1; \
	done

vet:
	$(GO) vet ./...

## demo: show sessctl's main job on the sample sessions in testdata/ (list, search, stats, tree, show, check)
demo: build
	@echo "== sessctl list (a sample home with pi, oh-my-pi, xcsh and Claude Code sessions)"
	@HOME=$(CURDIR)/testdata/home XDG_CACHE_HOME=$$(mktemp -d) $(BIN) list --no-config --limit 15 || true
	@echo
	@echo "== sessctl search parser (decoded text of every session in the sample home)"
	@HOME=$(CURDIR)/testdata/home XDG_CACHE_HOME=$$(mktemp -d) $(BIN) search --no-config parser || true
	@echo
	@echo "== sessctl stats --by agent (tokens and stored cost of the sample home)"
	@HOME=$(CURDIR)/testdata/home XDG_CACHE_HOME=$$(mktemp -d) $(BIN) stats --no-config --by agent || true
	@echo
	@echo "== sessctl tree $(DEMO)"
	@$(BIN) tree $(DEMO)
	@echo
	@echo "== sessctl show $(DEMO) (first 40 lines)"
	@$(BIN) show $(DEMO) | head -40
	@echo
	@echo "== sessctl tree on a damaged file (problems go to stderr)"
	@$(BIN) tree testdata/pi/parity/damaged/orphaned-subtree.jsonl || true
	@echo
	@echo "== sessctl check testdata/pi/parity/damaged (exit 3: problems found)"
	@$(BIN) check testdata/pi/parity/damaged | tail -12 || true

## man: man pages into man/ (cobra/doc, reproducible)
man:
	$(GO) run ./internal/gendocs -man man

completions: build
	mkdir -p completions
	$(BIN) completion bash > completions/sessctl.bash
	$(BIN) completion zsh > completions/_sessctl
	$(BIN) completion fish > completions/sessctl.fish

## bench: the benchmarks named in docs/benchmarks.md
bench:
	bash bench/run.sh

## bench-scale: time and peak RSS at 10 MB - 4 GB (bench/scale.sh; options via env, see the script)
bench-scale:
	bash bench/scale.sh

## fuzz: run every fuzz target for FUZZTIME each
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run=^$$ -fuzz=^$$t$$ -fuzztime=$(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin man completions
