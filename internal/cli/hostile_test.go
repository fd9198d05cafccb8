package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aclint/aclint/internal/budget"
)

// zeros is /dev/zero as a reader, without the device.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestInputLimits: /dev/zero named, linked or piped, and a gzip bomb in a
// ConfigMap, end with exit 2 "input larger than", not with memory
// exhausted; --max-input-size raises the limit.
func TestInputLimits(t *testing.T) {
	dir := t.TempDir()
	if _, err := os.Stat("/dev/zero"); err == nil {
		link := filepath.Join(dir, "zero.yaml")
		os.Symlink("/dev/zero", link)
		for _, args := range [][]string{{"lint", "/dev/zero"}, {"lint", link}, {"check", "-f", link, "default", "root", "a"}} {
			code, _, errOut := run(args...)
			if code != 2 || !strings.Contains(errOut, "input larger than 64 MiB, aclint's limit") || !strings.Contains(errOut, "--max-input-size") {
				t.Errorf("%v: exit %d\n%s", args, code, errOut)
			}
		}
	}
	var out, errOut bytes.Buffer
	if code := Execute(testRegistry, []string{"check", "-f", "-", "default", "root", "a"}, io.LimitReader(zeros{}, 200<<20), &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "<stdin>: input larger than") {
		t.Errorf("stdin from zeros: exit %d\n%s", code, errOut.String())
	}
	// a gzip bomb: 100 MiB of comment lines, inflating past the limit
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write([]byte("partitions:\n"))
	line := bytes.Repeat([]byte("#"), 1<<20)
	for i := 0; i < 100; i++ {
		zw.Write(line)
	}
	zw.Close()
	bomb := filepath.Join(dir, "cm.yaml")
	os.WriteFile(bomb, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\nbinaryData:\n  queues.yaml.gz: "+base64.StdEncoding.EncodeToString(z.Bytes())+"\n"), 0o644)
	code, _, e := run("lint", bomb)
	if code != 2 || !strings.Contains(e, "binaryData queues.yaml.gz inflates to more than 64 MiB") {
		t.Errorf("gzip bomb: exit %d\n%s", code, e)
	}
	// a corrupt gzip value is an error, never "no config here"
	os.WriteFile(bomb, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\nbinaryData:\n  queues.yaml.gz: bm90IGd6aXA=\n"), 0o644)
	if code, _, e := run("lint", bomb); code != 2 || !strings.Contains(e, "not gzip data") {
		t.Errorf("corrupt gzip: exit %d\n%s", code, e)
	}
	// the limit can be raised, and a bad value is refused
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, append([]byte("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"*\"\n        queues:\n          - name: a\n"), bytes.Repeat([]byte("#\n"), 600)...), 0o644)
	if code, _, e := run("lint", "--max-input-size", "1KiB", big); code != 2 || !strings.Contains(e, "input larger than 1 KiB") {
		t.Errorf("1KiB: exit %d\n%s", code, e)
	}
	if code, _, e := run("lint", "--max-input-size", "2KiB", big); code != 0 {
		t.Errorf("2KiB: exit %d\n%s", code, e)
	}
	if code, _, e := run("lint", "--max-input-size", "lots", big); code != 2 || !strings.Contains(e, "invalid size") {
		t.Errorf("lots: exit %d\n%s", code, e)
	}
}

// TestScanSkipsFIFOsDevicesAndEscapingLinks: a directory search never reads
// a FIFO (which would hang), a device, or a link that leads out of the
// searched tree (whose content could be printed); each gets a warning.
func TestScanSkipsFIFOsDevicesAndEscapingLinks(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("partitions: [{name: default, queues: [{name: root, submitacl: \"TOPSECRET  x\"}]}]\n"), 0o644)
	os.Symlink(filepath.Join(outside, "secret.yaml"), filepath.Join(dir, "leak.yaml"))
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err != nil {
		t.Skip("no mkfifo")
	}
	os.WriteFile(filepath.Join(dir, "queues.yaml"), []byte("partitions: [{name: default, queues: [{name: root, submitacl: \"*\", queues: [{name: a}]}]}]\n"), 0o644)
	done := make(chan struct{}, 1)
	var code int
	var out, errOut string
	go func() { code, out, errOut = run("lint", dir); done <- struct{}{} }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the directory search hangs on a FIFO")
	}
	if code != 0 || strings.Contains(out+errOut, "TOPSECRET") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"fifo.yaml: not a regular file", "zero.yaml: a link to /dev/zero, outside", "leak.yaml: a link to " + outside} {
		if !strings.Contains(errOut, want) {
			t.Errorf("no warning %q:\n%s", want, errOut)
		}
	}
	// --fix on the directory never writes through the link out of it
	before, _ := os.ReadFile(filepath.Join(outside, "secret.yaml"))
	go func() { code, out, errOut = run("lint", "--fix", dir); done <- struct{}{} }()
	<-done
	if after, _ := os.ReadFile(filepath.Join(outside, "secret.yaml")); string(after) != string(before) {
		t.Errorf("--fix wrote outside the searched directory:\n%s", after)
	}
}

