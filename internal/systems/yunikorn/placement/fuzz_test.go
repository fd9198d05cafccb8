package placement

import (
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

var fuzzConfigs = []string{
	"partitions:\n  - name: default\n    placementrules:\n      - {name: tag, value: namespace, create: true, parent: {name: fixed, value: teams}}\n      - {name: user, create: true, filter: {type: deny, users: [\"^a\"]}}\n      - {name: provided, create: false}\n    queues:\n      - name: root\n        submitacl: \"* dev\"\n        queues:\n          - {name: teams, parent: true}\n          - {name: default}\n",
	"partitions:\n  - name: default\n    placementrules:\n      - {name: fixed, value: rootx, create: true}\n      - {name: test}\n    queues:\n      - {name: root, submitacl: \"*\"}\n",
	"partitions:\n  - name: default\n    placementrules:\n      - {name: provided, create: true, parent: {name: tag, value: namespace.parentqueue, create: false}}\n    queues:\n      - name: root\n        queues:\n          - {name: a, submitacl: alice}\n          - {name: leaf}\n",
	"partitions:\n  - name: default\n    placementrules:\n      - {name: primaryGroup}\n    queues:\n      - {name: root}\n",
}

// FuzzPlace places arbitrary applications on arbitrary configs: placement
// never panics, and what it answers holds together.
func FuzzPlace(f *testing.F) {
	for _, c := range fuzzConfigs {
		f.Add(c, "alice", "dev,ops", "root.a", "namespace", "team-a", false)
		f.Add(c, "we ird", "", "a.b", "Namespace", "root.x", true)
		f.Add(c, "", "", "", "namespace.parentqueue", "root.teams", false)
	}
	f.Fuzz(func(t *testing.T, text, user, groups, queue, tagKey, tagVal string, forced bool) {
		if len(text) > 4096 {
			return
		}
		cfg := config.Decode(config.Parse("q.yaml", []byte(text)))
		if len(cfg.Partitions) == 0 {
			return
		}
		pl := New(cfg, acl.NewPolicy(cfg))
		app := App{User: user, Queue: queue, Tags: map[string]string{tagKey: tagVal}}
		if groups != "" {
			app.Groups = strings.Split(groups, ",")
		}
		if forced {
			app.Tags["application.create.force"] = "true"
		}
		res, err := pl.Place(app)
		if err != nil {
			return
		}
		if res.Placed {
			if res.Reason != "" || !strings.HasPrefix(res.Queue, "root.") || res.Queue != strings.ToLower(res.Queue) {
				t.Fatalf("placed with a reason or a bad queue: %+v", res)
			}
			if res.Created && res.CreatedUnder == "" {
				t.Fatalf("created without a parent: %+v", res)
			}
		} else if res.Reason == "" {
			t.Fatalf("rejected without a reason: %+v", res)
		}
		for _, part := range cfg.Partitions {
			pl.Creates(part, queue, acl.Subject{User: user}, nil)
			pl.Lands(part, acl.Subject{User: user}, map[string]string{"namespace": queue})
			pl.Ways(part, queue, nil)
		}
	})
}
