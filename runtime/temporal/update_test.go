package temporal

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
)

// notReady is a client whose first updates the service refuses as it does
// those whose workflow task failed before the workflow took them in.
type notReady struct {
	client.Client
	refuse int   // how many sends are refused
	err    error // how, when not nil: instead of WorkflowNotReady
	sends  int
}

func (c *notReady) UpdateWorkflow(context.Context, client.UpdateWorkflowOptions) (client.WorkflowUpdateHandle, error) {
	c.sends++
	if c.sends <= c.refuse {
		if c.err != nil {
			return nil, c.err
		}
		return nil, serviceerror.NewWorkflowNotReady("Unable to perform workflow execution update due to unexpected workflow task failure.")
	}
	return outcomeHandle{}, nil
}

type outcomeHandle struct{ client.WorkflowUpdateHandle }

func (outcomeHandle) Get(_ context.Context, v any) error {
	*v.(*Outcome) = Outcome{Seq: 2, Status: "ok"}
	return nil
}

// TestUpdateSentAgain: an update the service refuses because its workflow
// task failed is sent again (a resume that met a gate's approval workflow
// ending), up to updateSends times; any other refusal is final.
func TestUpdateSentAgain(t *testing.T) {
	saved := updateBackoff
	updateBackoff = time.Microsecond
	defer func() { updateBackoff = saved }()
	ctx := context.Background()

	c := &notReady{refuse: 2}
	out, err := update(ctx, c, client.UpdateWorkflowOptions{})
	if err != nil || out.Seq != 2 || c.sends != 3 {
		t.Errorf("two refusals: %+v %v after %d sends", out, err, c.sends)
	}
	c = &notReady{refuse: 100}
	_, err = update(ctx, c, client.UpdateWorkflowOptions{})
	var nr *serviceerror.WorkflowNotReady
	if !errors.As(err, &nr) || c.sends != updateSends {
		t.Errorf("refused for good: %v after %d sends", err, c.sends)
	}
	c = &notReady{refuse: 1, err: serviceerror.NewNotFound("workflow not found")}
	if _, err = update(ctx, c, client.UpdateWorkflowOptions{}); err == nil || c.sends != 1 {
		t.Errorf("not found: %v after %d sends", err, c.sends)
	}
}
