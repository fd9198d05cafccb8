package yunikorn

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"

	"gopkg.in/yaml.v3"
)

// ruleRootName is the rule root-name.
func ruleRootName() *Rule {
	return &Rule{
		Name:           "root-name",
		PassesValidate: true,
		Severity:       Error,
		Summary:        "the single top-level queue is `Root` or `ROOT`, not `root`",
		Doc: "validate-conf compares the top-level queue name ignoring case, so `Root` passes and is taken\n" +
			"as the root. Building the partition then requires exactly `root` and fails with\n" +
			"`partition cannot be created without root queue`: the config is rejected when it loads.",
		Bad: `partitions:
  - name: default
    queues:
      - name: Root
        submitacl: "*"
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				if r := part.Root; !part.RootInserted && r.Name.Value != "root" {
					p.reportf(p.doc.NodePos(r.Name.Node), "rename the queue to root, in lower case",
						"the top-level queue of partition %s is named %q: validate-conf accepts it, but YuniKorn builds partitions only under a queue named exactly root (partition cannot be created without root queue)",
						part.CanonicalName(), r.Name.Value)
				}
			}
		},
	}
}

// ruleDuplicateQueue is the rule duplicate-queue.
func ruleDuplicateQueue() *Rule {
	return &Rule{
		Name:     "duplicate-queue",
		Severity: Error,
		Summary:  "sibling queues whose names repeat or differ only in case",
		Doc: "Queue names are case-insensitive in YuniKorn (`root.Dev` is `root.dev`), and validate-conf\n" +
			"rejects siblings with the same lower-cased name: `duplicate child name found with name 'Dev', level 1`.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: dev
          - name: Dev
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: dev
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				p.duplicateChildren(part.Root, 1)
			}
		},
	}
}

// duplicateChildren reports siblings with the same lower-cased name below q,
// whose children are at the given level, as checkQueues numbers them.
func (p *pass) duplicateChildren(q *config.Queue, level int) {
	if len(q.Children) > 64 {
		p.duplicateChildrenLarge(q, level)
	} else {
		p.duplicateChildrenSmall(q, level)
	}
	for _, c := range q.Children {
		p.duplicateChildren(c, level+1)
	}
}

// duplicateChildrenSmall compares siblings pairwise: no allocation for the
// usual handful of children.
func (p *pass) duplicateChildrenSmall(q *config.Queue, level int) {
	for i, c := range q.Children {
		for _, first := range q.Children[:i] {
			if first.LowerName() == c.LowerName() {
				p.duplicateQueue(q, first, c, level)
				break
			}
		}
	}
}

func (p *pass) duplicateQueue(parent, first, c *config.Queue, level int) {
	p.reportRelated(p.doc.NodePos(c.Name.Node), p.doc.NodePos(first.Name.Node), "the first queue of that name", "rename or merge the two queues: YuniKorn compares queue names ignoring case",
		"queue %q under %s repeats %q at line %d (YuniKorn: duplicate child name found with name '%s', level %d)",
		c.Name.Value, parent.Path(), first.Name.Value, p.doc.NodePos(first.Name.Node).Line, c.Name.Value, level)
}

// duplicateChildrenLarge is duplicateChildren's sibling check for wide
// queues, with a map instead of pairwise comparison.
func (p *pass) duplicateChildrenLarge(q *config.Queue, level int) {
	seen := make(map[string]*config.Queue, len(q.Children))
	for _, c := range q.Children {
		k := c.LowerName()
		if first, ok := seen[k]; ok {
			p.duplicateQueue(q, first, c, level)
			continue
		}
		seen[k] = c
	}
}

// ruleInvalidQueueName is the rule invalid-queue-name.
func ruleInvalidQueueName() *Rule {
	return &Rule{
		Name:     "invalid-queue-name",
		Severity: Error,
		Summary:  "a queue name outside `^[a-zA-Z0-9_:#/@-]{1,64}$`",
		Doc: "Queue names may use letters, digits and `_ : # / @ -`, 1 to 64 characters; a dot would split\n" +
			"the path. Any other name (including a missing one) makes validate-conf reject the config.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: data.eng
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: data-eng
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				part.Root.Walk(func(q *config.Queue) {
					for _, c := range q.Children {
						if acl.ValidQueueName(c.Name.Value) {
							continue
						}
						why := "only letters, digits and _ : # / @ - are allowed"
						switch {
						case c.Name.Value == "":
							why = "the queue has no name"
						case len(c.Name.Value) > 64:
							why = fmt.Sprintf("it is %d characters long, the limit is 64", len(c.Name.Value))
						case strings.Contains(c.Name.Value, "."):
							why = "a dot separates queues in a path, it cannot be part of a name"
						}
						p.reportf(p.doc.NodePos(c.Name.Node), "rename the queue to match "+acl.QueueNamePattern.String(),
							"queue name %q under %s is invalid: %s (YuniKorn: invalid queue name)", c.Name.Value, q.Path(), why)
					}
				})
			}
		},
	}
}

