package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// injected is a value's hostile tail: a line of its own starting with
// "::error::" is a GitHub Actions annotation in a CI log.
const injected = "\n::error::pwned"

// TestNoInjectedLine: a newline inside a value read from an input (a pod's
// user.info, its label, its namespace, the parentqueue annotation, a
// principal, a YTsaurus name, a YARN ACL, a validate-conf reason) never
// starts a line of aclint's text output or of its errors, on any command;
// nor does a name that starts with "::" where a listing indents it (the
// Actions runner trims a line's blanks first), and "##[" (which the
// runner's legacy parser takes anywhere in a line) is never printed.
func TestNoInjectedLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// JSON and YAML double quotes both read \n as a newline
	const nl = `\n::error::pwned`
	queues := write("queues.yaml", `partitions:
  - name: default
    placementrules:
      - name: provided
        create: true
      - name: tag
        value: namespace
        create: true
        parent:
          name: tag
          value: namespace.parentqueue
          create: true
    queues:
      - name: root
        submitacl: "*"
        limits:
          - limit: cap
            users: ["*"]
            maxapplications: 3
`)
	pod := write("pod.yaml", `apiVersion: v1
kind: Pod
metadata:
  name: job
  namespace: "team`+nl+`"
  labels:
    queue: "root.x`+nl+`"
  annotations:
    yunikorn.apache.org/user.info: '{"user":"alice`+nl+`","groups":["g`+nl+`"]}'
spec:
  schedulerName: yunikorn
`)
	podNoQueue := write("pod2.yaml", `apiVersion: v1
kind: Pod
metadata:
  name: job
  namespace: "team`+nl+`"
  annotations:
    yunikorn.apache.org/user.info: '{"user":"alice","groups":["g`+nl+`"]}'
spec:
  schedulerName: yunikorn
`)
	ns := write("ns.yaml", `apiVersion: v1
kind: Namespace
metadata:
  name: "team`+nl+`"
  annotations:
    yunikorn.apache.org/parentqueue: "root.p`+nl+`"
`)
	mesos := write("acls.json", `{"permissive": false, "run_tasks": [{"principals": {"values": ["spark`+nl+`"]}, "users": {"values": ["etl`+nl+`"]}}]}`)
	yt := write("tree.yaml", `users:
  "alice`+nl+`": {member_of: ["g`+nl+`"]}
groups:
  "g`+nl+`": {}
nodes:
  "/":
    acl:
      - {action: allow, subjects: ["g`+nl+`"], permissions: [read]}
`)
	yarnDir := filepath.Join(dir, "yarn")
	os.Mkdir(yarnDir, 0o755)
	cs := filepath.Join(yarnDir, "capacity-scheduler.xml")
	os.WriteFile(cs, []byte(`<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>
<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>
<property><name>yarn.scheduler.capacity.root.acl_submit_applications</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.acl_administer_queue</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.a.acl_submit_applications</name><value>alice&#10;::error::pwned,bob,x##[error]pwned g&#10;::error::pwned</value></property>
</configuration>`), 0o644)
	site := filepath.Join(yarnDir, "yarn-site.xml")
	os.WriteFile(site, []byte(`<configuration><property><name>yarn.acl.enable</name><value>true</value></property></configuration>`), 0o644)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"allowed":false,"reason":"bad` + nl + `"}`))
	}))
	defer server.Close()
	noAC := "--without-admission-controller"
	for _, args := range [][]string{
		{"place", "-f", queues, "default", "--pod", pod, "--namespace", ns, noAC},
		{"place", "-f", queues, "default", "--pod", podNoQueue, "--namespace", ns, noAC},
		{"place", "-f", queues, "default", "--pod", podNoQueue, "--namespace", ns, "--submitter", "x" + injected, "--submitter-groups", "y" + injected},
		{"check", "-f", queues, "default", "root.x", "--pod", pod, noAC},
		{"check", "-f", queues, "default", "root", "--pod", podNoQueue, noAC, "-v"},
		{"limits", "-f", queues, "default", "root", "--pod", pod, noAC},
		{"limits", "-f", queues, "default", "root", "--pod", podNoQueue, noAC},
		{"lint", queues, "--server", server.URL},
		{"who-can", "-f", mesos, "run_tasks"},
		{"access", "-f", mesos},
		{"matrix", "-f", mesos},
		{"check", "-f", mesos, "run_tasks", "--principal", "spark" + injected, "--object", "etl" + injected},
		{"who-can", "-f", yt, "read", "/"},
		{"access", "-f", yt},
		{"matrix", "-f", yt},
		{"check", "-f", yt, "alice" + injected, "read", "/"},
		{"check", "-f", yt, "zed" + injected, "read", "/"},
		{"lint", yt},
		{"who-can", "-f", cs, "-f", site, "submit", "root.a"},
		{"who-can", "-f", cs, "-f", site, "root.a"},
		{"who-can", "-f", cs, "-f", site, "root.a", "-o", "csv"},
		{"matrix", "-f", cs, "-f", site, "-o", "csv"},
		{"diff", cs, cs},
		{"access", "-f", cs, "-f", site},
		{"matrix", "-f", cs, "-f", site},
		{"check", "-f", cs, "-f", site, "root.a", "alice" + injected},
		{"check", "-f", cs, "-f", site, "root.a" + injected, "alice"},
		{"lint", cs},
	} {
		code, out, errOut := run(args...)
		for _, stream := range []string{out, errOut} {
			for _, line := range strings.Split(stream, "\n") {
				// the runner takes "::" after a line's blanks, and the
				// legacy "##[" anywhere in a line
				if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::error::pwned") || strings.Contains(line, "##[error]") {
					t.Errorf("%q: exit %d: a value reads as a workflow command:\nstdout:\n%s\nstderr:\n%s", args, code, out, errOut)
				}
			}
		}
		if code != 0 && code != 1 && code != 2 || args[0] != "lint" && out == "" && errOut == "" {
			t.Errorf("%q: exit %d with nothing said", args, code)
		}
	}
}

// TestUsageHintOnItsOwnLine: the "run 'aclint X --help' for usage" line
// that follows a usage error is aclint's own layout and keeps its line,
// while the message before it stays on one.
func TestUsageHintOnItsOwnLine(t *testing.T) {
	for _, args := range [][]string{{"check", "--no-such-flag"}, {"limits"}, {"place"}} {
		_, _, errOut := run(args...)
		lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[1], "run 'aclint ") || strings.Contains(errOut, `\n`) {
			t.Errorf("%q:\n%s", args, errOut)
		}
	}
}
