# The one command that runs every test: make test
# CI runs make ci (lint, then test) through .ci/run.

GO ?= go
FUZZTIME ?= 15s

.PHONY: all test test-temporal fuzz-yaml lint ci vscode mcp-inspector

all: test

# The race detector needs cgo and a C compiler (gcc or clang).
test:
	@scripts/corpus-skips.sh
	$(GO) test -race ./...
	$(GO) test ./lang/parser -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	LOBSTER_YAML_MODULES=off $(GO) test ./lang/parser -run '^$$' -fuzz '^FuzzYAMLReader$$' -fuzztime $(FUZZTIME)

# The YAML reader fuzzed against the reference's YAML library (node and npm
# yaml 2.9 at ../ref/node_modules or LOBSTER_YAML_MODULES), by hand: a
# difference turns up after about 40 s on one worker, most of them corners
# left as they are (docs/design.md, "Reading YAML"), so make test fuzzes for
# the reader's invariants only.
fuzz-yaml:
	$(GO) test ./lang/parser -run '^$$' -fuzz '^FuzzYAMLReader$$' -fuzztime $(or $(FUZZTIME_YAML),10m) -parallel 1

# Against real Temporal dev servers, opt-in (not part of test or ci): the
# README's walkthrough, the conformance cases end to end, fault tests
# (workers killed, the client killed, the server restarted), 2 workers x 100
# runs and run-100's throughput, logged. Needs the temporal CLI on PATH or
# in $(go env GOPATH)/bin: go install github.com/temporalio/cli/cmd/temporal@v1.5.1
# (about ten minutes of compilation). It starts and stops its own servers
# and workers, on free ports. RECORD=1 also rewrites the histories that
# make test replays (runtime/temporal/testdata/histories).
test-temporal:
	$(GO) test -tags temporaldev -count=1 -timeout 60m -v -run '^TestOnDevServer$$' ./cmd/lobster $(if $(RECORD),-record-histories)

STATICCHECK ?= $(shell command -v staticcheck || echo $$($(GO) env GOPATH)/bin/staticcheck)

# staticcheck runs when it is installed (.ci/run installs it; staticcheck.conf
# keeps the reference's capitalised error texts).
lint:
	@test -z "$$(gofmt -l .)" || { echo "files not gofmt-ed:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) vet -tags temporaldev ./cmd/lobster # the opt-in suite must still build
	$(GO) test -count=1 -run '^TestNoOutsideCitations$$' . # no citations of documents outside the repository
	@if [ -x "$(STATICCHECK)" ]; then echo "$(STATICCHECK) ./..."; "$(STATICCHECK)" ./...; else echo "staticcheck not installed; skipped"; fi

# The VS Code extension: its tests (grammar, and a session with lobster-lsp
# built from this checkout) and its package (editors/vscode/*.vsix). Needs
# Node 20 and npm.
vscode:
	cd editors/vscode && npm ci --no-audit --no-fund && npm test && npm run package

# The official MCP Inspector lists lobster mcp's tools (best effort: skipped
# when it cannot be installed from npm).
mcp-inspector:
	scripts/mcp-inspector.sh

ci: lint test vscode mcp-inspector
