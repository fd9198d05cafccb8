# aclint: `make test` runs everything CI runs.
GO ?= go
FUZZTIME ?= 10s
BIN := bin/aclint

.PHONY: all build test vet fmt-check unit fuzz bench docs example clean

all: build

build:
	$(GO) build -o $(BIN) .

## test: formatting, vet, unit + testscript + conformance tests, generated docs check, short fuzz runs
test: fmt-check vet unit fuzz

fmt-check:
	@out=$$(gofmt -l . | grep -v '^vendor/'); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

## fuzz: each fuzz target for FUZZTIME (CI: 10s each; the issue's one-minute runs: make fuzz FUZZTIME=1m)
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./pkg/acl
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./pkg/config
	$(GO) test -run '^$$' -fuzz '^FuzzLint$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./pkg/lint
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeParity$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./pkg/config
	$(GO) test -run '^$$' -fuzz '^FuzzFix$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./pkg/fix

## bench: the hot paths on a generated 100,000-queue config
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 3x ./pkg/lint

## docs: regenerate docs/rules.md from the rules' metadata
docs:
	$(GO) test ./internal/ruledoc -run TestRulesDocUpToDate -update

## example: lint the example shipped in the repo
example: build
	./$(BIN) lint examples/queues.yaml || true

clean:
	rm -rf bin
