package main

import (
	"fmt"
	"io"

	"github.com/lobsterdev/lobster/lang/source"
)

// textf writes a message for people: fmt.Sprintf(format, args...) through
// source.Printable, so that a name, a path or an error that carries text
// from a file, a step's output or a state file cannot drive the terminal
// (line feeds and tabs are kept, other control characters are escaped).
// Every human text output of the commands goes through it or through
// source.Printable; JSON envelopes do not (JSON escapes its own).
func textf(w io.Writer, format string, args ...any) {
	io.WriteString(w, source.Printable(fmt.Sprintf(format, args...)))
}
