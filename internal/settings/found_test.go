package settings

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/aclint/aclint/internal/input"
)

// TestLoadFoundRefusesWhatIsNotAFileOfTheRepository: the language server
// and lint read a found .aclint.yaml through LoadFound; a FIFO there must
// be refused at once (reading it hung both), and so must a link out.
func TestLoadFoundRefusesWhatIsNotAFileOfTheRepository(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	p := filepath.Join(dir, FileName)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no mkfifo")
	}
	var ce *input.ConfinedError
	if _, err := LoadFound(p, testRegistry, nil); !errors.As(err, &ce) || ce.Why != "it is a FIFO, not a regular file" {
		t.Errorf("a FIFO: %v", err)
	}
	os.Remove(p)
	os.Symlink("/etc/passwd", p)
	if _, err := LoadFound(p, testRegistry, nil); !errors.As(err, &ce) || ce.Why != "it is a link that leads out of the repository" {
		t.Errorf("a link out: %v", err)
	}
	os.Remove(p)
	os.WriteFile(p, []byte("fail-on: error\n"), 0o644)
	if s, err := LoadFound(p, testRegistry, nil); err != nil || s == nil {
		t.Errorf("a regular file: %v", err)
	}
}
