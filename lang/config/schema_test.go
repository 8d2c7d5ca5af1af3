package config

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite ../../schema/lobsterrc.schema.json")

const committed = "../../schema/lobsterrc.schema.json"

// TestSchemaGolden compares the generated schema with the committed copy.
func TestSchemaGolden(t *testing.T) {
	got, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(committed, got, 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("%v (run go test ./lang/config -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: run go test ./lang/config -update", committed)
	}
}
