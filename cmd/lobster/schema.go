package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/lobsterdev/lobster/schema"
)

const schemaHelp = `usage: lobster schema [--config]

Schema prints the JSON Schema (draft 2020-12) of workflow files, for editors
and other tools. It describes the keys the runtime reads, their types and
values, and the step shapes the runtime accepts; keys that the runtime
ignores are allowed on the workflow, its args, steps, branches and
sub-steps (lobster check reports them). The same schema is published as
schema/lobster.schema.json in the repository:

  # yaml-language-server: $schema=https://raw.githubusercontent.com/lobsterdev/lobster/main/schema/lobster.schema.json

  --config  print the JSON Schema of the project configuration file
            (.lobsterrc.yaml) instead, published as
            schema/lobsterrc.schema.json
`

func runSchema(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configSchema := fs.Bool("config", false, "print the schema of the project configuration file")
	fs.Usage = func() { fmt.Fprint(stderr, "usage: lobster schema [--config]\n") }
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, schemaHelp)
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	out := schema.JSON
	if *configSchema {
		out = schema.ConfigJSON
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "lobster: writing output: %v\n", err)
		return exitInternal
	}
	return exitOK
}
