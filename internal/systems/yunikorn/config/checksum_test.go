package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChecksumOfRunningConfigs: the checksum of each config a real
// scheduler ran (../shared/yunikorn-rest) is the one its dump reports, and
// the checksum of YuniKorn's built-in default is core's.
func TestChecksumOfRunningConfigs(t *testing.T) {
	dirs, _ := filepath.Glob("../../../../testdata/yunikorn-rest/*/config.yaml")
	if len(dirs) == 0 {
		t.Fatal("no fixtures in testdata/yunikorn-rest")
	}
	for _, cfg := range dirs {
		text, _ := os.ReadFile(cfg)
		dump, _ := os.ReadFile(filepath.Join(filepath.Dir(cfg), "ws-v1-config.yaml"))
		docs, err := LoadBytes("dump.yaml", dump, LoadOptions{})
		if err != nil || len(docs) != 1 || docs[0].Running == nil {
			t.Fatalf("%s: the dump is not read as a running config: %v", cfg, err)
		}
		if got, want := Checksum(text), docs[0].Running.Checksum; got != want {
			t.Errorf("%s: checksum %s, the scheduler says %s", cfg, got, want)
		}
	}
}

func TestChecksumQuirks(t *testing.T) {
	h := strings.Repeat("AB", 32)
	base := "partitions:\n  - name: default\n"
	// a checksum line anywhere is removed with its key, not its new line
	if Checksum([]byte(base+"checksum: "+h+"\n")) != Checksum([]byte(base+"\n")) {
		t.Error("a checksum line is not removed")
	}
	// what is removed runs from the first "checksum: " for up to 74
	// characters, whatever they are: here the next line too
	short := base + "checksum: x\nqueues: []\n"
	if Checksum([]byte(short)) != Checksum([]byte(base+"\n")) {
		t.Error("a short checksum does not remove what core removes")
	}
	if got := (&Document{}).RegisteredChecksum(); got != Checksum([]byte("\n"+DefaultConfigText)) {
		t.Errorf("the default config's checksum: %s", got)
	}
}
