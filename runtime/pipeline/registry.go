package pipeline

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/lobsterdev/lobster/lang/commands"
)

// implementations maps every registered command name (aliases included)
// to its implementation. TestImplementationsMatchRegistry keeps its keys
// equal to commands.Names().
var implementations = sync.OnceValue(func() map[string]Command {
	m := map[string]Command{
		"exec":             execCommand,
		"head":             headCommand,
		"json":             jsonCommand,
		"pick":             pickCommand,
		"table":            tableCommand,
		"where":            whereCommand,
		"sort":             sortCommand,
		"dedupe":           dedupeCommand,
		"groupBy":          groupByCommand,
		"map":              mapCommand,
		"template":         templateCommand,
		"commands.list":    commandsListCommand,
		"state.get":        stateGetCommand,
		"state.set":        stateSetCommand,
		"diff.last":        diffLastCommand,
		"approve":          approveCommand,
		"ask":              askCommand,
		"openclaw.invoke":  openclawInvokeCommand,
		"clawd.invoke":     openclawInvokeCommand,
		"gog.gmail.search": gogSearchCommand,
		"gog.gmail.send":   gogSendCommand,
		"openclaw.agent":   openclawAgentCommand,
		"workflows.list":   workflowsListCommand,
		"workflows.run":    workflowsRunCommand,
		"llm.invoke":       llmInvokeCommand,
		"llm_task.invoke":  llmInvokeCommand,
		"email.triage":     emailTriageCommand,
	}
	for _, name := range NotYetSupported {
		m[name] = notYetSupported
	}
	return m
})

// NotYetSupported lists the registered commands this version does not run
// yet: each fails with an error that says so when a run reaches it.
var NotYetSupported = []string{}

// notYetSupported is the implementation of the commands in
// NotYetSupported.
func notYetSupported(ctx context.Context, c *Call) (Output, error) {
	return Output{}, fmt.Errorf("%s is not supported by this version of lobster yet", c.Name)
}

// lookup finds the implementation and registry entry of name.
func lookup(name string) (Command, *commands.Command, bool) {
	spec, ok := commands.Lookup(name)
	if !ok {
		return nil, nil, false
	}
	impl, ok := implementations()[name]
	if !ok {
		return nil, nil, false
	}
	return impl, spec, true
}

// Implemented lists the names with an implementation, sorted.
func Implemented() []string {
	var names []string
	for name := range implementations() {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Supported reports whether name runs in this version (it is registered
// and not in NotYetSupported).
func Supported(name string) bool {
	if _, _, ok := lookup(name); !ok {
		return false
	}
	for _, n := range NotYetSupported {
		if n == name {
			return false
		}
	}
	return true
}

// DryRun checks that every stage's command exists and describes the
// stages on w, as the reference's dry run does; nothing runs.
func DryRun(stages []Stage, w io.Writer) error {
	for _, st := range stages {
		if _, _, ok := lookup(st.Name); !ok {
			return &UnknownCommandError{st.Name}
		}
	}
	noun := "stages"
	if len(stages) == 1 {
		noun = "stage"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[DRY RUN] Pipeline (%d %s):\n", len(stages), noun)
	for i, st := range stages {
		fmt.Fprintf(&b, "  %d. %s", i+1, st.Name)
		if d := st.Args.Describe(); d != "" {
			b.WriteString("  args: " + d)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
