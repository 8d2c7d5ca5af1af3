// Package bounded reads files and streams that may be hostile, in bounded
// time and memory. Every reader of a user-controlled path in the toolchain
// goes through it: workflow files and their child workflows, configuration,
// standard input and state files, in the CLI, the runtime and the language
// server.
//
// [ReadFile] refuses anything that is not a regular file (a FIFO, a device, a
// socket, a directory) before reading a byte and without blocking: it opens
// the path non-blocking, checks the opened file with fstat, and only then
// reads. A regular file whose size is over the limit is refused without
// reading it (a sparse file of terabytes costs nothing); otherwise at most
// limit+1 bytes are read, so a file that grows while it is read is refused
// too. [ReadAll] bounds a stream (standard input, which may be a pipe or
// /dev/zero) the same way. Input over the limit costs the limit in memory;
// a file under it, its size; a stream under it, twice its size at most.
package bounded

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"syscall"
)

// DefaultLimit is the size limit, in bytes, of the files the toolchain reads:
// workflow files, child workflows, configuration and state. Larger ones are
// refused with a [TooLargeError].
const DefaultLimit = 8 << 20

// ErrTooLarge is matched by errors.Is for a [TooLargeError].
var ErrTooLarge = errors.New("too large")

// ErrNotRegular is matched by errors.Is for a [NotRegularError].
var ErrNotRegular = errors.New("not a regular file")

// A TooLargeError reports input over the limit. Its message is the one the
// toolchain shows: "the file is 9437184 bytes; files over 8388608 bytes are
// not read".
type TooLargeError struct {
	Size  int64 // the size, when the file system gave it; -1 when only "more than Limit" is known
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("the file is more than %d bytes; files over %d bytes are not read", e.Limit, e.Limit)
	}
	return fmt.Sprintf("the file is %d bytes; files over %d bytes are not read", e.Size, e.Limit)
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// A NotRegularError reports a path that names something other than a
// regular file. Its message names what it is: "not a regular file (a named
// pipe)", or "is a directory" as the system says it.
type NotRegularError struct {
	Mode fs.FileMode // the type bits of what the path names
}

func (e *NotRegularError) Error() string {
	var what string
	switch t := e.Mode.Type(); {
	case t&fs.ModeDir != 0:
		return syscall.EISDIR.Error()
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case t&fs.ModeSocket != 0:
		what = "a socket"
	case t&fs.ModeCharDevice != 0:
		what = "a character device"
	case t&fs.ModeDevice != 0:
		what = "a block device"
	default:
		return ErrNotRegular.Error()
	}
	return ErrNotRegular.Error() + " (" + what + ")"
}

// Is makes errors.Is(err, ErrNotRegular) true, and errors.Is(err,
// syscall.EISDIR) for a directory, as a read of one would say.
func (e *NotRegularError) Is(target error) bool {
	return target == ErrNotRegular || target == syscall.EISDIR && e.Mode.IsDir()
}

// Reason is the text of err without the operation and path that an
// *fs.PathError adds: "no such file or directory", not "open x: no such
// file or directory".
func Reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// ReadFile returns the content of the regular file at path (symbolic links
// are followed) when it is at most limit bytes long. Errors are
// *fs.PathError values: with a [*NotRegularError] for anything that is not
// a regular file, returned without reading it or waiting for it; with a
// [*TooLargeError] for a file over limit bytes, of which at most limit+1
// bytes were read; or with the system's error.
func ReadFile(path string, limit int64) ([]byte, error) {
	// Stat before opening: opening some devices has effects of its own.
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: st.Mode().Type()}}
	}
	f, st, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: st.Size(), Limit: limit}}
	}
	data, err := readAtMost(f, limit, st.Size())
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return data, nil
}

// openRegular opens path for reading when it is a regular file. The open
// does not block, even when path has become a FIFO since it was looked at,
// and what is checked is the file opened.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: st.Mode().Type()}}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// ReadAll reads r to its end when it holds at most limit bytes. It reads at
// most limit+1 bytes: for more it stops and returns a [*TooLargeError] (with
// Size -1), whatever r is (a pipe, /dev/zero). It does not check what r is:
// use [ReadFile] for a path.
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	return readAtMost(r, limit, 0)
}

// chunkSize is the size of the pieces that input of unknown length is read
// in. They are joined at the end, so that input over the limit costs the
// limit and no more, and input under it twice its size at most.
const chunkSize = 64 << 10

// readAtMost reads r to its end, or until it has read more than limit bytes.
// size is how long r is expected to be: a first buffer of that size plus one
// byte sees the end of such input with no other allocation; more is read in
// chunks, joined at the end.
func readAtMost(r io.Reader, limit, size int64) ([]byte, error) {
	limit = min(max(limit, 0), math.MaxInt32) // an int everywhere
	first := make([]byte, min(max(size, 0), limit)+1)
	n, err := fill(r, first)
	if err == io.EOF {
		return first[:n], nil
	}
	if err != nil {
		return nil, err
	}
	chunks, total := [][]byte{first}, int64(n)
	for total <= limit {
		c := make([]byte, min(chunkSize, limit+1-total))
		n, err := fill(r, c)
		chunks, total = append(chunks, c[:n]), total+int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if total > limit {
		return nil, &TooLargeError{Size: -1, Limit: limit}
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}

// fill reads into buf until it is full (nil error) or r ends (io.EOF, with
// what was read before).
func fill(r io.Reader, buf []byte) (int, error) {
	n, empty := 0, 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		switch {
		case err == io.EOF:
			return n, io.EOF
		case err != nil:
			return n, err
		case m == 0:
			if empty++; empty >= 100 {
				return n, io.ErrNoProgress
			}
		default:
			empty = 0
		}
	}
	return n, nil
}