// TestQuadraticPaths: inputs that took minutes take seconds of CPU, and
// every finding is reported. The CPU limit is a generous guard against a
// return to quadratic time, not a benchmark.
func TestQuadraticPaths(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	var users strings.Builder
	for i := 0; i < 1000000; i++ {
		fmt.Fprintf(&users, "u%d,", i)
	}
	acl1m := write("acl1m.yaml", "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \""+strings.TrimSuffix(users.String(), ",")+" g\"\n        queues:\n          - name: a\n")
	var dups strings.Builder
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&dups, "u%d,", i%1000)
	}
	dup := write("dup.yaml", "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \""+strings.TrimSuffix(dups.String(), ",")+" g\"\n        queues:\n          - name: a\n")
	var stars strings.Builder
	stars.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&stars, "          - name: q%d\n            submitacl: *\n", i)
	}
	star := write("stars.yaml", stars.String())
	var one strings.Builder
	one.WriteString("{partitions: [{name: default, queues: [{name: root, queues: [")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&one, "{name: q%d, submitacl: \"a  b\"},", i)
	}
	oneline := write("oneline.yaml", strings.TrimSuffix(one.String(), ",")+"]}]}]}\n")
	var deep, path strings.Builder
	deep.WriteString("{partitions: [{name: default, queues: [")
	path.WriteString("root")
	for i := 0; i < 4900; i++ {
		fmt.Fprintf(&deep, "{name: l%d, queues: [", i)
		fmt.Fprintf(&path, ".l%d", i)
	}
	deep.WriteString("{name: leaf}" + strings.Repeat("]}", 4900) + "]}]}\n")
	deepFile := write("deep.yaml", deep.String())
	for _, tc := range []struct {
		args     []string
		code     int
		findings int    // findings in the summary (-1: not a lint)
		maxOut   int    // bytes of output at most
		want     string // in the output
	}{
		{[]string{"lint", acl1m}, 0, -1, 1 << 20, ""},
		{[]string{"check", "-f", acl1m, "default", "root.a", "u999999"}, 0, -1, 1 << 20, "decided by"},
		{[]string{"lint", "-o", "json", dup}, 0, -1, 200 << 20, "duplicate-entry"},
		{[]string{"lint", star}, 1, 2000, 4 << 20, "2000 errors"},
		{[]string{"lint", oneline}, 1, 5000, 8 << 20, "5000 errors"},
		{[]string{"check", "-f", oneline, "default", "root.q1", "a"}, 2, -1, 64 << 10, "and 4990 more errors"},
		{[]string{"check", "-f", deepFile, "default", path.String() + ".leaf", "a"}, 1, -1, 2 << 20, "more consulted, none lets the request in"},
		{[]string{"place", "-f", deepFile, "default", "a", "--queue", path.String() + ".leaf"}, 1, -1, 2 << 20, "more consulted, none lets"},
	} {
		var code int
		var out, errOut string
		cpu := budget.Best(1, func() { code, out, errOut = run(tc.args...) })
		what := strings.Join(tc.args, " ")
		if len(what) > 120 {
			what = what[:120]
		}
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%s: exit %d (want %d), output without %q:\n%.800s\n%.800s", what, code, tc.code, tc.want, out, errOut)
		}
		if len(out)+len(errOut) > tc.maxOut {
			t.Errorf("%s: %d bytes of output, want at most %d", what, len(out)+len(errOut), tc.maxOut)
		}
		if cpu > 60*time.Second {
			t.Errorf("%s: %v of CPU: quadratic again?", what, cpu)
		}
		t.Logf("%s: %v CPU, %d bytes out", what, cpu, len(out)+len(errOut))
	}
}

