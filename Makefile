# aclint: `make test` runs everything CI runs.
GO ?= go
FUZZTIME ?= 10s
BIN := bin/aclint
# the commit and its time, linked into builds and releases (aclint version)
# a tree with changes to tracked files is marked: a binary built from it is not that commit
COMMIT := $(shell git rev-parse HEAD 2>/dev/null)$(shell git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo -dirty)
EPOCH := $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null),0)

.PHONY: release report-screenshot all build test vet deadcode fmt-check unit fuzz bench docs example clean sarif-schema schema-tools man tools

all: build

## build: a static binary (the os resolver then reads /etc/passwd and /etc/group itself)
build:
	CGO_ENABLED=0 $(GO) build -ldflags "-X github.com/aclint/aclint/internal/cli.commit=$(COMMIT)" -o $(BIN) .

## release: make release VERSION=vX.Y.Z writes dist/: an archive per platform (linux, darwin,
## windows; amd64, arm64) with the static binary, README.md and LICENSE, an SPDX SBOM per binary,
## the OCI image layout (dist/oci/ and dist/aclint_VERSION_oci.tar), and SHA256SUMS over them;
## reproducible: two runs from one commit give the same SHA256SUMS (docs/install.md)
## VERSION reaches the recipe through the environment, never inside its text: a tag such as
## v1";touch${IFS}/tmp/x;" is a valid git tag name, and mkrelease accepts only vX.Y.Z[-suffix]
unexport VERSION
release: export ACLINT_RELEASE_VERSION := $(value VERSION)
release:
	@if [ -z "$$ACLINT_RELEASE_VERSION" ]; then echo "make release: give the version, as in make release VERSION=v1.2.3"; exit 2; fi
	$(GO) run ./internal/mkrelease -version "$$ACLINT_RELEASE_VERSION" -commit "$(COMMIT)" -epoch "$(EPOCH)" -out dist

## test: formatting, vet, unit + testscript + conformance tests, docs freshness, SARIF schema,
## scale budget, and every fuzz target's seed corpus and saved crashers (deterministic: what CI runs)
test: fmt-check vet deadcode sarif-schema schema-tools tools unit

## tools: say, in one line each, which optional test tools are missing (their tests skip
## outside CI and fail in it)
tools:
	@if ! command -v slapd >/dev/null 2>&1 && [ ! -x /usr/sbin/slapd ]; then \
		if [ -n "$$CI" ]; then echo "make test: slapd is missing in CI: .ci/run installs it"; exit 1; fi; \
		echo "make test: slapd is not installed: the tests against a real LDAP server are skipped (apt-get install slapd, or run .ci/run)"; fi
	@if ! command -v chromium >/dev/null 2>&1; then \
		if [ -n "$$CI" ]; then echo "make test: chromium is missing in CI: .ci/run installs it"; exit 1; fi; \
		echo "make test: chromium is not installed: the HTML report's browser tests are skipped (apt-get install chromium, or run .ci/run)"; fi
	@if ! command -v nvim >/dev/null 2>&1; then \
		if [ -n "$$CI" ]; then echo "make test: nvim is missing in CI: .ci/run installs it"; exit 1; fi; \
		echo "make test: nvim is not installed: the real-editor LSP test is skipped (apt-get install neovim, or run .ci/run)"; fi
	@if ! command -v pre-commit >/dev/null 2>&1; then \
		if [ -n "$$CI" ]; then echo "make test: pre-commit is missing in CI: .ci/run installs it"; exit 1; fi; \
		echo "make test: pre-commit is not installed: the pre-commit try-repo test is skipped (apt-get install pre-commit, or run .ci/run)"; fi
	@if ! command -v skopeo >/dev/null 2>&1; then \
		if [ -n "$$CI" ]; then echo "make test: skopeo is missing in CI: .ci/run installs it"; exit 1; fi; \
		echo "make test: skopeo is not installed: the release image is checked without it (apt-get install skopeo, or run .ci/run)"; fi
	@if ! command -v umoci >/dev/null 2>&1; then \
		if [ -n "$$CI" ]; then echo "make test: umoci is missing in CI: .ci/run installs it"; exit 1; fi; \
		echo "make test: umoci is not installed: the release image is not unpacked (apt-get install umoci, or run .ci/run)"; fi