// ruleDuplicatePartition is the rule duplicate-partition.
func ruleDuplicatePartition() *Rule {
	return &Rule{
		Name:     "duplicate-partition",
		Severity: Error,
		Summary:  "two partitions with the same name, ignoring case (`\"\"` is `default`)",
		Doc: "Partition names are compared ignoring case, and an empty name means `default`. Two partitions\n" +
			"with the same name make validate-conf reject the config.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
  - name: ""
    queues:
      - name: root
        submitacl: "*"
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		check: func(p *pass) {
			seen := map[string]*config.Partition{}
			for _, part := range p.cfg.Partitions {
				k := strings.ToLower(part.CanonicalName())
				if first, ok := seen[k]; ok {
					p.reportRelated(p.partitionPos(part), p.partitionPos(first), "the first partition of that name", "give each partition its own name",
						"partition %q repeats partition %q defined at line %d (YuniKorn: duplicate partition name found with name %s)",
						part.Name.Value, first.Name.Value, p.doc.NodePos(first.Node).Line, part.CanonicalName())
					continue
				}
				seen[k] = part
			}
		},
	}
}

// ruleRootResources is the rule root-resources.
func ruleRootResources() *Rule {
	return &Rule{
		Name:     "root-resources",
		Severity: Error,
		Summary:  "resources set on the root queue",
		Doc: "The root queue's size is the cluster's size; YuniKorn rejects a config that sets\n" +
			"`resources.guaranteed` or `resources.max` on root, even to an empty mapping.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        resources:
          max: {memory: 100G}
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            resources:
              max: {memory: 100G}
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				r := part.Root
				if r.Synthetic {
					continue
				}
				for _, m := range []config.StrMap{r.Guaranteed, r.Max} {
					if m.NonNil() {
						p.reportf(p.doc.NodePos(m.Key), "remove it, and set resources on the queues below root instead",
							"root queue of partition %s sets resources.%s: YuniKorn rejects the config (root queue must not have resource limits set)",
							part.CanonicalName(), m.Key.Value)
					}
				}
			}
		},
	}
}

// ruleMissingQueues is the rule missing-queues.
func ruleMissingQueues() *Rule {
	return &Rule{
		Name:     "missing-queues",
		Severity: Error,
		Summary:  "a partition without a queues list",
		Doc: "Every partition needs a `queues` list; without one (or with `queues:` left empty) validate-conf\n" +
			"fails with `queue config is not set`. An explicit empty list `queues: []` is accepted: YuniKorn\n" +
			"then creates just the root queue.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: user
        create: true
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: user
        create: true
    queues:
      - name: root
        submitacl: "*"
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				if !part.QueuesSet {
					p.reportf(p.partitionPos(part), "add a queues list with at least the root queue",
						"partition %s has no queues list: YuniKorn rejects the config (queue config is not set)", part.CanonicalName())
				}
			}
		},
	}
}

