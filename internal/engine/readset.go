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
type ReadSet struct {
	mu    sync.Mutex
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
	for _, r := range s.files {
		if os.SameFile(r, info) {
			return
		}
	}
	s.files = append(s.files, info)
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
	for _, r := range s.files {
		if os.SameFile(r, info) {
			return true
		}
	}
	return false
}