## deadcode: no function that nothing reaches, tests included (x/tools' deadcode, pinned)
deadcode:
	@out=$$($(GO) run golang.org/x/tools/cmd/deadcode@v0.47.0 -test ./... 2>&1) || { echo "$$out"; exit 1; }; \
	if [ -n "$$out" ]; then echo "make test: unreachable functions (remove them):"; echo "$$out"; exit 1; fi

fmt-check:
	@out=$$(gofmt -l . | grep -v '^vendor/'); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

unit:
	@# the release test builds six platforms (minutes with a cold build cache): past go test's 10 minutes on a slow machine
	$(GO) test -count=1 -short -timeout 40m ./...
	@# the time and memory budgets run alone: other packages' tests would share the two cores
	$(GO) test -count=1 -run '^(TestScaleBudget|TestAuditScaleBudget)$$' -v ./internal/systems/yunikorn
	$(GO) test -count=1 -run '^TestScaleBudget$$' -v ./internal/systems/mesos
	$(GO) test -count=1 -run '^TestScaleBudget$$' -v ./internal/systems/ytsaurus
	$(GO) test -count=1 -run '^(TestMatrixStreams|TestDiffAtScale)$$' -v ./internal/systems/yunikorn/commands

## fuzz: explore with each fuzz target for FUZZTIME (make fuzz FUZZTIME=1m); new crashers land in
## testdata/fuzz and from then on run in make test
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzValidQueueName$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/acl
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/acl
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/config
	$(GO) test -run '^$$' -fuzz '^FuzzDocuments$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/config
	$(GO) test -run '^$$' -fuzz '^FuzzLint$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeParity$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/config
	$(GO) test -run '^$$' -fuzz '^FuzzFix$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/fix
	$(GO) test -run '^$$' -fuzz '^FuzzPlace$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/placement
	$(GO) test -run '^$$' -fuzz '^FuzzReadManifest$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/placement
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/expect
	$(GO) test -run '^$$' -fuzz '^FuzzBatchParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/config
	$(GO) test -run '^$$' -fuzz '^FuzzSafeWriter$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/engine
	$(GO) test -run '^$$' -fuzz '^FuzzWriteJSON$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/engine
	$(GO) test -run '^$$' -fuzz '^FuzzYAMLScalar$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/expect
	$(GO) test -run '^$$' -fuzz '^FuzzParseJSON$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/mesos
	$(GO) test -run '^$$' -fuzz '^FuzzLint$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/mesos
	$(GO) test -run '^$$' -fuzz '^FuzzCoverage$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/mesos
	$(GO) test -run '^$$' -fuzz '^FuzzFormula$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/ytsaurus
	$(GO) test -run '^$$' -fuzz '^FuzzLint$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/ytsaurus
	$(GO) test -run '^$$' -fuzz '^FuzzReparse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yunikorn/config
	$(GO) test -run '^$$' -fuzz '^FuzzParseACL$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yarn
	$(GO) test -run '^$$' -fuzz '^FuzzReadConf$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yarn
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/rbac
	$(GO) test -run '^$$' -fuzz '^FuzzReadFS$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yarn
	$(GO) test -run '^$$' -fuzz '^FuzzPlacement$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/systems/yarn
	$(GO) test -run '^$$' -fuzz '^FuzzSession$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/lsp
	$(GO) test -run '^$$' -fuzz '^FuzzAppendPublishDiagnostics$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/lsp

## bench: whole-process CPU time and peak memory of aclint against a process that only decodes
## the same file (internal/bench), failing above the targets of docs/performance.md; then the
## go benchmarks of the hot paths, for profiling (the in-process budget tests are make test's
## loose guard)
bench:
	CGO_ENABLED=0 $(GO) build -o bin/aclint .
	CGO_ENABLED=0 $(GO) build -o bin/floor ./internal/bench/floor
	$(GO) run ./internal/bench -aclint bin/aclint -floor bin/floor
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 3x ./internal/systems/yunikorn
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 3x ./internal/systems/mesos
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 3x ./internal/systems/ytsaurus

