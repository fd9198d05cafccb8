package placement

import (
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

const layout = `partitions:
  - name: default
    placementrules:
      - name: provided
        create: false
      - name: tag
        value: namespace
        create: true
        parent:
          name: tag
          value: namespace.parentqueue
          create: false
      - name: user
        create: true
        filter:
          users: [bob]
        parent:
          name: fixed
          value: sandbox
    queues:
      - name: root
        submitacl: " admins"
        queues:
          - name: teams
            parent: true
            submitacl: "*"
          - name: sandbox
            parent: true
            submitacl: "*"
          - name: default
            submitacl: "*"
`

func setup(t *testing.T, text string) (*Placer, *config.Partition) {
	t.Helper()
	cfg := config.Decode(config.Parse("q.yaml", []byte(text)))
	p := acl.NewPolicy(cfg)
	pl := New(cfg, p)
	p.SetCreator(pl)
	return pl, cfg.Partitions[0]
}

// TagsFor inverts a rule chain: the rule's tag gives the last part, its
// parent's tag the part above; a Kubernetes namespace is never dotted.
func TestTagsFor(t *testing.T) {
	_, part := setup(t, layout)
	rules, err := Build(part)
	if err != nil {
		t.Fatal(err)
	}
	tag := rules[1]
	for queue, want := range map[string]string{
		"root.teams.team-a": "namespace=team-a, namespace.parentqueue=teams",
		"root.team-a":       "", // only a namespace "root.team-a" would: none has a dot
		"root.a.b.c":        "namespace=c, namespace.parentqueue=root.a.b",
		"root.teams.a_b":    "", // no namespace has an underscore
		"other.x":           "",
	} {
		got := ""
		if tags := TagsFor(tag, queue); tags != nil {
			got = acl.DescribeTags(tags)
		}
		if got != want {
			t.Errorf("TagsFor(%s) = %q, want %q", queue, got, want)
		}
	}
	if TagsFor(rules[2], "root.sandbox.bob") != nil {
		t.Errorf("a chain without a tag rule needs no tags")
	}
}

// Creates: with the request's tags, the tag rule creates the namespace
// queue; without them it says which tags would; the user rule creates the
// user's own queue, for that user only.
func TestCreates(t *testing.T) {
	pl, part := setup(t, layout)
	sub := acl.Subject{User: "alice", Groups: []string{"dev"}}
	if c := pl.Creates(part, "root.teams.team-a", sub, map[string]string{"namespace": "team-a", "namespace.parentqueue": "teams"}); !strings.HasPrefix(c.By, "rule 2 (tag namespace") {
		t.Errorf("with tags: %+v", c)
	}
	c := pl.Creates(part, "root.teams.team-a", sub, nil)
	if c.By != "" || acl.DescribeTags(c.Tags) != "namespace=team-a, namespace.parentqueue=teams" || !strings.HasPrefix(c.NeedsBy, "rule 2") {
		t.Errorf("without tags: %+v", c)
	}
	if c := pl.Creates(part, "root.teams.team-a", sub, map[string]string{"namespace": "team-b"}); c.By != "" || c.Tags != nil {
		t.Errorf("other tags: %+v", c)
	}
	if c := pl.Creates(part, "root.sandbox.bob", acl.Subject{User: "bob", Groups: []string{"bob"}}, map[string]string{}); !strings.HasPrefix(c.By, "rule 3 (user") {
		t.Errorf("bob's queue: %+v", c)
	}
	if c := pl.Creates(part, "root.sandbox.alice", sub, map[string]string{}); c.By != "" {
		t.Errorf("the user rule's filter lets only bob in: %+v", c)
	}
}

// Ways numbers the rule as the partition does, and Lands
// names where a request naming no queue is created.
func TestWaysAndLands(t *testing.T) {
	pl, part := setup(t, layout)
	if c := pl.Ways(part, "root.sandbox.bob_dot_x", nil); !strings.HasPrefix(c.By, "rule 3 (user") {
		t.Errorf("only the third rule makes it: %+v", c)
	}
	if c := pl.Ways(part, "root.teams.ns1", nil); !strings.HasPrefix(c.By, "rule 2 (tag") {
		t.Errorf("the tag rule makes it: %+v", c)
	}
	if c := pl.Ways(part, "root.prd", nil); c.By != "" {
		t.Errorf("a typo is created by nothing a pod can send: %+v", c)
	}
	q, under, by := pl.Lands(part, acl.Subject{User: "bob", Groups: []string{"bob"}}, map[string]string{"namespace": "x"})
	if q != "root.sandbox.bob" || under != "root.sandbox" || !strings.HasPrefix(by, "rule 3") {
		t.Errorf("Lands: %s under %s by %s", q, under, by)
	}
	if q, _, _ := pl.Lands(part, acl.Subject{User: "alice", Groups: []string{"dev"}}, nil); q != "" {
		t.Errorf("alice lands in the existing root.default, created nothing: %s", q)
	}
}

// FromPod reads a workload through its pod template, in the workload's
// namespace, and refuses what makes no pods.
func TestFromPodWorkloads(t *testing.T) {
	job := []byte("kind: CronJob\nmetadata: {name: n, namespace: batch}\nspec:\n  jobTemplate:\n    spec:\n      template:\n        metadata:\n          labels: {queue: root.x}\n")
	app, d, err := FromPod(job, nil)
	if err != nil || app.Queue != "root.x" || app.Tags["namespace"] != "batch" || d.Workload != "CronJob" {
		t.Errorf("CronJob: %+v %+v %v", app, d, err)
	}
	if _, _, err := FromPod([]byte("kind: Deployment\nmetadata: {name: d}\n"), nil); err == nil || !strings.Contains(err.Error(), "has no spec.template") {
		t.Errorf("a Deployment without a template: %v", err)
	}
	if _, _, err := FromPod([]byte("kind: Service\nmetadata: {name: s}\n"), nil); err == nil {
		t.Errorf("a Service makes no pods")
	}
}