// ruleNoPartitions is the rule no-partitions.
func ruleNoPartitions() *Rule {
	return &Rule{
		Name:           "no-partitions",
		PassesValidate: true,
		Severity:       Error,
		Summary:        "a config with no partitions: blank, only comments, or `partitions: []`",
		Doc: "YuniKorn falls back to its built-in default config only when the config is zero bytes long. A\n" +
			"config of blank lines or comments, or one whose `partitions` list is empty, is parsed and has no\n" +
			"partition: at start the scheduler runs without any partition and rejects every application\n" +
			"(`partition doesn't exist`); applied as an update it removes every running partition, and\n" +
			"removing a partition hangs the reload. Write the partitions out, or leave the config truly empty\n" +
			"(zero bytes, or no `queues.yaml` key) for the built-in default.",
		Bad: `# queues are managed elsewhere
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		check: func(p *pass) {
			if len(p.cfg.Partitions) > 0 || p.cfg.Default || len(p.doc.Problems) > 0 || len(p.cfg.Problems) > 0 {
				return
			}
			pos := p.doc.Pos(1, 1)
			what := "is blank or only comments"
			if p.doc.Root != nil {
				pos = p.doc.NodePos(p.doc.Root)
				what = "has no partitions"
				if n := mapValue(p.doc.Root, "partitions"); n != nil {
					pos = p.doc.NodePos(n)
					what = "has an empty partitions list"
				}
			}
			p.reportf(pos, "list at least the default partition with its root queue; for YuniKorn's built-in default, make the config zero bytes long",
				"the config %s: YuniKorn substitutes its built-in default only for zero bytes, so it runs with no partition and rejects every application (partition doesn't exist); as an update it would remove every partition", what)
		},
	}
}

// ruleLDAPResolverWithoutSettings is the rule ldap-resolver-without-settings.
func ruleLDAPResolverWithoutSettings() *Rule {
	return &Rule{
		Name:     "ldap-resolver-without-settings",
		Severity: Warning,
		Summary:  "the first partition uses the LDAP resolver, whose settings the scheduler must find at start",
		Doc: "YuniKorn creates one user group resolver for the whole scheduler, from the first partition's\n" +
			"`usergroupresolver`. With `type: ldap` it reads the LDAP settings from the Secret mounted at\n" +
			"`/run/secrets/ldap` when it starts, and exits when they are missing or invalid, so the config\n" +
			"alone does not say whether the scheduler will come up. Check the settings with\n" +
			"`aclint lint --ldap-config DIR` (this warning is not shown then).",
		Bad: `partitions:
  - name: default
    usergroupresolver:
      type: ldap
    queues:
      - name: root
        submitacl: " data-eng"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: " data-eng"
        queues:
          - name: default
`,
		check: func(p *pass) {
			if len(p.cfg.Partitions) == 0 {
				return
			}
			first := p.cfg.Partitions[0]
			if first.Resolver.Value != "ldap" {
				return
			}
			p.reportf(p.doc.NodePos(first.Resolver.Node), "mount the LDAP settings Secret at /run/secrets/ldap and check it with: aclint lint --ldap-config DIR",
				"partition %s is the first partition and uses the ldap resolver: YuniKorn reads the LDAP settings from /run/secrets/ldap at start and exits when they are missing or invalid", first.CanonicalName())
		},
	}
}

// WithLDAPSettings drops the reminder to check the LDAP settings from
// findings of a run that checked them (lint --ldap-config).
func WithLDAPSettings(f []Finding) []Finding {
	out := f[:0]
	for _, x := range f {
		if x.Rule != "ldap-resolver-without-settings" {
			out = append(out, x)
		}
	}
	return out
}

// ruleResolverType is the rule resolver-type.
func ruleResolverType() *Rule {
	return &Rule{
		Name:     "resolver-type",
		Severity: Warning,
		Summary:  "a `usergroupresolver.type` YuniKorn ignores (unknown or mis-cased), or `test`",
		Doc: "YuniKorn compares the resolver type exactly with `os`, `ldap` and `test`; anything else,\n" +
			"including `LDAP` or `OS`, silently means no resolver, and every user's only group is the user's\n" +
			"own name. `test` is a fixed table for YuniKorn's unit tests that knows five made-up users.",
		Bad: `partitions:
  - name: default
    usergroupresolver:
      type: OS
    queues:
      - name: root
        submitacl: " data-eng"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    usergroupresolver:
      type: os
    queues:
      - name: root
        submitacl: " data-eng"
        queues:
          - name: default
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				t := part.Resolver
				if !t.Set() {
					continue
				}
				switch v := t.Value; v {
				case "", "os", "ldap":
				case "test":
					p.reportf(p.doc.NodePos(t.Node), "use os or ldap, or remove usergroupresolver to take groups from the requests",
						"usergroupresolver type test is YuniKorn's fixed table for its unit tests: only testuser1 to testuser5 resolve, every other user is rejected")
				default:
					hint := "use one of os, ldap or test, in lower case, or remove the key"
					for _, known := range []string{"os", "ldap", "test"} {
						if strings.EqualFold(v, known) {
							hint = "write " + known + " in lower case"
						}
					}
					p.reportf(p.doc.NodePos(t.Node), hint,
						"usergroupresolver type %q is not one YuniKorn knows: it silently uses no resolver, so each user's only group is the user's own name", v)
				}
			}
		},
	}
}

// ruleConfigmapName is the rule configmap-name.
func ruleConfigmapName() *Rule {
	return &Rule{
		Name:     "configmap-name",
		Severity: Warning,
		Summary:  "a ConfigMap whose name YuniKorn does not read (a kustomize hash suffix, a typo)",
		Doc: "The Kubernetes shim reads its config from exactly two ConfigMaps in its namespace,\n" +
			"`yunikorn-defaults` and `yunikorn-configs`; a ConfigMap of any other name is never read, so the\n" +
			"scheduler keeps running what it had. kustomize's `configMapGenerator` appends a hash of the\n" +
			"content to the name (`yunikorn-configs-5k2t8m9bh4`): generate it with\n" +
			"`options: {disableNameSuffixHash: true}` so the name stays `yunikorn-configs`.",
		Bad: `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs-5k2t8m9bh4
data:
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: " admins"
            queues:
              - name: default
`,
		Good: `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
data:
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: " admins"
            queues:
              - name: default
`,
		check: func(p *pass) {
			d := p.doc
			if d.ConfigMap == "" || d.Helm || config.YuniKornReads(d.ConfigMap) || d.ConfigMapPos.Line == 0 {
				return
			}
			p.reportf(d.ConfigMapPos, configMapNameHint(d.ConfigMap), "%s", configMapNameMessage(d.ConfigMap))
		},
	}
}

