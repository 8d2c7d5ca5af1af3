# The one command that runs every test: make test
# CI runs make ci (lint, then test) through .ci/run.

GO ?= go
FUZZTIME ?= 15s

.PHONY: all test lint ci

all: test

# The race detector needs cgo and a C compiler (gcc or clang).
# The fuzz pass runs only once lang/parser defines FuzzParse.
test:
	$(GO) test -race ./...
	@if grep -q 'func FuzzParse(' lang/parser/*_test.go 2>/dev/null; then \
		echo "$(GO) test ./lang/parser -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)"; \
		$(GO) test ./lang/parser -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME); \
	else \
		echo "lang/parser has no FuzzParse yet: fuzz pass skipped"; \
	fi

lint:
	@test -z "$$(gofmt -l .)" || { echo "files not gofmt-ed:"; gofmt -l .; exit 1; }
	$(GO) vet ./...

ci: lint test
