package engine

import (
	"os"
	"sync"
)

// ReadSet is the regular files one run read, under any name, so that no
// output of the run is written over one of them (`convert yarn cs.xml -o
// cs.xml` or `report -o html=q.yaml -f q.yaml` would replace the config
// they read). The run owns it: the command line makes one per run and
// hands it to every read (input.Options.Seen, Options.Seen) and every
// write (safewrite). A nil ReadSet remembers nothing and holds nothing:
// the language server, which writes no file, reads without one.
//
// Files are keyed by device and inode where the system gives them, so a
// directory of 64,000 files is remembered in time linear in its size;
// elsewhere (Windows) they are compared one by one with os.SameFile.
type ReadSet struct {
	mu    sync.Mutex
	keyed map[fileKey]bool
	files []os.FileInfo
}

// Add remembers a file, once: a long-running run (the language server
// re-reading .aclint.yaml on every request) keeps one entry per file, not
// one per read.
func (s *ReadSet) Add(info os.FileInfo) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := keyOf(info); ok {
		if s.keyed == nil {
			s.keyed = map[fileKey]bool{}
		}
		s.keyed[k] = true
		return
	}
	if !s.holds(info) {
		s.files = append(s.files, info)
	}
}

// Has reports whether path is a file the run read, under any name: the
// same file through a link, a hard link or another spelling of the path
// is the same file.
func (s *ReadSet) Has(path string) bool {
	if s == nil {
		return false
	}
	info, err := os.Stat(path)
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := keyOf(info); ok {
		return s.keyed[k]
	}
	return s.holds(info)
}

// holds looks for info among the files without a key; s.mu is held.
func (s *ReadSet) holds(info os.FileInfo) bool {
	for _, r := range s.files {
		if os.SameFile(r, info) {
			return true
		}
	}
	return false
}