// configMapNameMessage says that YuniKorn never reads a ConfigMap of this
// name, for lint and for the answers of the other commands.
func configMapNameMessage(name string) string {
	return fmt.Sprintf("ConfigMap %s is not read by YuniKorn: the Kubernetes shim reads only %s and %s in its namespace, so this queue config never reaches the scheduler", name, config.DefaultsConfigMap, config.ConfigsConfigMap)
}

func configMapNameHint(name string) string {
	for _, want := range []string{config.ConfigsConfigMap, config.DefaultsConfigMap} {
		if rest, ok := strings.CutPrefix(name, want+"-"); ok && kustomizeHash.MatchString(rest) {
			return fmt.Sprintf("the suffix %q looks like kustomize's content hash: set options.disableNameSuffixHash: true on the configMapGenerator (or generatorOptions) so the ConfigMap is named %s", rest, want)
		}
	}
	if near := engine.Nearest(name, []string{config.ConfigsConfigMap, config.DefaultsConfigMap}); near != "" {
		return "name it " + near
	}
	return "name it " + config.ConfigsConfigMap + " (or " + config.DefaultsConfigMap + ")"
}

// kustomizeHash is the suffix kustomize appends: ten characters of its
// hash alphabet (no vowels, no 0/1/3 to avoid words).
var kustomizeHash = regexp.MustCompile(`^[a-z0-9]{10}$`)

// ConfigMapNotes are what the answers of check, place and the audits say
// about the documents they read: a ConfigMap YuniKorn does not read.
func ConfigMapNotes(docs []*config.Document) []string {
	var notes []string
	for _, d := range docs {
		if d.ConfigMap != "" && !d.Helm && !config.YuniKornReads(d.ConfigMap) {
			notes = append(notes, configMapNameMessage(d.ConfigMap)+"; this answer is for the config it holds ("+configMapNameHint(d.ConfigMap)+")")
		}
	}
	return notes
}

// ruleResolverIgnored is the rule resolver-ignored.
func ruleResolverIgnored() *Rule {
	return &Rule{
		Name:     "resolver-ignored",
		Severity: Warning,
		Summary:  "a `usergroupresolver` on a partition other than the first, which YuniKorn never uses",
		Doc: "YuniKorn creates one user group resolver for the whole scheduler, once, from the first\n" +
			"partition it builds (`GetUserGroupCache` runs under a `sync.Once`). Every other partition's\n" +
			"`usergroupresolver` is read and ignored, so its requests without groups are resolved the first\n" +
			"partition's way. A change of the resolver also takes effect only when the scheduler restarts.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: " data-eng"
        queues:
          - name: default
  - name: gpu
    usergroupresolver:
      type: os
    queues:
      - name: root
        submitacl: " gpu-users"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    usergroupresolver:
      type: os
    queues:
      - name: root
        submitacl: " data-eng"
        queues:
          - name: default
  - name: gpu
    queues:
      - name: root
        submitacl: " gpu-users"
        queues:
          - name: default
`,
		check: func(p *pass) {
			if len(p.cfg.Partitions) < 2 {
				return
			}
			first := p.cfg.Partitions[0]
			used := first.Resolver.Value
			for _, part := range p.cfg.Partitions[1:] {
				t := part.Resolver
				if !t.Set() || t.Value == used {
					continue
				}
				firstSays := fmt.Sprintf("type %q", used)
				if used == "" {
					firstSays = "no resolver (each user's only group is the user's own name)"
				}
				p.reportf(p.doc.NodePos(t.Node), fmt.Sprintf("set usergroupresolver on the first partition (%s), which serves every partition, and remove it here", first.CanonicalName()),
					"usergroupresolver type %q of partition %s is ignored: YuniKorn creates one resolver for all partitions from the first partition, %s, which has %s", t.Value, part.CanonicalName(), first.CanonicalName(), firstSays)
			}
		},
	}
}

// partitionPos is where findings about a partition point: its name, or the
// partition itself when it has none.
func (p *pass) partitionPos(part *config.Partition) config.Position {
	if part.Name.Node != nil {
		return p.doc.NodePos(part.Name.Node)
	}
	return p.doc.NodePos(part.Node)
}

// mapValue returns the value of key in mapping n, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
