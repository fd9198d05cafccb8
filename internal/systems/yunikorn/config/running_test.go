package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunningDumps: both forms of every recorded dump are read as the
// running config they carry: the queue tree without the dump's own keys,
// the checksum, and extra as settings with positions in the dump.
func TestRunningDumps(t *testing.T) {
	for _, dir := range []string{"basic", "placement", "limits", "with-extra-config", "rejected-update"} {
		for _, name := range []string{"ws-v1-config.yaml", "ws-v1-config.json"} {
			p := filepath.Join("../../../../testdata/yunikorn-rest", dir, name)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			docs, err := LoadBytes(p, data, LoadOptions{})
			if err != nil || len(docs) != 1 || docs[0].Running == nil {
				t.Fatalf("%s: not read as a running config: %v", p, err)
			}
			d := docs[0]
			c := Decode(d)
			for _, pr := range c.Problems {
				t.Errorf("%s: %s", p, pr.Message)
			}
			if len(c.Partitions) != 1 || c.Partitions[0].Root == nil {
				t.Errorf("%s: no queue tree", p)
			}
			if len(d.Running.Checksum) != 64 || d.Running.JSON != (filepath.Ext(name) == ".json") {
				t.Errorf("%s: %+v", p, d.Running)
			}
			if dir == "with-extra-config" {
				s, ok := d.Settings["admissionController.accessControl.bypassAuth"]
				if !ok || s.Value != "false" || s.Pos.Line == 0 {
					t.Errorf("%s: extra setting %+v", p, s)
				}
			}
		}
	}
}

// TestNotRunningDumps: a queues.yaml with a key only a dump may have, or
// Partitions in capitals, is not taken for a dump: YuniKorn refuses it,
// and so does aclint.
func TestNotRunningDumps(t *testing.T) {
	for _, text := range []string{
		"partitions:\n  - name: default\n    queues:\n      - name: root\nextra:\n  log.level: info\n",
		"partitions:\n  - name: default\n    queues:\n      - name: root\ndeadlocktimeoutseconds: 60\nchecksum: abc\n",
		"Partitions:\n  - name: default\n",
		`{"Partitions":[{"Name":"default"}],"Extra":{}}`,
	} {
		docs, err := LoadBytes("q.yaml", []byte(text), LoadOptions{})
		if err != nil || len(docs) != 1 {
			t.Fatalf("%q: %v", text, err)
		}
		if docs[0].Running != nil {
			t.Errorf("%q is taken for a running config", text)
		}
		if !hasProblem(Decode(docs[0]), UnknownKey) {
			t.Errorf("%q: no unknown key", text)
		}
	}
}

// TestRunningDumpFieldsReadPast: a field aclint does not know in a dump (a
// newer scheduler's) is read past, at the top and in a queue, in both
// forms; the same field in a queues.yaml is what YuniKorn refuses.
func TestRunningDumpFieldsReadPast(t *testing.T) {
	data, err := os.ReadFile("../../../../testdata/yunikorn-rest/basic/ws-v1-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yamlDump := strings.Replace(string(data), "          parent: true\n", "          parent: true\n          weight: 3\n", 1) + "schedulerversion: 9.9.9\n"
	jdata, _ := os.ReadFile("../../../../testdata/yunikorn-rest/basic/ws-v1-config.json")
	jsonDump := strings.Replace(string(jdata), `"Parent":true,`, `"Parent":true,"Weight":3,`, 1)
	jsonDump = strings.Replace(jsonDump, `{"Partitions"`, `{"SchedulerVersion":"9.9.9","Partitions"`, 1)
	for name, text := range map[string]string{"dump.yaml": yamlDump, "dump.json": jsonDump} {
		docs, err := LoadBytes(name, []byte(text), LoadOptions{})
		if err != nil || len(docs) != 1 || docs[0].Running == nil {
			t.Fatalf("%s: not a running config: %v", name, err)
		}
		c := Decode(docs[0])
		for _, p := range c.Problems {
			t.Errorf("%s: %s", name, p.Message)
		}
		if got := strings.Join(docs[0].Running.Unknown, ","); got != "schedulerversion,weight" && got != "weight,schedulerversion" {
			t.Errorf("%s: read past %q", name, got)
		}
	}
	plain := "partitions:\n  - name: default\n    queues:\n      - name: root\n        weight: 3\n"
	docs, _ := LoadBytes("q.yaml", []byte(plain), LoadOptions{})
	if !hasProblem(Decode(docs[0]), UnknownKey) {
		t.Error("weight in a queues.yaml is not refused")
	}
}
