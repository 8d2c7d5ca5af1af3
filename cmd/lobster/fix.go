package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/source"
)

// fixed returns the text of a checked file with its planned fixes applied,
// and the plan; ok is false when there is nothing to change.
func fixed(r result, unsafe bool) (out []byte, p source.FixPlan, ok bool) {
	if r.readErr != "" || r.panicked != "" || r.file == nil {
		return nil, p, false
	}
	src := r.file.Content
	p = source.PlanFixes(r.name, src, r.diags, unsafe)
	if len(p.Edits) == 0 {
		return nil, p, false
	}
	out, err := source.ApplyEdits(src, p.Edits)
	if err != nil || bytes.Equal(out, src) {
		return nil, p, false
	}
	return out, p, true
}

// applyFixes applies the fixes of every checked file in place, checks the
// changed files again (updating results) and reports the count on stderr. It
// returns exitInternal when the checker crashes on a fixed file, exitUsage
// when a file cannot be written, else exitOK.
func applyFixes(analyze analyzer, inputs []input, results []result, unsafe bool, stderr io.Writer) int {
	code := exitOK
	applied, skipped, unsafeLeft, changed := 0, 0, 0, 0
	for i, r := range results {
		out, p, ok := fixed(r, unsafe)
		skipped += p.Skipped
		unsafeLeft += p.Unsafe
		if !ok || inputs[i].stdin {
			continue
		}
		if err := writeFileAtomic(inputs[i].path, out); err != nil {
			textf(stderr, "lobster: %s: cannot write the fixes: %s\n", r.name, bounded.Reason(err))
			code = max(code, exitUsage)
			continue
		}
		applied += p.Applied
		changed++
		nr := result{name: r.name}
		nr.file, nr.diags, nr.panicked = checkFile(analyze, r.name, out)
		if nr.panicked != "" {
			textf(stderr, "lobster: internal error checking %s after fixing: %s\n", r.name, nr.panicked)
			code = max(code, exitInternal)
		}
		results[i] = nr
	}
	textf(stderr, "lobster: applied %s in %s\n", plural(applied, "fix", "fixes"), plural(changed, "file", "files"))
	if skipped > 0 {
		textf(stderr, "lobster: %s not applied: %s another; run lobster check --fix again\n",
			plural(skipped, "fix", "fixes"), overlaps(skipped))
	}
	reportUnsafe(stderr, unsafeLeft)
	return code
}

// reportUnsafe tells how many unsafe fixes were left out.
func reportUnsafe(stderr io.Writer, n int) {
	if n > 0 {
		textf(stderr, "lobster: %s left out: it may change what the workflow does; review it, or add --unsafe-fixes\n",
			plural(n, "unsafe fix", "unsafe fixes"))
	}
}

// writeFixDiff prints the changes that --fix would make as a unified diff,
// with a count on stderr, and returns the exit code of the findings.
func writeFixDiff(results []result, unsafe bool, stdout, stderr io.Writer) int {
	code := exitOK
	applied, skipped, unsafeLeft, changed := 0, 0, 0, 0
	// The diff is for patch(1) too, byte for byte; on a terminal it is for
	// people, and the file's control characters are shown escaped.
	terminal := isTerminal(stdout)
	for _, r := range results {
		if r.readErr == "" && r.panicked == "" && source.HasErrors(r.diags) {
			code = exitFindings
		}
		out, p, ok := fixed(r, unsafe)
		skipped += p.Skipped
		unsafeLeft += p.Unsafe
		if !ok {
			continue
		}
		var diff bytes.Buffer
		err := source.WriteUnifiedDiff(&diff, r.name, r.name, r.file.Content, out)
		if err == nil {
			text := diff.String()
			if terminal {
				text = source.Printable(text)
			}
			_, err = io.WriteString(stdout, text)
		}
		if err != nil {
			textf(stderr, "lobster: writing output: %v\n", err)
			return exitInternal
		}
		applied += p.Applied
		changed++
	}
	textf(stderr, "lobster: %s would be applied in %s\n", plural(applied, "fix", "fixes"), plural(changed, "file", "files"))
	if skipped > 0 {
		textf(stderr, "lobster: %s left for a later run: %s another\n",
			plural(skipped, "fix", "fixes"), overlaps(skipped))
	}
	reportUnsafe(stderr, unsafeLeft)
	return code
}

func overlaps(n int) string {
	if n == 1 {
		return "it overlaps"
	}
	return "they overlap"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// writeFileAtomic replaces the file at path (following symbolic links) with
// data: it writes a temporary file in the same directory with the mode of the
// file, syncs it and renames it over the file, so that a reader sees the old
// text or the new, never a part.
func writeFileAtomic(path string, data []byte) (err error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".lobster-fix-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(fi.Mode().Perm()); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}
