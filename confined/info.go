package confined

import (
	"io/fs"
	"os"
	"sort"
	"time"

	"golang.org/x/sys/unix"
)

// info is an fs.FileInfo built from a stat taken by descriptor.
type info struct {
	name string
	st   unix.Stat_t
}

func newInfo(name string, st *unix.Stat_t) *info { return &info{name: name, st: *st} }

func (i *info) Name() string       { return i.name }
func (i *info) Size() int64        { return i.st.Size }
func (i *info) ModTime() time.Time { return time.Unix(i.st.Mtim.Unix()) }
func (i *info) IsDir() bool        { return i.Mode().IsDir() }
func (i *info) Sys() any           { return &i.st }

func (i *info) Mode() fs.FileMode {
	m := fs.FileMode(i.st.Mode & 0o777)
	switch i.st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	}
	return m
}

// Links is how many names a file described by Stat or ReadDir has (1 for
// a file no one hard-linked).
func Links(fi fs.FileInfo) uint64 {
	if i, ok := fi.(*info); ok {
		return uint64(i.st.Nlink)
	}
	return 1
}

// entry is a directory entry whose Info is taken with fstatat on the
// directory's descriptor when it is read.
type entry struct{ info *info }

func (e entry) Name() string               { return e.info.name }
func (e entry) IsDir() bool                { return e.info.IsDir() }
func (e entry) Type() fs.FileMode          { return e.info.Mode().Type() }
func (e entry) Info() (fs.FileInfo, error) { return e.info, nil }
func (e entry) String() string             { return fs.FormatDirEntry(e) }

// readDirFD lists the directory open as fd, sorted by name; entries that
// vanish while it reads are left out.
func readDirFD(fd int, name string) ([]fs.DirEntry, error) {
	dup, err := unix.Dup(fd)
	if err != nil {
		return nil, fail("read directory", name, err)
	}
	unix.CloseOnExec(dup)
	d := os.NewFile(uintptr(dup), name)
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, fail("read directory", name, err)
	}
	sort.Strings(names)
	out := make([]fs.DirEntry, 0, len(names))
	for _, n := range names {
		var st unix.Stat_t
		if unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue
		}
		out = append(out, entry{newInfo(n, &st)})
	}
	return out, nil
}
