package commands

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"

	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/systems/yunikorn/admission"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

// requestFlags are what a question says about the request the shim sends:
// its tags (--tag), or a pod (--pod, --namespace) with whoever creates it
// (--submitter, --submitter-groups) or no admission controller in the path.
// Every command that takes a pod reads it here, the one way place does.
type requestFlags struct {
	tags                 []string
	pod, ns              string
	submitter, subGroups string
	without              bool
	max                  func() int64 // --max-input-size, for the manifests
	seen                 *engine.ReadSet
}

func (r *requestFlags) register(s *streams, f *pflag.FlagSet) {
	r.max, r.seen = s.env.MaxInput, s.env.Seen()
	f.StringArrayVar(&r.tags, "tag", nil, "a tag of the request KEY=VALUE, e.g. namespace=team-a (repeatable); decides what tag rules create")
	f.StringVar(&r.pod, "pod", "", "read the request from a pod (or workload) manifest as the admission controller and the Kubernetes shim do: its tags, queue and identity")
	f.StringVar(&r.ns, "namespace", "", "with --pod: the pod's namespace manifest, for its yunikorn.apache.org annotations")
	f.StringVar(&r.submitter, "submitter", "", "with --pod: the Kubernetes user who creates the pod, as the admission controller sees it")
	f.StringVar(&r.subGroups, "submitter-groups", "", "with --pod: the submitter's Kubernetes groups, comma-separated")
	f.BoolVar(&r.without, "without-admission-controller", false, "with --pod: YuniKorn's admission controller is not in the path, so the shim takes the pod as written (its schedulerName, its user.info annotation or user nobody)")
}

// none refuses the request's flags for a system whose questions take no
// request: they would be silently ignored.
func (r *requestFlags) none(system string) error {
	if r.pod != "" || len(r.tags) > 0 || r.ns != "" || r.submitter != "" || r.subGroups != "" || r.without {
		return clikit.Usage("--pod, --tag and their companions describe a request to the scheduler; a %s question takes none", system)
	}
	return nil
}

// read checks the flags go together and reads the request: the tags (nil
// when neither --tag nor --pod is given), and the pod's request when --pod
// is given, decided with the admission controller's settings.
func (r *requestFlags) read(settings map[string]config.Setting) (map[string]string, *placement.PodRequest, error) {
	switch {
	case r.pod != "" && len(r.tags) > 0:
		return nil, nil, clikit.Usage("--pod gives the request's tags: leave out --tag")
	case r.pod == "" && r.ns != "":
		return nil, nil, clikit.Usage("--namespace goes with --pod: it adds the pod's namespace annotations")
	case r.pod == "" && (r.submitter != "" || r.subGroups != ""):
		return nil, nil, clikit.Usage("--submitter goes with --pod: it is who creates the pod")
	case r.pod == "" && r.without:
		return nil, nil, clikit.Usage("--without-admission-controller goes with --pod: without a pod, the user and --groups are the request as given")
	case r.without && (r.submitter != "" || r.subGroups != ""):
		return nil, nil, clikit.Usage("--submitter names who the admission controller sees create the pod; with --without-admission-controller nobody writes it into the pod: leave it out")
	case r.pod == "":
		t, err := parseTags(r.tags)
		return t, nil, err
	}
	pod, err := input.ReadFile(r.pod, r.max(), r.seen)
	if err != nil {
		return nil, nil, clikit.Usage("--pod: %w", err)
	}
	var ns []byte
	if r.ns != "" {
		if ns, err = input.ReadFile(r.ns, r.max(), r.seen); err != nil {
			return nil, nil, clikit.Usage("--namespace: %w", err)
		}
	}
	var sub *admission.Submitter
	if r.submitter != "" || r.subGroups != "" {
		sub = &admission.Submitter{User: r.submitter, Groups: clikit.ParseList(r.subGroups)}
	}
	pr, err := placement.ReadPod(pod, ns, admission.Read(settings), sub, r.without)
	if err != nil {
		return nil, nil, clikit.Usage("--pod %s: %w", r.pod, err)
	}
	return pr.App.Tags, pr, nil
}

// podUser is the user a question about a pod is asked for: the identity
// the core sees. USER may be left out; given, it must be that identity, and
// --groups, which the pod gives, must be left out.
func podUser(pr *placement.PodRequest, args []string, groups string) (string, []string, error) {
	if groups != "" {
		return "", nil, clikit.Usage("--pod gives the user and groups the core sees: leave out --groups")
	}
	user := pr.App.User
	if len(args) > 0 && args[0] != user {
		return "", nil, clikit.Usage("the core sees this pod as user %s (%s), not %s: leave USER out with --pod, or give %s", user, pr.Derivation.User, args[0], user)
	}
	return user, pr.App.Groups, nil
}

// gateCheck is a pod that never reaches the core, for check, in the shape of every check's
// verdict: a pod the admission controller refuses is denied (exit 1), one
// YuniKorn does not schedule is not known (exit 2).
func gateCheck(g admission.Gate) *audit.Verdict {
	v := &audit.Verdict{System: yunikorn.System, Answer: "unknown", Why: "whether the pod's application may be submitted",
		Unknown: g.Bypass, Context: []string{"reason: " + g.Bypass}}
	detail := []audit.Field{{Key: "admission", Value: "not scheduled by YuniKorn"}, {Key: "reason", Value: g.Bypass}}
	if g.Rejected != "" {
		v.Answer, v.Unknown, v.Why = "denied", "", "the pod is rejected: the admission controller refuses to create it"
		v.Context = []string{"reason: the admission controller refuses to create the pod: " + g.Rejected}
		detail = []audit.Field{{Key: "admission", Value: "rejected"}, {Key: "reason", Value: g.Rejected}}
	}
	if g.Why != "" {
		v.Context = append(v.Context, "why: "+g.Why)
		detail = append(detail, audit.Field{Key: "why", Value: g.Why})
	}
	v.Detail = detail
	return v
}

// askFor fills a question's user side: from the pod when --pod is given
// (its identity; user holds USER if given, which must match), else from
// USER, --groups and the resolver flags. The pod's request is returned so
// that a pod that never reaches the core is answered as such.
func askFor(cmd *cobra.Command, q *acl.Query, user []string, groups string, req *requestFlags, res *resolverFlags, settings map[string]config.Setting) (*placement.PodRequest, error) {
	tags, pr, err := req.read(settings)
	if err != nil {
		return nil, err
	}
	q.Tags = tags
	if pr == nil {
		if len(user) > 0 {
			q.User = user[0]
		}
		return nil, res.subject(cmd, q, groups)
	}
	if err := res.subject(cmd, q, ""); err != nil {
		return nil, err
	}
	if !pr.Reaches() {
		return pr, nil
	}
	q.User, q.Groups, err = podUser(pr, user, groups)
	return pr, err
}
