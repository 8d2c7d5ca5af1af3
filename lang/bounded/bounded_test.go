package bounded

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"testing/iotest"
	"time"
)

// returnsPromptly fails the test when fn has not returned after a long
// time: the cases here must not block (a FIFO with no writer).
func returnsPromptly(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("blocked")
	}
}

func TestReadFileRegular(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 513, 1000, 1024} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("x"), n)
		if err := os.WriteFile(p, want, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p, 1024)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%d bytes, limit 1024: got %d bytes, %v", n, len(got), err)
		}
	}
}

// A file is read into one buffer of its size (and one byte to see its end).
func TestReadFileAllocation(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	data, err := ReadFile(p, DefaultLimit)
	runtime.ReadMemStats(&after)
	if err != nil || len(data) != 1<<20 {
		t.Fatalf("got %d bytes, %v", len(data), err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20+16<<10 {
		t.Errorf("allocated %d bytes to read 1 MiB", n)
	}
}

func TestReadFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, make([]byte, 1025), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(p, 1024)
	var tl *TooLargeError
	var pe *fs.PathError
	if !errors.As(err, &tl) || tl.Size != 1025 || tl.Limit != 1024 || !errors.Is(err, ErrTooLarge) || !errors.As(err, &pe) || pe.Path != p {
		t.Fatalf("got %v", err)
	}
	if got, want := tl.Error(), "the file is 1025 bytes; files over 1024 bytes are not read"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// A sparse file of terabytes is refused from its size, without reading.
func TestReadFileSparse(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sparse")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		f.Close()
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ReadFile(p, DefaultLimit)
	runtime.ReadMemStats(&after)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 1<<40 {
		t.Fatalf("got %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("allocated %d bytes to refuse it", n)
	}
}

func TestReadFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.lobster")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	zeroLink := filepath.Join(dir, "zero.lobster")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	fifoLink := filepath.Join(dir, "fifo-link.lobster")
	if err := os.Symlink(fifo, fifoLink); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, msg string
		isDir     bool
	}{
		{fifo, "not a regular file (a named pipe)", false},
		{fifoLink, "not a regular file (a named pipe)", false},
		{"/dev/zero", "not a regular file (a character device)", false},
		{zeroLink, "not a regular file (a character device)", false},
		{"/dev/null", "not a regular file (a character device)", false},
		{"/dev/stdin", "", false},
		{sock, "not a regular file (a socket)", false},
		{dir, "is a directory", true},
	} {
		var err error
		returnsPromptly(t, func() { _, err = ReadFile(c.path, DefaultLimit) })
		var pe *fs.PathError
		if !errors.Is(err, ErrNotRegular) || !errors.As(err, &pe) || pe.Path != c.path {
			if c.path == "/dev/stdin" && err != nil {
				continue // the test's standard input may be a regular file, or absent
			}
			t.Errorf("%s: got %v", c.path, err)
			continue
		}
		if c.msg != "" && pe.Err.Error() != c.msg {
			t.Errorf("%s: message %q, want %q", c.path, pe.Err.Error(), c.msg)
		}
		if errors.Is(err, syscall.EISDIR) != c.isDir {
			t.Errorf("%s: errors.Is(EISDIR) = %v", c.path, !c.isDir)
		}
	}
}

// The check holds for the file opened, not only for what the first stat
// saw: a path that becomes a FIFO in between does not block the open.
func TestOpenRegularFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	var err error
	returnsPromptly(t, func() { _, _, err = openRegular(fifo) })
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("got %v", err)
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "missing"), DefaultLimit)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v", err)
	}
}

// A file whose size the file system does not give (procfs says 0) is read
// up to the limit and refused beyond it.
func TestReadFileUnknownSize(t *testing.T) {
	const p = "/proc/self/maps"
	st, err := os.Stat(p)
	if err != nil || st.Size() != 0 {
		t.Skip("no procfs")
	}
	data, err := ReadFile(p, DefaultLimit)
	if err != nil || len(data) == 0 {
		t.Fatalf("got %d bytes, %v", len(data), err)
	}
	_, err = ReadFile(p, 16)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != -1 {
		t.Fatalf("limit 16: got %v", err)
	}
	if got, want := tl.Error(), "the file is more than 16 bytes; files over 16 bytes are not read"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// endless is an endless stream of zeros that counts what was read from it.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n += int64(len(p))
	return len(p), nil
}

func TestReadAllBounded(t *testing.T) {
	const limit = 4 << 20
	var r endless
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadAll(&r, limit)
	runtime.ReadMemStats(&after)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != -1 || tl.Limit != limit {
		t.Fatalf("got %v", err)
	}
	if r.n != limit+1 {
		t.Errorf("read %d bytes, want limit+1 = %d", r.n, limit+1)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > limit+64<<10 {
		t.Errorf("allocated %d bytes to refuse a stream, for a limit of %d", n, limit)
	}
	data := make([]byte, limit)
	runtime.ReadMemStats(&before)
	got, err := ReadAll(bytes.NewReader(data), limit)
	runtime.ReadMemStats(&after)
	if err != nil || len(got) != limit {
		t.Fatalf("got %d bytes, %v", len(got), err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 2*limit+64<<10 {
		t.Errorf("allocated %d bytes to read %d", n, limit)
	}
	for _, n := range []int{0, 1, 512, chunkSize, chunkSize + 1, limit - 1, limit} {
		data := bytes.Repeat([]byte{'a'}, n)
		for _, r := range []io.Reader{bytes.NewReader(data), iotest.DataErrReader(bytes.NewReader(data)), iotest.HalfReader(bytes.NewReader(data))} {
			got, err := ReadAll(r, limit)
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("%d bytes: got %d, %v", n, len(got), err)
			}
		}
	}
	if _, err := ReadAll(bytes.NewReader(make([]byte, limit+1)), limit); !errors.Is(err, ErrTooLarge) {
		t.Errorf("limit+1 bytes: got %v", err)
	}
}

// A pipe with more than the limit in it: ReadAll stops after limit+1 bytes
// and does not wait for the writer to finish.
func TestReadAllPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	go func() {
		chunk := make([]byte, 64<<10)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}()
	returnsPromptly(t, func() { _, err = ReadAll(r, 1<<20) })
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("got %v", err)
	}
}

// A reader that returns nothing forever is an error, not a hang.
type stuck struct{}

func (stuck) Read([]byte) (int, error) { return 0, nil }

func TestReadAllNoProgress(t *testing.T) {
	if _, err := ReadAll(stuck{}, 10); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("got %v", err)
	}
}

// FuzzReadAll: ReadAll gives the input when it is at most limit bytes and
// ErrTooLarge otherwise, whatever the reads' sizes.
func FuzzReadAll(f *testing.F) {
	f.Add([]byte("hello"), uint16(5), uint16(0))
	f.Add([]byte("hello"), uint16(4), uint16(1))
	f.Add(make([]byte, 70000), uint16(65535), uint16(2))
	f.Fuzz(func(t *testing.T, data []byte, limit, how uint16) {
		var r io.Reader = bytes.NewReader(data)
		switch how % 4 {
		case 1:
			r = iotest.OneByteReader(r)
		case 2:
			r = iotest.HalfReader(r)
		case 3:
			r = iotest.DataErrReader(r)
		}
		got, err := ReadAll(r, int64(limit))
		if len(data) > int(limit) {
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("%d bytes, limit %d: %v", len(data), limit, err)
			}
			return
		}
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%d bytes, limit %d: got %d bytes, %v", len(data), limit, len(got), err)
		}
	})
}
