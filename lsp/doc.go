// Package lsp is the Lobster language server: diagnostics, hover,
// completion, navigation, rename, quick fixes and editor decorations for
// workflow files, over LSP (JSON-RPC 2.0 with Content-Length framing).
//
// # Layers
//
// The protocol types and the connection come from go.lsp.dev/protocol
// v0.12.0 and go.lsp.dev/jsonrpc2 v0.10.0. The server dispatches methods
// itself ([Server.Handle]) instead of implementing protocol.Server, whose
// dispatcher panics on methods left out and cannot tell a whole-document
// change from an insertion at 0:0; LSP 3.17 additions (inlay hints, the
// semantic token legend, positionEncoding) use small local types.
//
// Everything the server knows comes from one parse per document version
// (lang/parser) and from lang/check: its rules for diagnostics and fixes,
// [check.Info] for steps, args, references and what each reference
// resolves to, and the command registry (lang/commands) and the JSON Schema
// descriptions (lang/schema) for hover and completion. Nothing is parsed or
// checked a second way here.
//
// # Documents
//
// Each open document is a chain of immutable snapshots, one per version;
// an edit (incremental or whole) makes a new snapshot, and its parse is
// computed once, on first use. Notifications are handled in the order
// they arrive; each request runs in its own goroutine on the snapshot
// current when it arrived, and can be cancelled ($/cancelRequest, numeric
// or string ids). A panic in a handler is logged and answered with an
// internal error.
//
// # Positions
//
// The toolchain counts bytes; LSP counts UTF-16 code units. [Mapper]
// converts at the edge, and nowhere else.
//
// # Diagnostics
//
// A change starts a per-document worker that waits [Options.Debounce],
// checks the latest snapshot with [check.RunContext], and publishes only if
// no newer version arrived meanwhile (latest version wins); a newer version
// cancels the check of an older one, which stops before its next rule. A
// change to a document also re-checks the other open documents that run
// sub-workflows, which read open children from their buffers.
//
// # Known JSON keys
//
// shape.go works out the keys of $id.json, $id.response and $id.subject
// that are known before a run (parallel branches, loop items, printed JSON
// literals, a pipeline's last stage, responseSchema properties, a child
// workflow's last step), for completion and hover.
//
// # Cross-file rename
//
// An arg of a child workflow and the workflow_args keys of the steps that
// run it are renamed together (crossrename.go): in the open documents, and
// in the child's file when it is not open.
package lsp
