// Package vectors reads the conformance vectors of testdata/conformance
// (and any file of JSON lines like them) for the tests of every package
// that checks itself against them.
package vectors

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Each decodes every line of every file the globs match into a new T and
// calls fn with its file and 1-based line. A glob that matches nothing
// fails the test: a test over no vectors checks nothing.
func Each[T any](t testing.TB, globs []string, fn func(file string, line int, v *T)) {
	t.Helper()
	for _, glob := range globs {
		files, _ := filepath.Glob(glob)
		if len(files) == 0 {
			t.Fatalf("no vectors in %s", glob)
		}
		for _, file := range files {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 1<<20), 1<<24)
			for n := 1; sc.Scan(); n++ {
				v := new(T)
				if err := json.Unmarshal(sc.Bytes(), v); err != nil {
					t.Fatalf("%s:%d: %v", file, n, err)
				}
				fn(file, n, v)
			}
			if err := sc.Err(); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			f.Close()
		}
	}
}

// Config is what every vector holds: a config and whether YuniKorn
// accepts it (at start and as an update).
type Config struct {
	Config string `json:"config"`
	Valid  bool   `json:"valid"`
}
