# lbanalyze — make targets. `make test` is what CI and the README run.
GO       ?= go
PKGS     := ./...
BIN      := bin/lbanalyze
FUZZTIME ?= 30s
# Extra flags for every fuzzer, e.g. FUZZFLAGS='-parallel 1' on a shared machine.
FUZZFLAGS ?=
# Where `make testdata-large` writes the benchmark set (about 1.1 GB).
LARGE    ?= /tmp/lbanalyze-episodes-large
# A static program: pflag imports net, which otherwise links the C library
# for its resolver; lbanalyze never resolves a name, so it needs neither the C
# library nor the dynamic loader where it runs.
TAGS     ?= netgo,osusergo

.PHONY: help all build install test bench bench-compare lint fuzz testdata testdata-large e2e calibrate clean

# The first target, what a bare `make` runs: the targets, each with the
# comment line above it that begins with "##".
help:
	@awk '/^## /{doc=substr($$0,4); next} /^[a-z0-9-]+:/{if (doc!="") {split($$0,t,":"); printf "  make %-15s %s\n", t[1], doc}; doc=""}' $(firstword $(MAKEFILE_LIST))

## the program, then the tests
all: build test

## bin/lbanalyze, a static program
build:
	$(GO) build -tags $(TAGS) -o $(BIN) ./cmd/lbanalyze

## lbanalyze into $(go env GOBIN), else $(go env GOPATH)/bin: put it on PATH
install:
	$(GO) install -tags $(TAGS) ./cmd/lbanalyze

## go vet and go test on every package (what CI runs)
test:
	$(GO) vet $(PKGS)
	$(GO) test $(PKGS)

# Benchmarks, 6 runs each: compare two runs with
#   go run golang.org/x/perf/cmd/benchstat@latest old.txt new.txt
## every benchmark, 6 runs, into bench.out (compare with benchstat)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 $(PKGS) | tee bench.out

# lbanalyze before (BEFORE, a git revision; main by default) and after (the
# working tree), beside wc -l and jq, with peak RSS: docs/PERFORMANCE.md.
# Inputs go to /tmp/lbanalyze-bench (about 1 GB; BENCH_DIR to change), RUNS=5
# runs each.
## lbanalyze before and after beside wc -l and jq, with peak RSS (docs/PERFORMANCE.md)
bench-compare:
	scripts/bench-compare.sh

## gofmt, go vet and staticcheck
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo 'gofmt: the files above need formatting'; exit 1; }
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)

# Fuzz every input reader, and the whole pipeline (read, replay, every
# format of episode and batch), for FUZZTIME each (minimising new inputs is
# capped: large seeds would otherwise stall the run).
## every fuzz target for FUZZTIME (30s) each; FUZZFLAGS='-parallel 1' on a shared machine
fuzz:
	$(GO) test ./jsonl -run '^$$' -fuzz '^FuzzScanObject$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./jsonl -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./source/zorkgpt -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./source/zorkgpt2 -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./source/steps -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./source/steps -run '^$$' -fuzz '^FuzzTable$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./source/atif -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./source/miniswe -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./source/tau2 -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./source/tau2 -run '^$$' -fuzz '^FuzzScan$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./internal/jsonscan -run '^$$' -fuzz '^FuzzCursor$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./source/terminalbench -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./cmd/lbanalyze -run '^$$' -fuzz '^FuzzPipeline$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)
	$(GO) test ./cmd/lbanalyze -run '^$$' -fuzz '^FuzzBy$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $(FUZZFLAGS)

## the bundled dataset again, byte for byte (a test in synth/dataset checks it)
testdata:
	rm -rf testdata/episodes
	$(GO) run ./cmd/lbanalyze synth --seed 1 --out testdata/episodes

## the 75 episodes at 10-20 MB each, for benchmarks, into LARGE; never commit it
testdata-large:
	rm -rf $(LARGE)
	$(GO) run ./cmd/lbanalyze synth --seed 1 --large --out $(LARGE)

# End to end: the HTML report opened in headless Chromium (apt-get install
# chromium; LBANALYZE_CHROMIUM names another binary). Skips, saying so, when
# there is none. Screenshots are kept in a temporary directory, named in the log.
## the HTML reports in headless Chromium
e2e:
	$(GO) test -tags e2e -run '^TestE2E' -count=1 -v ./cmd/lbanalyze

# The calibration study of sweep's answer (docs/calibration.md): samples of
# a large synthetic population swept as `lbanalyze sweep` does, and the
# answer's intervals and decisions judged against the population's figures.
# Its tables, in markdown, to standard output. CALIBRATE_FLAGS for another
# study, e.g. CALIBRATE_FLAGS='-population 3000 -samples 500'.
## the calibration study of sweep's answer, its tables in markdown
calibrate:
	$(GO) run ./scripts/calibrate $(CALIBRATE_FLAGS)

## remove bin and bench.out
clean:
	rm -rf bin bench.out
