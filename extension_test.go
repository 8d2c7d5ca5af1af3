package lobster_test

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestExtensionPackage holds the VS Code extension's package.json to the
// rest of the repository: the licence it declares is the repository's
// LICENSE, which the extension's directory carries as a copy (vsce packs
// only that directory), and the package file the READMEs tell readers to
// install is the one npm run package writes.
func TestExtensionPackage(t *testing.T) {
	data, err := os.ReadFile("editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Name, Version, License string
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	license, err := os.ReadFile("LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(license), "\n"); first != pkg.License+" License" {
		t.Errorf("LICENSE starts with %q; package.json says the licence is %s", first, pkg.License)
	}
	if copied, err := os.ReadFile("editors/vscode/LICENSE"); err != nil || !bytes.Equal(copied, license) {
		t.Errorf("editors/vscode/LICENSE is not a copy of LICENSE (%v): cp LICENSE editors/vscode/LICENSE", err)
	}

	want := pkg.Name + "-" + pkg.Version + ".vsix"
	vsix := regexp.MustCompile(`[A-Za-z0-9._-]+\.vsix`)
	for _, doc := range []string{"README.md", "editors/vscode/README.md"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, name := range vsix.FindAllString(string(text), -1) {
			n++
			if name != want {
				t.Errorf("%s names %s; npm run package writes %s", doc, name, want)
			}
		}
		if n == 0 {
			t.Errorf("%s does not say which package to install (%s)", doc, want)
		}
	}
}