// TestOutputTargets: -o FORMAT=PATH writes through /dev/stdout and devices,
// fails cleanly on /dev/full, and the repository's .aclint.yaml cannot
// write outside its directory.
func TestOutputTargets(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "queues.yaml")
	os.WriteFile(cfg, []byte("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"a  b\"\n"), 0o644)
	code, out, _ := run("lint", "-o", "json=/dev/stdout", cfg)
	if code != 1 || !strings.Contains(out, `"rule": "acl-stray-space"`) {
		t.Errorf("/dev/stdout: exit %d\n%s", code, out)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		code, _, errOut := run("lint", "-o", "sarif=/dev/full", cfg)
		if code != 2 || !strings.Contains(errOut, "no space left on device") {
			t.Errorf("/dev/full: exit %d\n%s", code, errOut)
		}
		if fi, err := os.Stat("/dev/full"); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Fatal("/dev/full is no longer a device")
		}
	}
	// the repository's settings: inside is fine, outside is refused
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "queues.yaml"), []byte("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"*\"\n        queues:\n          - name: a\n"), 0o644)
	for _, bad := range []string{"../escape.sarif", "/tmp/escape.sarif", "sub/../../escape.sarif"} {
		os.WriteFile(filepath.Join(repo, ".aclint.yaml"), []byte("output: [text, sarif="+bad+"]\n"), 0o644)
		code, _, errOut := run("lint", filepath.Join(repo, "queues.yaml"))
		if code != 2 || !strings.Contains(errOut, "may write only to a relative path inside") {
			t.Errorf("%s: exit %d\n%s", bad, code, errOut)
		}
	}
	os.Symlink(t.TempDir(), filepath.Join(repo, "out"))
	os.WriteFile(filepath.Join(repo, ".aclint.yaml"), []byte("output: [text, sarif=out/x.sarif]\n"), 0o644)
	if code, _, errOut := run("lint", filepath.Join(repo, "queues.yaml")); code != 2 {
		t.Errorf("a link out of the repository: exit %d\n%s", code, errOut)
	}
	os.WriteFile(filepath.Join(repo, ".aclint.yaml"), []byte("output: [text, sarif=results.sarif]\n"), 0o644)
	if code, _, errOut := run("lint", filepath.Join(repo, "queues.yaml")); code != 0 {
		t.Errorf("inside: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(repo, "results.sarif")); err != nil {
		t.Error("the settings' output was not written inside the repository")
	}
	// the command line may write anywhere
	elsewhere := filepath.Join(t.TempDir(), "r.sarif")
	if code, _, errOut := run("lint", "-o", "sarif="+elsewhere, filepath.Join(repo, "queues.yaml")); code != 0 {
		t.Errorf("-o elsewhere: exit %d\n%s", code, errOut)
	}
}

// TestFixRefusals: --fix refuses a read-only file and a hard-linked one
// (unless --fix-hardlinks), keeps the mode, and a file named twice is one.
func TestFixRefusals(t *testing.T) {
	dir := t.TempDir()
	bad := "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"a  b\"\n        queues:\n          - name: x\n"
	p := filepath.Join(dir, "queues.yaml")
	os.WriteFile(p, []byte(bad), 0o444)
	os.Chmod(p, 0o444)
	if code, _, errOut := run("lint", "--fix", p); code != 2 || !strings.Contains(errOut, "read-only") {
		t.Errorf("read-only: exit %d\n%s", code, errOut)
	}
	os.Chmod(p, 0o640|fs.ModeSetgid)
	other := filepath.Join(dir, "other.yaml")
	os.Link(p, other)
	if code, _, errOut := run("lint", "--fix", p); code != 2 || !strings.Contains(errOut, "hard links") {
		t.Errorf("hard link: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := run("lint", "--fix", "--fix-hardlinks", p); code != 0 {
		t.Errorf("--fix-hardlinks: exit %d\n%s", code, errOut)
	}
	if b, _ := os.ReadFile(other); !strings.Contains(string(b), `"a b"`) {
		t.Errorf("the other name did not get the fix:\n%s", b)
	}
	os.Remove(other)
	os.WriteFile(p, []byte(bad), 0o640)
	os.Chmod(p, 0o640|fs.ModeSetgid)
	code, _, errOut := run("lint", "--fix", p, p, dir+"/./queues.yaml")
	if code != 0 || strings.Contains(errOut, "not plain UTF-8") || strings.Count(errOut, "applied") != 1 {
		t.Errorf("a file named twice: exit %d\n%s", code, errOut)
	}
	if fi, _ := os.Stat(p); fi.Mode()&(fs.ModePerm|fs.ModeSetgid) != 0o640|fs.ModeSetgid {
		t.Errorf("mode after --fix: %v", fi.Mode())
	}
}
