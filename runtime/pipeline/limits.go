package pipeline

import (
	"fmt"
	"strconv"

	"github.com/lobsterdev/lobster/lang/js"
)

// The size limits of what commands read, as the reference reads them from
// the environment of the command: LOBSTER_MAX_OUTPUT_BYTES bounds each
// output stream of a child process (a workflow's shell steps and the
// processes of exec, gog and openclaw.agent), LOBSTER_MAX_HTTP_RESPONSE_BYTES
// the body of an HTTP response (openclaw.invoke, llm.invoke and
// llm_task.invoke). Going over either fails the command with the
// reference's message; nothing is ever cut silently. Unlike the reference,
// which reads without limit when they are unset, lobster then applies
// these defaults, so that a runaway process or server cannot exhaust
// memory.
const (
	DefaultMaxOutput       = 64 << 20
	DefaultMaxHTTPResponse = 64 << 20
)

// maxDataFile bounds the files the commands read (template --file, state
// values, the LLM cache) as an output stream is bounded; they are read with
// package bounded, which also refuses a FIFO or a device without waiting.
const maxDataFile = DefaultMaxOutput

// OutputLimit is the per-stream output limit of a child process whose
// environment getenv reads.
func OutputLimit(getenv func(string) string) (int64, error) {
	return byteLimit(getenv, "LOBSTER_MAX_OUTPUT_BYTES", DefaultMaxOutput)
}

// HTTPResponseLimit is the size limit of an HTTP response body.
func HTTPResponseLimit(getenv func(string) string) (int64, error) {
	return byteLimit(getenv, "LOBSTER_MAX_HTTP_RESPONSE_BYTES", DefaultMaxHTTPResponse)
}

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER.
const maxSafeInteger = 1<<53 - 1

// byteLimit reads a limit as the reference does: the value trimmed, unset
// or empty for the default, else decimal digits only, a positive safe
// integer.
func byteLimit(getenv func(string) string, name string, def int64) (int64, error) {
	raw := js.Trim(getenv(name))
	if raw == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || raw[0] < '0' || raw[0] > '9' || n <= 0 || n > maxSafeInteger {
		return 0, fmt.Errorf("%s must be a positive safe integer (bytes)", name)
	}
	return n, nil
}
