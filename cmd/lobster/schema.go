package main

import (
	"flag"
	"io"

	"github.com/lobsterdev/lobster/schema"
)

// schemaDoc is the text of lobster help schema.
const schemaDoc = `Schema prints the JSON Schema (draft 2020-12) of workflow files, for editors
and other tools. It describes the keys the runtime reads, their types and
values, and the step shapes the runtime accepts; keys that the runtime
ignores are allowed on the workflow, its args, steps, branches and
sub-steps (lobster check reports them). The same schema is published as
schema/lobster.schema.json in the repository:

  # yaml-language-server: $schema=https://raw.githubusercontent.com/lobsterdev/lobster/main/schema/lobster.schema.json`

// schemaFlagSet is the flags of lobster schema.
func schemaFlagSet(config *bool) *flag.FlagSet {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	fs.BoolVar(config, "config", false, "print the JSON Schema of the project configuration file (.lobsterrc.yaml) instead, published as schema/lobsterrc.schema.json")
	return fs
}

func runSchema(args []string, stdout, stderr io.Writer) int {
	cmd := cmdNamed("schema")
	var configSchema bool
	pos, code, done := parseFlags(cmd, schemaFlagSet(&configSchema), args, false, stdout, stderr)
	if done {
		return code
	}
	if len(pos) > 0 {
		return usageError(stderr, cmd, "schema takes no arguments")
	}
	out := schema.JSON
	if configSchema {
		out = schema.ConfigJSON
	}
	if _, err := stdout.Write(out); err != nil {
		textf(stderr, "lobster: writing output: %v\n", err)
		return exitInternal
	}
	return exitOK
}
