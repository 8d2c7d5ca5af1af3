package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/js"
)

// MaxStateFile bounds the size of a state file that is read. States hold
// step outputs, each bounded per stream, so the limit is generous; what it
// stops is a file past any state's size, or a FIFO or device put in a
// state's place, exhausting memory or blocking the reader.
const MaxStateFile = 1 << 30

// ReadFile reads a file of the state directory through the bounded reader:
// at most MaxStateFile bytes, and nothing that is not a regular file,
// refused without blocking.
func ReadFile(path string) ([]byte, error) {
	return bounded.ReadFile(path, MaxStateFile)
}

// readSmall reads a lock's owner file, a few dozen bytes.
func readSmall(path string) ([]byte, error) {
	return bounded.ReadFile(path, 4<<10)
}

// A Store is a state directory.
type Store struct {
	Dir string
}

// DefaultDir is the state directory for env (a getenv function):
// LOBSTER_STATE_DIR when set (relative to the working directory), else
// ~/.lobster/state.
func DefaultDir(getenv func(string) string) (string, error) {
	if dir := js.Trim(getenv("LOBSTER_STATE_DIR")); dir != "" {
		return filepath.Abs(dir)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".lobster", "state"), nil
}

// Open returns the store in dir, creating the directory (mode 0700, unlike
// the reference, which leaves it to the umask: anyone who can write it can
// mint resumable runs) and syncing each new directory's parent.
func Open(dir string) (*Store, error) {
	if err := mkdirAll(dir); err != nil {
		return nil, err
	}
	return &Store{Dir: dir}, nil
}

func mkdirAll(dir string) error {
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return &fs.PathError{Op: "mkdir", Path: dir, Err: syscall.ENOTDIR}
		}
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir {
		if err := mkdirAll(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	return syncDir(parent)
}

// Path is the file of key in the store.
func (s *Store) Path(key string) (string, error) {
	name, err := FileName(key)
	if err != nil {
		return "", err
	}
	return filepath.Join(s.Dir, name), nil
}

// Lock acquires the lock on key's file (see LockFile).
func (s *Store) Lock(ctx context.Context, key string) (*Lock, error) {
	path, err := s.Path(key)
	if err != nil {
		return nil, err
	}
	return LockFile(ctx, path)
}

// locked runs fn with the path of key's file while holding its lock.
func (s *Store) locked(ctx context.Context, key string, fn func(path string) error) error {
	path, err := s.Path(key)
	if err != nil {
		return err
	}
	lock, err := LockFile(ctx, path)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	return fn(path)
}

// Read decodes key's value into v under its lock; found is false when the
// key has no file. A file that is not JSON is an error: state is
// authoritative and never silently replaced. When the lock cannot be
// created at all (a read-only directory), the read goes ahead without it:
// writes are atomic, so it still never sees a torn file.
func (s *Store) Read(ctx context.Context, key string, v any) (found bool, err error) {
	path, err := s.Path(key)
	if err != nil {
		return false, err
	}
	lock, err := LockFile(ctx, path)
	switch {
	case err == nil:
		defer lock.Unlock()
	case errors.Is(err, fs.ErrNotExist):
		return false, nil // no store directory yet
	case !lockUnavailable(err):
		return false, err
	}
	data, err := ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, json.Unmarshal(data, v)
}

// Write stores v as key's value under its lock, in the reference's format
// (JSON indented by two spaces, then a newline).
func (s *Store) Write(ctx context.Context, key string, v any) error {
	data, err := Encode(v)
	if err != nil {
		return err
	}
	return s.locked(ctx, key, func(path string) error {
		return WriteFileAtomic(path, data)
	})
}

// Delete removes key's file under its lock; a missing file is not an
// error.
func (s *Store) Delete(ctx context.Context, key string) error {
	return s.locked(ctx, key, func(path string) error {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return syncDir(s.Dir)
	})
}

// Encode is v as the reference writes state files: JSON indented by two
// spaces and a final newline, with <, > and & left as they are.
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// lockUnavailable says the lock directory cannot be created at all.
func lockUnavailable(err error) bool {
	return errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EROFS)
}
