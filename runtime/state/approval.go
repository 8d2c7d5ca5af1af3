package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// approvalAttempts is how many fresh ids CreateApproval draws before it
// gives up on collisions.
const approvalAttempts = 16

// approvalIDLen is the length of an approval id.
const approvalIDLen = 8

// newApprovalID draws an approval id: 8 lower-case hex characters.
var newApprovalID = func() string { return RandomHex(approvalIDLen / 2) }

// approvalIndex is the content of approval_<id>.json.
type approvalIndex struct {
	StateKey  string `json:"stateKey"`
	CreatedAt string `json:"createdAt"`
}

// CreateApproval issues a short approval id for the state stateKey, so that
// a person can resume with `lobster resume --id` instead of a long token.
// The index file is created exclusively, never over another id's. When the
// file system cannot create it (no hard links, read-only, full), no id is
// issued: id is "" and err is nil, and the run goes on with its token.
func (s *Store) CreateApproval(stateKey string, now time.Time) (id string, err error) {
	data, _ := json.Marshal(approvalIndex{StateKey: stateKey, CreatedAt: ISOTime(now)})
	data = append(data, '\n')
	for range approvalAttempts {
		id := newApprovalID()
		err := CreateExclusive(s.approvalPath(id), data)
		switch {
		case err == nil:
			return id, nil
		case errors.Is(err, fs.ErrExist):
			continue
		case noApprovalIndex(err):
			return "", nil
		default:
			return "", err
		}
	}
	return "", errors.New("Could not allocate a unique approval ID")
}

// noApprovalIndex says err means the index cannot be created here at all.
func noApprovalIndex(err error) bool {
	for _, e := range []error{syscall.ENOSYS, syscall.ENOTSUP, syscall.EOPNOTSUPP, syscall.EPERM, syscall.EXDEV,
		syscall.EACCES, syscall.EDQUOT, syscall.EIO, syscall.ENOSPC, syscall.EROFS} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// ApprovalNotFoundError is a lookup of an id with no usable index.
type ApprovalNotFoundError struct{ ID string }

func (e *ApprovalNotFoundError) Error() string {
	return fmt.Sprintf("Approval ID %q not found or expired", e.ID)
}

// LookupApproval is the state key of approval id. Only [a-f0-9] of id are
// kept, as the reference keeps them, so no id can name a file outside the
// store; what is left must be an id's 8 characters before any file is
// read. A missing or corrupt index, and one that names no resume state
// (ResumeKind), are not found.
func (s *Store) LookupApproval(id string) (stateKey string, err error) {
	clean := sanitizeApprovalID(id)
	if len(clean) != approvalIDLen {
		return "", &ApprovalNotFoundError{id}
	}
	data, err := ReadFile(s.approvalPath(clean))
	var index approvalIndex
	if err != nil || json.Unmarshal(data, &index) != nil || ResumeKind(index.StateKey) == "" {
		return "", &ApprovalNotFoundError{id}
	}
	return index.StateKey, nil
}

// RemoveApproval deletes approval id's index; a missing one is fine.
func (s *Store) RemoveApproval(id string) error {
	clean := sanitizeApprovalID(id)
	if clean == "" {
		return nil
	}
	if err := os.Remove(s.approvalPath(clean)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// RemoveApprovalFor deletes the first approval index that points to
// stateKey, for a resume by token whose id is not known.
func (s *Store) RemoveApprovalFor(stateKey string) error {
	paths, err := filepath.Glob(filepath.Join(s.Dir, "approval_*.json"))
	if err != nil {
		return err
	}
	for _, path := range paths {
		data, err := ReadFile(path)
		var index approvalIndex
		if err == nil && json.Unmarshal(data, &index) == nil && index.StateKey == stateKey {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			return nil
		}
	}
	return nil
}

func (s *Store) approvalPath(id string) string {
	return filepath.Join(s.Dir, "approval_"+id+".json")
}

func sanitizeApprovalID(id string) string {
	return strings.Map(func(r rune) rune {
		if '0' <= r && r <= '9' || 'a' <= r && r <= 'f' {
			return r
		}
		return -1
	}, id)
}

// ISOTime is t as JavaScript's toISOString writes it: UTC, milliseconds.
func ISOTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}
