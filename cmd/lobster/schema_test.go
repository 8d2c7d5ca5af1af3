package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestSchemaCommand checks that lobster schema prints the committed schema.
func TestSchemaCommand(t *testing.T) {
	want, err := os.ReadFile("../../schema/lobster.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"schema"}, strings.NewReader(""), &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !bytes.Equal(stdout.Bytes(), want) {
		t.Error("lobster schema differs from schema/lobster.schema.json: run go test ./lang/schema -update")
	}
}

// TestSchemaConfigCommand checks that lobster schema --config prints the
// committed schema of the project configuration.
func TestSchemaConfigCommand(t *testing.T) {
	want, err := os.ReadFile("../../schema/lobsterrc.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"schema", "--config"}, strings.NewReader(""), &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !bytes.Equal(stdout.Bytes(), want) {
		t.Error("lobster schema --config differs from schema/lobsterrc.schema.json: run go test ./lang/config -update")
	}
}
