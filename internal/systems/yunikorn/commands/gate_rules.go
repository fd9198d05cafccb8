package commands

// The rules that judge the queue config with the gate in front of it
// (gate_lint.go walks it once). Each is its check of what the walk found.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// gateExampleMark divides a gate rule's example into the ConfigMap and
// the RBAC manifests beside it.
const gateExampleMark = "# rbac.yaml\n"

// gateRules are the rules only the config and the gate together show.
func gateRules() []*engine.Rule {
	return []*engine.Rule{ruleClaimsAnyIdentity(), ruleUnreachableEntry(), ruleNobodyCanRun()}
}

// isGateRule says whether the rule named is one of gateRules.
func isGateRule(name string) bool {
	return slices.ContainsFunc(gateRules(), func(r *engine.Rule) bool { return r.Name == name })
}

// gateRule is a rule of gateRules, its check reading what the walk found.
func gateRule(r *engine.Rule, check func(c *composed, report func(engine.Finding))) *engine.Rule {
	r.System = yunikorn.System
	r.Check = engine.Typed(check)
	return r
}

// subjectText names a subject in a sentence: "user alice", "everyone".
func subjectText(sub audit.GateSubject) string {
	if sub.Kind == everyone.Kind {
		return "every authenticated user"
	}
	return strings.ToLower(sub.Kind) + " " + sub.Name
}

func ruleClaimsAnyIdentity() *engine.Rule {
	return gateRule(&engine.Rule{Name: "kubernetes-claims-any-identity", Severity: engine.Warning,
		Summary: "a subject RBAC lets create pods may set their `user.info`: its pods reach YuniKorn as any user, past every queue's ACL",
		Doc: "The admission controller keeps the `yunikorn.apache.org/user.info` annotation of a pod whose creator matches\n" +
			"`admissionController.accessControl.externalUsers` or `externalGroups` (or `systemUsers`): the pod then\n" +
			"reaches YuniKorn as whatever user and groups it writes. With the RBAC manifests beside the ConfigMap,\n" +
			"aclint names each subject the bindings let create pods (or a workload that makes them) for whom that is\n" +
			"so: it can submit to every queue whose ACLs admit anyone. Keep the patterns to the controllers that must\n" +
			"set the annotation (the Spark operator), or take the binding away.",
		Bad: gateCM(`  admissionController.accessControl.externalUsers: "^deployer$"
`, "deployer") + gateExampleMark + gateNS + gateBinding("deployer", "User", "deployer"),
		Good: gateCM("", "deployer") + gateExampleMark + gateNS + gateBinding("deployer", "User", "deployer"),
	}, func(c *composed, report func(engine.Finding)) {
		done := map[string]bool{}
		for _, cl := range c.claims {
			key := cl.sub.Kind + "/" + cl.sub.Name
			if cl.bypass || done[key] || cl.sub.Kind != everyone.Kind && c.everyoneClaims(cl.on.ns.Name) {
				continue
			}
			done[key] = true
			report(engine.Finding{Pos: cl.on.c.Pos,
				Message: fmt.Sprintf("%s may create pods in namespace %s (%s) and set their user.info: %s; its pods reach YuniKorn as any user, past every queue's ACL",
					subjectText(cl.sub), cl.on.ns.Name, cl.on.c.Binding, cl.how),
				Hint: "keep admissionController.accessControl.externalUsers, externalGroups and systemUsers to the controllers that must set user.info, or take the binding away"})
		}
	})
}

func ruleUnreachableEntry() *engine.Rule {
	return gateRule(&engine.Rule{Name: "kubernetes-unreachable-acl-entry", Severity: engine.Info,
		Summary: "a submit ACL entry names a user or group whom no binding of the files lets create pods anywhere that leads to the queue",
		Doc: "On Kubernetes an application reaches a queue only as a pod: someone RBAC lets create it (or a workload that\n" +
			"makes it) in a namespace whose pods placement puts there. When no binding in the files does that for a\n" +
			"user or group a queue's submit ACL names, even for a member of every group the bindings name, the entry\n" +
			"grants nothing the files can use: a stale name, or a binding that lives elsewhere (give its file with -f).",
		Bad:  gateCM("", "deployer,carol") + gateExampleMark + gateNS + gateBinding("deployer", "User", "deployer"),
		Good: gateCM("", "deployer") + gateExampleMark + gateNS + gateBinding("deployer", "User", "deployer"),
	}, func(c *composed, report func(engine.Finding)) {
		groups := c.boundGroups()
		for _, p := range c.t.l.Config.Partitions {
			if p.Root == nil {
				continue
			}
			p.Root.Walk(func(q *config.Queue) {
				if !q.SubmitACL.Set() {
					return
				}
				v := acl.Parse(q.SubmitACL.Value)
				for _, e := range v.Entries {
					if !e.Effective() || e.Name == "*" {
						continue
					}
					sub := audit.GateSubject{Kind: "User", Name: e.Name, User: e.Name, Groups: groups}
					if e.Kind == acl.Group {
						sub = audit.GateSubject{Kind: "Group", Name: e.Name, User: everyone.User, Groups: append([]string{e.Name}, groups...)}
					}
					if c.mayReach(p.CanonicalName(), q, sub) {
						continue
					}
					report(engine.Finding{Pos: c.t.l.Config.Doc.ValuePos(q.SubmitACL.Node, e.Offset),
						Message: fmt.Sprintf("submitacl of %s names %s %q, whom no binding of the files lets create pods in a namespace whose pods land in %s or below", q.Path(), e.Kind, e.Name, q.Path()),
						Hint:    "drop the stale name, or give the file of the binding that lets them create pods there with -f"})
				}
			})
		}
	})
}

