package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// outputSchema compiles one of schema/*.schema.json.
func outputSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join("../../schema", name+".schema.json")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(path, doc); err != nil {
		t.Fatal(err)
	}
	// a schema may refer to another by its $id (place's submit is a
	// check): every schema is known by it
	others, _ := filepath.Glob("../../schema/*.schema.json")
	for _, o := range others {
		b, err := os.ReadFile(o)
		if err != nil {
			t.Fatal(err)
		}
		d, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
		if err != nil {
			t.Fatalf("%s: %v", o, err)
		}
		if o != path {
			c.AddResource("https://raw.githubusercontent.com/aclint/aclint/main/schema/"+filepath.Base(o), d)
		}
	}
	s, err := c.Compile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// TestOutputSchemas: check, who-can, access, matrix, diff and place write
// one JSON shape for every system and every answer, held to
// schema/COMMAND.schema.json: allowed and denied, a denial with its
// consulted rules, YuniKorn's -v, a diff with --flat, an answer that is not
// known, a side the system refuses, and a --pod the admission controller
// refuses or leaves to another scheduler, for YuniKorn, YARN, Mesos and
// YTsaurus files.
func TestOutputSchemas(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	ex := "../../examples/"
	queues, cs, site, acls, tree := ex+"queues.yaml", ex+"yarn/capacity-scheduler.xml", ex+"yarn/yarn-site.xml", ex+"mesos-acls.json", ex+"ytsaurus-tree.yaml"
	read := func(p string) string { b, _ := os.ReadFile(p); return string(b) }
	queues2 := write("q2.yaml", strings.Replace(read(queues), "deployer prod-team", "deployer prod-team,contractors", 1)+"  - name: gpu\n    queues:\n      - name: root\n")
	cs2 := write("capacity-scheduler.xml", strings.Replace(read(cs), "</configuration>", "<property><name>yarn.scheduler.capacity.root.prod.acl_submit_applications</name><value>alice,zed data</value></property></configuration>", 1))
	acls2 := write("acls2.json", strings.Replace(read(acls), `"spark"`, `"spark", "x"`, 1))
	tree2 := write("tree2.yaml", strings.Replace(read(tree), "subjects: [analysts], permissions: [read, write]", "subjects: [analysts], permissions: [read, write, remove]", 1))
	fsFile, fsSite := ex+"yarn-fair/fair-scheduler.xml", ex+"yarn-fair/yarn-site.xml"
	// sides the system refuses: YuniKorn's doubled space, a Mesos ACL kind it does not know
	badQueues := write("bad.yaml", "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"a  b\"\n")
	badACLs := write("bad.json", `{"register_frameworks": [{"principals": {"values": ["a"]}, "rolez": {"type": "ANY"}}]}`)
	// pods: one whose user.info the controller refuses from the submitter,
	// one in a namespace it bypasses, and one it lets through
	pq, pns := ex+"placement/queues.yaml", ex+"placement/namespace.yaml"
	refusedPod := write("refused-pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: team-a\n  annotations:\n    yunikorn.apache.org/user.info: '{\"user\":\"mallory\",\"groups\":[\"admins\"]}'\nspec:\n  containers:\n    - name: c\n      image: busybox\n")
	bypassPod := write("bypass-pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: kube-system\nspec:\n  schedulerName: default-scheduler\n  containers:\n    - name: c\n      image: busybox\n")
	bypassNS := write("kube-system.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: kube-system\n")
	okPod := ex + "placement/pod.yaml"
	refused := []string{"--pod", refusedPod, "--namespace", pns, "--submitter", "alice"}
	bypassed := []string{"--pod", bypassPod, "--namespace", bypassNS, "--submitter", "alice"}
	through := []string{"--pod", okPod, "--namespace", pns, "--submitter", "alice"}
	// Kubernetes RBAC: its own answers, and composed with YuniKorn's
	k8s, rbacDir := ex+"kubernetes", ex+"kubernetes/rbac"
	with := func(args []string, extra []string) []string { return append(append([]string(nil), args...), extra...) }
	// a change to both: an ACL loses a group, a namespace's binding gains
	// a user, and the admission controller lets a group claim any identity
	k8s2 := filepath.Join(dir, "k8s2")
	if err := os.CopyFS(k8s2, os.DirFS(k8s)); err != nil {
		t.Fatal(err)
	}
	cm := filepath.Join(k8s2, "yunikorn/yunikorn-configs.yaml")
	write("k8s2/yunikorn/yunikorn-configs.yaml", strings.Replace(strings.Replace(read(cm), `"deployer prod-team"`, `"deployer,carol"`, 1), "data:\n", "data:\n  admissionController.accessControl.externalGroups: \"^prod-team$\"\n", 1))
	write("k8s2/rbac/carol.yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: carol, namespace: prod}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}\nsubjects:\n- {kind: User, name: carol}\n")
	runs := map[string][][]string{
		"access": {
			{"access", "-f", queues, "alice"},
			{"access", "-f", cs, "-f", site, "alice", "--groups", "analysts"},
			{"access", "-f", acls, "spark"},
			{"access", "-f", tree, "alice"},
			with([]string{"access", "-f", pq}, refused),
			with([]string{"access", "-f", pq}, bypassed),
			with([]string{"access", "-f", pq}, through),
			{"access", "-f", rbacDir, "alice"},
			{"access", "-f", k8s, "bob", "--groups", "data-eng"},
		},
		"convert": {
			{"convert", "yarn", cs, site},
			{"convert", "yarn", ex + "yarn-migrated/capacity-scheduler.xml", ex + "yarn-migrated/yarn-site.xml"},
			{"convert", "yarn", fsFile, fsSite},
		},
		"matrix": {
			{"matrix", "-f", queues},
			{"matrix", "-f", cs, "-f", site},
			{"matrix", "-f", acls},
			{"matrix", "-f", tree},
		},
		"check": {
			{"check", "-f", queues, "default", "root.prod.etl", "alice"},
			{"check", "-f", queues, "default", "root.prod.etl", "deployer", "-v"},
			{"check", "-f", queues, "default", "root.prod.etl", "1bad"},
			{"check", "-f", cs, "-f", site, "root.prod.etl", "alice"},
			{"check", "-f", cs, "-f", site, "root.prod.etl", "bob"},
			{"check", "-f", cs, "root.prod.etl", "bob"},
			{"check", "-f", acls, "run_tasks", "spark", "etl"},
			{"check", "-f", acls, "register_frameworks", "spark", "prod"},
			{"check", "-f", tree, "alice", "read", "//home/reports"},
			with([]string{"check", "-f", pq, "default", "root.default"}, refused),
			with([]string{"check", "-f", pq, "default", "root.default"}, bypassed),
			{"check", "-f", rbacDir, "analytics", "jobs.batch", "alice"},
			{"check", "-f", rbacDir, "analytics", "pods", "alice"},
			{"check", "-f", k8s, "default", "root.prod", "deployer"},
			{"check", "-f", k8s, "default", "root.prod", "alice"},
		},
		"who-can": {
			{"who-can", "-f", queues, "default", "root.prod"},
			{"who-can", "-f", cs, "-f", site, "root.prod"},
			{"who-can", "-f", acls, "register_frameworks", "analytics"},
			{"who-can", "-f", tree, "//home/analytics", "read"},
			with([]string{"who-can", "-f", pq}, with(refused, []string{"default", "root.default"})),
			with([]string{"who-can", "-f", pq}, with(bypassed, []string{"default", "root.default"})),
			with([]string{"who-can", "-f", pq}, with(through, []string{"default", "root.default"})),
			{"who-can", "-f", rbacDir, "prod", "pods"},
			{"who-can", "-f", k8s, "default", "root.prod"},
		},
		"place": {
			{"place", "-f", queues, "default", "alice"},
			{"place", "-f", queues, "default", "bob", "--queue", "root.prod.etl"},
			{"place", "-f", cs, "-f", site, "alice", "--queue", "etl"},
			{"place", "-f", cs, "-f", site, "bob", "--queue", "etl", "--groups", "dev"},
			{"place", "-f", cs, "alice"},
			{"place", "-f", fsFile, "-f", fsSite, "alice", "--groups", "etl"},
			{"place", "-f", fsFile, "-f", fsSite, "carol", "--queue", "root.prod"},
			with([]string{"place", "-f", pq}, refused),
			with([]string{"place", "-f", pq}, bypassed),
		},
		"diff": {
			{"diff", queues, queues2},
			{"diff", "--flat", queues, queues2},
			{"diff", queues2, queues},
			{"diff", cs, cs2},
			{"diff", "--flat", acls, acls2},
			{"diff", tree, tree2},
			{"diff", queues, badQueues},
			{"diff", badQueues, badQueues},
			{"diff", acls, badACLs},
			{"diff", k8s, k8s2},
			{"diff", "--flat", k8s2, k8s},
		},
	}
	for name, cmds := range runs {
		s := outputSchema(t, name)
		systems := map[string]bool{}
		for _, args := range cmds {
			code, out, errOut := run(append(args, "-o", "json")...)
			if out == "" {
				t.Errorf("%v: exit %d, no JSON\n%s", args, code, errOut)
				continue
			}
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
			if err != nil {
				t.Errorf("%v: not JSON: %v\n%s", args, err, out)
				continue
			}
			if err := s.Validate(v); err != nil {
				t.Errorf("%v: does not hold to schema/%s.schema.json: %v\n%s", args, name, err, out)
			}
			var head struct{ System string }
			json.Unmarshal([]byte(out), &head)
			systems[head.System] = true
		}
		if name == "convert" {
			continue // one system's answer: no system field
		}
		// every system that answers the command: rbac answers check,
		// who-can and access (kubectl auth can-i's questions) and no other
		want := map[string]int{"place": 2, "matrix": 4, "diff": 4}[name]
		if want == 0 {
			want = len(testRegistry.Systems())
		}
		if len(systems) != want {
			t.Errorf("%s: the runs cover %v, not every system", name, systems)
		}
	}
}
