package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// writeWorkflowGuide is the prompt that guides an agent writing a
// workflow: the shape of a file, and to check it before finishing.
const writeWorkflowGuide = `Write a Lobster workflow file for this task:

%s

A workflow is YAML (or JSON) with these top-level keys: name, description,
args (inputs with a default and a description), env, and steps (a list).
Each step has a unique id and one action:
  - run: a shell command (command: is the same);
  - pipeline: a Lobster pipeline;
  - workflow: another workflow file (with workflow_args);
  - approval: a gate where a person must approve before the run goes on
    (approval: required, or {prompt, preview, required_approver, ...});
  - input: a gate that asks for an answer matching a JSON Schema;
  - for_each / parallel: loops and branches.
Refer to earlier steps with $id.stdout, $id.json (the output parsed as JSON,
with paths such as $id.json.items) or $id.approved; use args as ${name} in
text and as $LOBSTER_ARG_NAME in shell (an approval prompt is shown as written). Conditions (when:/condition:) read
the same references. Put an approval gate before anything irreversible
(deploys, deletions, messages sent to people): the agent cannot approve it.

Example:

name: deploy
args:
  target: {default: staging, description: where to deploy}
steps:
  - id: build
    run: make build TARGET="$LOBSTER_ARG_TARGET"
  - id: confirm
    approval: {prompt: "Deploy the build?"}
  - id: deploy
    run: ./deploy.sh "$LOBSTER_ARG_TARGET"
    when: $confirm.approved

Before you finish:
1. Call the check tool on the file (path) or its text. Fix every error,
   and every warning you cannot justify; the fix tool applies the
   suggested fixes and explain documents a code.
2. Call the plan tool to see what the workflow will do, step by step,
   with the args substituted, and make sure it is what the task asks.
3. Check again after every change. A workflow with errors does not run.
The JSON Schema is the resource lobster://schema/lobster.schema.json and
every diagnostic code is documented in lobster://docs/diagnostics.md.%s`

func (s *Server) addPrompts() {
	s.sdk.AddPrompt(&sdk.Prompt{
		Name:        "write-workflow",
		Title:       "Write a Lobster workflow",
		Description: "Guides writing a workflow file (args, step references, gates) and checking it before finishing.",
		Arguments: []*sdk.PromptArgument{
			{Name: "task", Description: "what the workflow should do", Required: true},
			{Name: "path", Description: "where to write the workflow file (for example deploy.lobster)"},
		},
	}, func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		task := strings.TrimSpace(req.Params.Arguments["task"])
		if task == "" {
			return nil, fmt.Errorf("the task argument is required: what should the workflow do?")
		}
		where := ""
		if p := strings.TrimSpace(req.Params.Arguments["path"]); p != "" {
			where = fmt.Sprintf("\nWrite the workflow to %s, then check it by path.", p)
		}
		return &sdk.GetPromptResult{
			Description: "Write and check a Lobster workflow",
			Messages: []*sdk.PromptMessage{{
				Role:    "user",
				Content: &sdk.TextContent{Text: fmt.Sprintf(writeWorkflowGuide, task, where)},
			}},
		}, nil
	})
}
