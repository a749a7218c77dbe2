# lbanalyze — make targets. `make test` is what CI and the README run.
GO       ?= go
PKGS     := ./...
BIN      := bin/lbanalyze
FUZZTIME ?= 30s

.PHONY: all build test bench lint fuzz testdata e2e clean

all: build test

build:
	$(GO) build -o $(BIN) ./cmd/lbanalyze

test:
	$(GO) vet $(PKGS)
	$(GO) test $(PKGS)

# Benchmarks, 6 runs each: compare two runs with
#   go run golang.org/x/perf/cmd/benchstat@latest old.txt new.txt
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 $(PKGS) | tee bench.out

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo 'gofmt: the files above need formatting'; exit 1; }
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)

# Fuzz every input reader for FUZZTIME each (minimising new inputs is capped:
# large seeds would otherwise stall the run).
fuzz:
	$(GO) test ./jsonl -run '^$$' -fuzz FuzzScanObject -fuzztime $(FUZZTIME) -fuzzminimizetime 10x
	$(GO) test ./replay -run '^$$' -fuzz FuzzRead -fuzztime $(FUZZTIME) -fuzzminimizetime 10x

clean:
	rm -rf bin bench.out
