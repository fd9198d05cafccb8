package yunikorn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func cm(name, data string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n" + data
}

const queuesA = "  queues.yaml: |\n    partitions:\n      - name: default\n        queues:\n          - name: root\n            submitacl: \"a\"\n"
const queuesB = "  queues.yaml: |\n    partitions:\n      - name: default\n        queues:\n          - name: root\n            submitacl: \"b\"\n"

// The ConfigMap merge YuniKorn does: yunikorn-configs over
// yunikorn-defaults, key by key; a missing queues.yaml key taken from the
// other ConfigMap; both without it is the built-in default; one alone
// without it is no answer, with advice that works for every command.
func TestReadAndAcceptMerge(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	defaults := write("defaults.yaml", cm("yunikorn-defaults", queuesA))
	configs := write("configs.yaml", cm("yunikorn-configs", queuesB))
	bare := write("bare.yaml", cm("yunikorn-configs", "  log.level: INFO\n"))
	bareDefaults := write("bare-defaults.yaml", cm("yunikorn-defaults", "  log.level: DEBUG\n"))

	docs, _, err := Read([]string{defaults, configs}, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l := Accept(docs, nil)
	if v := l.Config.Partitions[0].Root.SubmitACL.Value; v != "b" || len(l.Notes) == 0 || !strings.Contains(l.Notes[0], "overridden by") {
		t.Errorf("configs over defaults: %q %v", v, l.Notes)
	}

	docs, notes, err := Read([]string{defaults, bare}, ReadOptions{})
	if err != nil || len(docs) != 1 || len(notes) != 1 || !strings.Contains(notes[0], "the queue config comes from") {
		t.Fatalf("key taken from defaults: %v %v %v", docs, notes, err)
	}
	if v := Accept(docs, nil).Config.Partitions[0].Root.SubmitACL.Value; v != "a" {
		t.Errorf("the queue config of defaults: %q", v)
	}

	docs, _, err = Read([]string{bare, bareDefaults}, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if l := Accept(docs, nil); len(l.Warnings) == 0 || !strings.Contains(l.Warnings[0], "built-in default") || len(l.Errors) != 0 {
		t.Errorf("neither has the key: %+v", l)
	}

	_, _, err = Read([]string{bare}, ReadOptions{})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "give both ConfigMaps in one file") {
		t.Errorf("one alone without the key: %v", err)
	}

	rejected := write("rejected.yaml", "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"a  b\"\n")
	_, err = Load([]string{rejected}, ReadOptions{}, nil)
	var rej *RejectedError
	if !errors.As(err, &rej) || len(rej.Errors) == 0 || rej.Errors[0].Rule != "acl-stray-space" {
		t.Errorf("a rejected config: %v", err)
	}
}
