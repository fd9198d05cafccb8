package config

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
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

// TestChecksumOverTheBytesGiven: yunikorn-core hashes the config text it
// was given, a byte order mark and UTF-16 included (its configs package,
// LoadSchedulerConfigFromByteArray, asked with these three texts: the
// checksums below are what it computed). aclint reads all three as the
// same config, and must still tell them apart.
func TestChecksumOverTheBytesGiven(t *testing.T) {
	text := "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n"
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range text {
		utf16 = append(utf16, byte(r), 0)
	}
	for _, c := range []struct {
		name string
		data []byte
		core string
	}{
		{"plain", []byte(text), "F3AC7AAA51F0AEC35DD279815C4E223F1E622F529C13AA9B8EB0D5E646CAE5C1"},
		{"utf-8 bom", append([]byte{0xEF, 0xBB, 0xBF}, text...), "DED41A8AF1AB92C2567CF24AD0089E3C6EFEB636E5F72106279C75206AFD4FD9"},
		{"utf-16le", utf16, "A7975207364AC0B4261EB89DD73E9C5D5971BFEE6FDD73261E35C344DB5CA284"},
	} {
		docs, err := LoadBytes("queues.yaml", c.data, LoadOptions{})
		if err != nil || len(docs) != 1 {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := docs[0].RegisteredChecksum(); got != c.core {
			t.Errorf("%s: checksum %s, yunikorn-core's %s", c.name, got, c.core)
		}
		if p := Parse("queues.yaml", c.data); p.RegisteredChecksum() != c.core {
			t.Errorf("%s: Parse: checksum %s, yunikorn-core's %s", c.name, p.RegisteredChecksum(), c.core)
		}
	}
}

// TestRunningDiffersAgainstCore: for every config of the conformance
// vectors YuniKorn starts with, what yunikorn-core dumps once it runs it
// (testdata/yunikorn-rest/dumps, YAML and JSON) is that config to drift's
// field-by-field comparison, and carries its checksum.
func TestRunningDiffersAgainstCore(t *testing.T) {
	f, err := os.Open("../../../../testdata/yunikorn-rest/dumps/core-dumps.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20)
	n := 0
	for sc.Scan() {
		var v struct{ Config, DumpYAML, DumpJSON string }
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		n++
		file := Parse("queues.yaml", []byte(v.Config))
		for form, dump := range map[string]string{"yaml": v.DumpYAML, "json": v.DumpJSON} {
			docs, err := LoadBytes("dump", []byte(dump), LoadOptions{})
			if err != nil || len(docs) != 1 || docs[0].Running == nil {
				t.Fatalf("config %d: the %s dump is not read as a running config: %v", n, form, err)
			}
			if d := RunningDiffers(file, docs[0], 3); d != nil {
				t.Errorf("config %d, %s dump: differs %v\n%s", n, form, d, v.Config)
			}
			if file.RegisteredChecksum() != docs[0].Running.Checksum {
				t.Errorf("config %d, %s dump: checksum %s, the core's %s", n, form, file.RegisteredChecksum(), docs[0].Running.Checksum)
			}
		}
	}
	if n < 600 {
		t.Fatalf("only %d dumps", n)
	}
}
