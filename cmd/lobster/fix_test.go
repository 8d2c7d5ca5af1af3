package main

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/source"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.lobster")
	if err := os.WriteFile(path, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.lobster")
	if err := os.Symlink("w.lobster", link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := writeFileAtomic(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "new\n" {
		t.Errorf("the file holds %q", data)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	if li, err := os.Lstat(link); err != nil || li.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is no longer a link: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left: %v", entries)
	}
	if err := writeFileAtomic(filepath.Join(dir, "missing.lobster"), nil); err == nil {
		t.Error("no error for a missing file")
	}
}

// applyUnified applies a unified diff of one file to old, checking the hunk
// headers and context as patch does.
func applyUnified(t *testing.T, old, diff string) string {
	t.Helper()
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		t.Fatalf("no headers:\n%s", diff)
	}
	src := strings.SplitAfter(old, "\n")
	if src[len(src)-1] == "" {
		src = src[:len(src)-1]
	}
	var out []string
	next := 0 // the next line of src to copy
	i := 2
	for i < len(lines) && lines[i] != "" {
		var oStart, oc, ns, nc int
		h := strings.TrimSuffix(lines[i], "\n")
		parse := func(s string) (int, int) {
			a, b, ok := strings.Cut(s, ",")
			start, _ := strconv.Atoi(a)
			n := 1
			if ok {
				n, _ = strconv.Atoi(b)
			}
			return start, n
		}
		var o, n string
		if _, err := fmt.Sscanf(h, "@@ -%s +%s @@", &o, &n); err != nil {
			t.Fatalf("bad hunk header %q", h)
		}
		oStart, oc = parse(o)
		ns, nc = parse(n)
		first := oStart - 1
		if oc == 0 {
			first = oStart
		}
		if first < next {
			t.Fatalf("hunk %q overlaps the previous one", h)
		}
		out = append(out, src[next:first]...)
		if ns2 := len(out) + 1; nc > 0 && ns2 != ns {
			t.Fatalf("hunk %q: the new text starts at line %d", h, ns2)
		}
		next = first
		i++
		gotO, gotN := 0, 0
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			text := l[1:]
			if i+1 < len(lines) && lines[i+1] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if next >= len(src) || src[next] != text {
					t.Fatalf("hunk %q: line %d is %q, the diff says %q", h, next+1, src[min(next, len(src)-1)], text)
				}
				next++
				gotO++
				if l[0] == ' ' {
					out = append(out, text)
					gotN++
				}
			case '+':
				out = append(out, text)
				gotN++
			default:
				t.Fatalf("bad line %q", l)
			}
			i++
		}
		if gotO != oc || gotN != nc {
			t.Fatalf("hunk %q has %d old and %d new lines", h, gotO, gotN)
		}
	}
	out = append(out, src[next:]...)
	return strings.Join(out, "")
}

func TestWriteUnifiedDiff(t *testing.T) {
	var buf bytes.Buffer
	if err := source.WriteUnifiedDiff(&buf, "a", "b", []byte("x\n"), []byte("x\n")); err != nil || buf.Len() != 0 {
		t.Errorf("equal texts: %q, %v", buf.String(), err)
	}
	buf.Reset()
	source.WriteUnifiedDiff(&buf, "f", "f", []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n"), []byte("1\n2\n3\n4\nfive\n6\n7\n8\n9\n"))
	if want := "--- f\n+++ f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"; buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	source.WriteUnifiedDiff(&buf, "f", "f", []byte("a\nb"), []byte("a\nc"))
	if want := "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"; buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	source.WriteUnifiedDiff(&buf, "f", "f", nil, []byte("new\n"))
	if want := "--- f\n+++ f\n@@ -0,0 +1 @@\n+new\n"; buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}

	// Random edits: the diff applies back.
	r := rand.New(rand.NewSource(1))
	words := []string{"a", "b", "c", "d", "e"}
	for n := 0; n < 300; n++ {
		var old []string
		for range r.Intn(30) {
			old = append(old, words[r.Intn(len(words))]+"\n")
		}
		cur := append([]string(nil), old...)
		for range r.Intn(5) + 1 {
			i := r.Intn(len(cur) + 1)
			switch r.Intn(3) {
			case 0:
				cur = append(cur[:i], append([]string{"new" + strconv.Itoa(r.Intn(3)) + "\n"}, cur[i:]...)...)
			case 1:
				if i < len(cur) {
					cur = append(cur[:i], cur[i+1:]...)
				}
			case 2:
				if i < len(cur) {
					cur[i] = "changed\n"
				}
			}
		}
		a, b := strings.Join(old, ""), strings.Join(cur, "")
		if r.Intn(4) == 0 {
			b = strings.TrimSuffix(b, "\n")
		}
		buf.Reset()
		if err := source.WriteUnifiedDiff(&buf, "f", "f", []byte(a), []byte(b)); err != nil {
			t.Fatal(err)
		}
		if a == b {
			continue
		}
		if got := applyUnified(t, a, buf.String()); got != b {
			t.Fatalf("the diff of\n%q\nto\n%q\napplies to\n%q:\n%s", a, b, got, buf.String())
		}
	}
}

func TestWriteGitHub(t *testing.T) {
	f := source.NewFile("a,b:c%.lobster", []byte("x: ä\n"))
	diags := []source.Diagnostic{
		{File: f.Name, Range: f.Range(3, 5), Severity: source.Hint, Code: "c:1", Message: "100% sure\r\nnext, line: here",
			Related: []source.Related{{File: "r.lobster", Range: f.Range(0, 1), Message: "see"}}},
		{File: "n.lobster", Severity: source.Warning, Message: "no position"},
	}
	var buf bytes.Buffer
	if err := source.WriteGitHub(&buf, map[string]*source.File{f.Name: f}, diags); err != nil {
		t.Fatal(err)
	}
	want := "::notice file=a%2Cb%3Ac%25.lobster,line=1,col=4,endLine=1,endColumn=5,title=c%3A1::100%25 sure%0D%0Anext, line: here%0Ar.lobster:1:1: note: see\n" +
		"::warning file=n.lobster::no position\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
