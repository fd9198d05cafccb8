package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestJSONValidWithHostileNames runs every command that writes JSON on
// names that hold a control character, DEL, a C1 control, a bidirectional
// override and bytes that are not UTF-8: the output is always one valid JSON
// document, and no such rune reaches the terminal as itself.
func TestJSONValidWithHostileNames(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// YAML double-quoted escapes: \x01, DEL, U+0085 (NEL), U+202E (RLO)
	cfg := write("queues.yaml", `partitions:
  - name: default
    placementrules:
      - name: provided
        create: true
    queues:
      - name: root
        submitacl: "a\x01b,d\x7fe f\u0081g,h\u202ei"
        adminacl: " ops"
        queues:
          - name: q
          - name: prod
            submitacl: "x\u202ey"
`)
	changed := write("changed.yaml", `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "z\x7fz o\u202ep"
        queues:
          - name: prod
`)
	tests := write("tests.yaml", "config: queues.yaml\npartition: default\ncases:\n  - user: \"a\\x01b\"\n    queue: root.prod\n    expect: deny\n  - user: \"d\\x7fe\"\n    groups: [\"\\u202e\"]\n    queue: root.prod\n    expect: allow\n")
	mesos := write("acls.json", `{"run_tasks": [{"principals": {"values": ["a\u007fb", "c\u202ed"]}, "users": {"type": "ANY"}}]}`)
	yt := write("tree.yaml", "users:\n  \"a\\x7fb\": {member_of: [\"g\\u202e\"]}\ngroups:\n  \"g\\u202e\": {}\nnodes:\n  \"//home/x\\x7f\":\n    acl:\n      - {action: allow, subjects: [\"g\\u202e\"], permissions: [read]}\n")
	bad := string([]byte{'u', 0xff, 0xfe})
	for _, args := range [][]string{
		{"lint", "-o", "json", cfg},
		{"lint", "-o", "json", mesos},
		{"lint", "-o", "json", yt},
		{"check", "-o", "json", "-f", cfg, "default", "root.prod", "a\x01b"},
		{"check", "-o", "json", "-f", cfg, "default", "root.prod", "d\x7fe", "--groups", "g\u0085,h\u202ei"},
		{"check", "-o", "json", "-f", cfg, "default", "root.new", "x\u202e"},
		{"check", "-o", "json", "-f", cfg, "default", "root.prod", bad, "--groups", bad},
		{"place", "-o", "json", "-f", cfg, "default", "a\x7fb", "--groups", "g\u202e", "--queue", "root.q\x7f", "--tag", "namespace=n\u0085"},
		{"who-can", "-o", "json", "-f", cfg, "default", "root.prod"},
		{"access", "-o", "json", "-f", cfg, "a\x01b"},
		{"access", "-o", "json", "-f", cfg, "d\x7fe", "--groups", "x\u202ey"},
		{"matrix", "-o", "json", "-f", cfg, "--subjects", "user:a\x7f,group:g\u202e"},
		{"diff", "-o", "json", cfg, changed},
		{"test", "-o", "json", tests},
		{"mesos", "check", "-o", "json", "-f", mesos, "run_tasks", "--principal", "a\x7fb", "--object", "u\u202e"},
		{"yt", "check", "-o", "json", "-f", yt, "a\x7fb", "read", "//home/x\x7f"},
		{"yt", "effective-acl", "-o", "json", "-f", yt, "//home/x\x7f"},
		{"rules", "-o", "json"},
	} {
		code, out, errOut := run(args...)
		if code == 2 {
			t.Errorf("%q: exit 2, no answer to test:\n%s", args, errOut)
			continue
		}
		if !json.Valid([]byte(out)) {
			t.Errorf("%q: not valid JSON:\n%s", args, out)
		}
		for _, r := range out {
			if r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e || r == utf8.RuneError && !strings.Contains(out, "\ufffd") {
				t.Errorf("%q: the rune %U reaches the terminal as itself", args, r)
				break
			}
		}
	}
}
