package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/source"
)

// TestCorpusJSON runs `lobster check --format json` on every real-world file
// of ../shared/corpus: the output must be a valid JSON array of diagnostics
// with ranges inside the file and consistent positions, and the exit code 0
// or 1 (never a crash).
func TestCorpusJSON(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/corpus/*")
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".md") {
			continue
		}
		n++
		var stdout, stderr bytes.Buffer
		code := run([]string{"check", "--format", "json", path}, strings.NewReader(""), &stdout, &stderr)
		if code != 0 && code != 1 {
			t.Errorf("%s: exit %d: %s", path, code, stderr.String())
			continue
		}
		var diags []source.Diagnostic
		if err := json.Unmarshal(stdout.Bytes(), &diags); err != nil {
			t.Errorf("%s: output is not a JSON array of diagnostics: %v", path, err)
			continue
		}
		if (code == 1) != source.HasErrors(diags) {
			t.Errorf("%s: exit %d does not match the findings", path, code)
		}
		for _, d := range diags {
			r := d.Range
			if r.Start.Offset < 0 || r.Start.Offset > r.End.Offset || r.Start.Line < 1 || r.Start.Col < 1 ||
				r.End.Line < r.Start.Line || (r.End.Line == r.Start.Line && r.End.Col < r.Start.Col) {
				t.Errorf("%s: bad range %+v in %s", path, r, d)
			}
		}
	}
	if n == 0 {
		t.Skip("no corpus at ../../../shared/corpus")
	}
}