func ruleNobodyCanRun() *engine.Rule {
	return gateRule(&engine.Rule{Name: "kubernetes-nobody-can-run", Severity: engine.Warning,
		Summary: "a namespace whose pods land in a queue whose ACLs admit none of the subjects RBAC lets create pods there",
		Doc: "Every pod naming no queue that a subject the bindings let create pods in the namespace makes lands in a\n" +
			"queue whose submit ACLs refuse that subject's identity (or placement rejects it): nobody who can create\n" +
			"pods there can run them. Name the subjects in the queue's ACL, or place the namespace elsewhere.",
		Bad:  gateCM("", "deployer") + gateExampleMark + gateNS + gateBinding("alice", "User", "alice"),
		Good: gateCM("", "alice") + gateExampleMark + gateNS + gateBinding("alice", "User", "alice"),
	}, func(c *composed, report func(engine.Finding)) {
		for _, p := range c.t.l.Config.Partitions {
			for _, ns := range c.t.g.Namespaces() {
				if !ns.Declared {
					continue
				}
				if why, who := c.nobodyRuns(p.CanonicalName(), ns); why != "" {
					report(engine.Finding{Pos: ns.Pos,
						Message: fmt.Sprintf("in partition %s, pods naming no queue that %s create in namespace %s %s: nobody who may create pods there can run them", p.CanonicalName(), strings.Join(who, ", "), ns.Name, why),
						Hint:    "name the subjects in the queue's submitacl, or change the placement of the namespace"})
				}
			}
		}
	})
}

// gateCM is a gate rule example's ConfigMap: settings, and root.prod
// (where namespace prod's pods land) with submitacl acl.
func gateCM(settings, acl string) string {
	return `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
data:
` + settings + `  queues.yaml: |
    partitions:
      - name: default
        placementrules:
          - {name: tag, value: namespace, create: false}
        queues:
          - name: root
            queues:
              - {name: prod, submitacl: "` + acl + `"}
`
}

// gateNS is a gate rule example's namespace.
const gateNS = "apiVersion: v1\nkind: Namespace\nmetadata: {name: prod}\n---\n"

// gateBinding is a gate rule example's binding of the edit ClusterRole
// in prod.
func gateBinding(name, kind, subject string) string {
	return fmt.Sprintf("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: %s, namespace: prod}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}\nsubjects:\n- {kind: %s, name: %s}\n", name, kind, subject)
}

// Rules are YuniKorn's rules and those it checks with the gate in front
// of it.
func (s Sys) Rules() []*engine.Rule {
	return append(s.Sys.Rules(), gateRules()...)
}

// gateExampleCM and gateExampleRBAC are the files a gate rule's example
// is shown as: the ConfigMap, and the RBAC manifests linted beside it.
const gateExampleCM, gateExampleRBAC = "yunikorn-configs.yaml", "rbac.yaml"

// Example lints a gate rule's example as `aclint lint -f
// yunikorn-configs.yaml -f rbac.yaml`, and every other as YuniKorn's.
func (s Sys) Example(r *engine.Rule, text string) engine.Example {
	cm, rb, ok := strings.Cut(text, gateExampleMark)
	if !ok || !isGateRule(r.Name) {
		return s.Sys.Example(r, text)
	}
	in := &engine.Input{Path: gateExampleCM, Arg: gateExampleCM, Data: []byte(cm), Explicit: true}
	b := &engine.Input{Path: gateExampleRBAC, Arg: gateExampleRBAC, Data: []byte(rb), Explicit: true}
	in.Related, b.Related = []*engine.Input{in}, []*engine.Input{b}
	return engine.Example{Command: "aclint lint -f " + gateExampleCM + " -f " + gateExampleRBAC, Input: in, Beside: []*engine.Input{b}}
}

// ExampleBlock shows a gate rule's example as its two files.
func (s Sys) ExampleBlock(r *engine.Rule, text string) string {
	cm, rb, ok := strings.Cut(text, gateExampleMark)
	if !ok || !isGateRule(r.Name) {
		return s.Sys.ExampleBlock(r, text)
	}
	return "```yaml\n# " + gateExampleCM + "\n" + cm + "```\n\n```yaml\n# " + gateExampleRBAC + "\n" + rb + "```\n"
}

// ExampleFile is the name a rule's example is shown as.
func (s Sys) ExampleFile(r *engine.Rule) string {
	if isGateRule(r.Name) {
		return gateExampleCM + " and " + gateExampleRBAC
	}
	return s.Sys.ExampleFile(r)
}

// ExampleTitle heads a rule's example.
func (s Sys) ExampleTitle(r *engine.Rule) string {
	if isGateRule(r.Name) {
		return "Example `" + gateExampleCM + "` and `" + gateExampleRBAC + "`"
	}
	return s.Sys.ExampleTitle(r)
}
