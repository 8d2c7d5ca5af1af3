package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestApprovalRoundTrip(t *testing.T) {
	s := newStore(t)
	when := time.Date(2026, 11, 30, 9, 57, 10, 123_456_789, time.FixedZone("x", 3600))
	key := testKey(WorkflowPrefix)
	id, err := s.CreateApproval(key, when)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[a-f0-9]{8}$`).MatchString(id) {
		t.Fatalf("approval id %q is not 8 lower-case hex characters", id)
	}
	path := filepath.Join(s.Dir, "approval_"+id+".json")
	data, _ := os.ReadFile(path)
	if want := `{"stateKey":"` + key + `","createdAt":"2026-11-30T08:57:10.123Z"}` + "\n"; string(data) != want {
		t.Errorf("index = %q, want %q", data, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("index mode %v, want 0600", st.Mode().Perm())
	}
	// Characters outside [a-f0-9] are dropped before the lookup.
	if got, err := s.LookupApproval(" " + id + "/"); err != nil || got != key {
		t.Errorf("LookupApproval = %q, %v", got, err)
	}
	if err := s.RemoveApproval(id); err != nil {
		t.Fatal(err)
	}
	_, err = s.LookupApproval(id)
	var notFound *ApprovalNotFoundError
	if !errors.As(err, &notFound) || err.Error() != fmt.Sprintf("Approval ID %q not found or expired", id) {
		t.Errorf("lookup after removal = %v", err)
	}
}

func TestLookupApprovalRefusals(t *testing.T) {
	s := newStore(t)
	writeFile(t, filepath.Join(s.Dir, "approval_deadbeef.json"), []byte("{corrupt"))
	writeFile(t, filepath.Join(s.Dir, "approval_0badf00d.json"), []byte(`{"stateKey":""}`))
	// Indexes that name no resume state: another index, a lock, an
	// arbitrary file, an over-long key.
	for id, key := range map[string]string{
		"0000000a": "approval_deadbeef",
		"0000000b": testKey(WorkflowPrefix) + ".json.lock",
		"0000000c": "config",
		"0000000d": WorkflowPrefix + strings.Repeat("a", 5000),
	} {
		writeFile(t, filepath.Join(s.Dir, "approval_"+id+".json"), []byte(`{"stateKey":"`+key+`"}`))
	}
	// A valid index under an id that is too long once cleaned.
	writeFile(t, filepath.Join(s.Dir, "approval_0123456789.json"), []byte(`{"stateKey":"`+testKey(WorkflowPrefix)+`"}`))
	for _, id := range []string{"deadbeef", "0badf00d", "12345678", "", "../../etc", "XYZ",
		"0000000a", "0000000b", "0000000c", "0000000d", "0123456789", strings.Repeat("ab", 5000)} {
		if key, err := s.LookupApproval(id); err == nil || err.Error() != fmt.Sprintf("Approval ID %q not found or expired", id) {
			t.Errorf("LookupApproval(%q) = %q, %v", id, key, err)
		}
	}
}

func TestCreateApprovalCollisions(t *testing.T) {
	s := newStore(t)
	defer func(f func() string) { newApprovalID = f }(newApprovalID)
	draws := 0
	newApprovalID = func() string {
		draws++
		if draws < 3 {
			return "00000000"
		}
		return "00000001"
	}
	k1, k2 := testKey(WorkflowPrefix), testKey(PipelinePrefix)
	if id, err := s.CreateApproval(k1, time.Now()); err != nil || id != "00000000" {
		t.Fatalf("first = %q, %v", id, err)
	}
	// The next draw collides with the first id and must not overwrite it.
	if id, err := s.CreateApproval(k2, time.Now()); err != nil || id != "00000001" {
		t.Fatalf("second = %q, %v", id, err)
	}
	if key, _ := s.LookupApproval("00000000"); key != k1 {
		t.Errorf("the first index was overwritten: %q", key)
	}
	newApprovalID = func() string { return "00000000" }
	if id, err := s.CreateApproval(testKey(WorkflowPrefix), time.Now()); err == nil || err.Error() != "Could not allocate a unique approval ID" {
		t.Errorf("always colliding = %q, %v", id, err)
	}
}

func TestRemoveApprovalFor(t *testing.T) {
	s := newStore(t)
	k1, k2 := testKey(WorkflowPrefix), testKey(WorkflowPrefix)
	a, err := s.CreateApproval(k1, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.CreateApproval(k2, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveApprovalFor(k1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LookupApproval(a); err == nil {
		t.Error("the index of k1 is still there")
	}
	if key, err := s.LookupApproval(b); err != nil || key != k2 {
		t.Errorf("the index of k2 was touched: %q, %v", key, err)
	}
}
