package state

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// newFileMode is the mode of every file the store creates: state holds
// prompts and items that other local users must not read.
const newFileMode fs.FileMode = 0o600

// WriteFileAtomic replaces path with data so that a reader, or a crash at
// any moment, sees either the old content or the new, never a mix: the data
// goes to a temporary file in the same directory, which is synced and
// renamed over path, and the directory is synced after. An existing file
// keeps its mode; a new one gets 0600. The temporary file never outlives a
// failure.
func WriteFileAtomic(path string, data []byte) (err error) {
	mode := newFileMode
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return &fs.PathError{Op: "write", Path: path, Err: syscall.EISDIR}
		}
		mode = st.Mode().Perm()
	}
	tmp, err := writeTemp(path, data, mode)
	if err != nil {
		return err
	}
	crashPoint("synced")
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	crashPoint("renamed")
	return syncDir(filepath.Dir(path))
}

// testCrashPoint, set only by tests, is called at each point of a write at
// which a crash leaves something else on disk; the crash test kills its
// writer there.
var testCrashPoint func(point string)

func crashPoint(point string) {
	if testCrashPoint != nil {
		testCrashPoint(point)
	}
}

// CreateExclusive creates path holding data, failing with an error matching
// fs.ErrExist when path exists: it is never overwritten. The content is
// complete before the name appears (a synced temporary file hard-linked to
// path).
func CreateExclusive(path string, data []byte) error {
	tmp, err := writeTemp(path, data, newFileMode)
	if err != nil {
		return err
	}
	err = os.Link(tmp, path)
	os.Remove(tmp)
	if err != nil {
		return err
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// writeTemp writes data to a new temporary file next to path, named
// ".<base>.<12 hex>.tmp" as the reference names them, synced and with mode.
func writeTemp(path string, data []byte, mode fs.FileMode) (tmp string, err error) {
	tmp = filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+"."+RandomHex(6)+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	crashPoint("created")
	_, err = f.Write(data)
	crashPoint("written")
	if err == nil {
		err = f.Chmod(mode) // the umask may have narrowed it
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return tmp, nil
}

// syncDir makes a rename or link in dir durable. File systems that cannot
// sync a directory say so with errors that are not failures.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return ignorableSyncError(err)
	}
	defer d.Close()
	return ignorableSyncError(d.Sync())
}

func ignorableSyncError(err error) error {
	for _, e := range []error{syscall.EACCES, syscall.EBADF, syscall.EINVAL, syscall.EISDIR, syscall.ENOSYS, syscall.ENOTSUP, syscall.EPERM} {
		if errors.Is(err, e) {
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("sync state directory: %w", err)
	}
	return nil
}

// RandomHex is n random bytes in lower-case hex.
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported systems
	return hex.EncodeToString(b)
}

// NewUUID is a random (version 4) UUID, the form of the reference's state
// keys and of the ids of runs.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