## docs: regenerate docs/rules.md and the system pages' rule tables from the rules' metadata, and
## schema/queues.schema.json from the config model (internal/systems/yunikorn/config/schema.go)
docs:
	$(GO) test ./internal/ruledoc -run 'TestRulesDocUpToDate|TestSystemTablesUpToDate|TestSchemaFileUpToDate' -update

## example: lint the example shipped in the repo
example: build
	./$(BIN) lint -f examples/queues.yaml || true

clean:
	rm -rf bin

## sarif-schema: the official SARIF 2.1.0 JSON schema, from the npm registry (package
## @microsoft/jest-sarif ships it); it is committed, so this fetches it only when it was deleted.
## TestSARIFSchema validates against it
SARIF_SCHEMA := internal/output/testdata/schema/sarif-schema-2.1.0.json
sarif-schema:
	@if [ -f $(SARIF_SCHEMA) ]; then :; \
	elif command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(SARIF_SCHEMA) || \
		{ if [ -n "$$CI" ]; then echo "make test: npm could not fetch the SARIF schema from its registry (npm pack failed above)"; exit 1; \
		  else echo "make test: npm could not fetch the SARIF schema from its registry: the SARIF schema test is skipped"; fi; }; \
	elif [ -n "$$CI" ]; then echo "make test: npm is missing in CI: .ci/run installs it"; exit 1; \
	else echo "make test: npm is not installed: the SARIF schema test is skipped (apt-get install npm, or run .ci/run)"; fi
$(SARIF_SCHEMA):
	@mkdir -p $(dir $@)
	@tmp=$$(mktemp -d) && cd $$tmp && npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null && \
		tar xzf microsoft-jest-sarif-1.0.0-beta.0.tgz package/lib/schemas/sarif-2.1.0-rtm.5.json && \
		cp package/lib/schemas/sarif-2.1.0-rtm.5.json $(CURDIR)/$@ && rm -rf $$tmp
	@echo "fetched $@"

## schema-tools: yaml-language-server (the YAML parser and schema validator editors run) from the npm
## registry into an ignored test cache; TestSchemaInEditorValidator validates configs with it
SCHEMA_TOOLS := testdata/schema/node_modules/yaml-language-server/package.json
schema-tools:
	@if [ -f $(SCHEMA_TOOLS) ]; then :; \
	elif command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(SCHEMA_TOOLS) || \
		{ if [ -n "$$CI" ]; then echo "make test: npm could not fetch yaml-language-server 1.25.0 from its registry (npm install failed above)"; exit 1; \
		  else echo "make test: npm could not fetch yaml-language-server 1.25.0 from its registry: the schema test in yaml-language-server is skipped"; fi; }; \
	elif [ -n "$$CI" ]; then echo "make test: npm is missing in CI: .ci/run installs it"; exit 1; \
	else echo "make test: npm is not installed: the schema test in yaml-language-server is skipped (apt-get install npm, or run .ci/run)"; fi
$(SCHEMA_TOOLS):
	@cd testdata/schema && npm install --silent --no-audit --no-fund --no-save yaml-language-server@1.25.0 >/dev/null
	@echo "fetched yaml-language-server 1.25.0 into testdata/schema/node_modules"

## man: man pages for every command (cobra's doc package) and the shell completions, into man/
man:
	$(GO) run ./internal/mangen man

## report-screenshot: redraw docs/report.png, the HTML report of examples/audits/queues.yaml in
## headless chromium, the way TestScreenshot takes it
report-screenshot:
	ACLINT_SCREENSHOT=$(CURDIR)/docs/report.png $(GO) test -count=1 -run '^TestScreenshot$$' ./internal/systems/yunikorn/htmlreport
