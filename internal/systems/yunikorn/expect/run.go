package expect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// Outcome is how a case ended.
type Outcome string

const (
	Pass Outcome = "pass"
	Fail Outcome = "fail"
	// Error means the case has no answer: an unknown partition or queue,
	// a resolver that failed, a placement that crashes the scheduler.
	Error Outcome = "error"
)

// Env is what the cases of one file share: the policy and the placer over
// the accepted config (as check and place build them), and where groups
// come from when a case gives none.
type Env struct {
	Policy *acl.Policy
	Placer *placement.Placer
	// Resolver replaces the partition's usergroupresolver when set.
	Resolver  resolve.Resolver
	Resolvers resolve.Options
	// Limits answers limits cases.
	Limits *limits.Model
}

// Result is one case's answer.
type Result struct {
	Case    *Case
	Outcome Outcome
	// Got is the answer in the words of Case.Expect: allow or deny, the
	// queue the application lands in or rejected; "" on Error.
	Got string
	// Why explains the answer in one line: the ACL entry that decided it,
	// or every ACL consulted, or the placement rule.
	Why       string
	Decision  *acl.Decision
	Placement *placement.Result
	Limits    *limits.Answer
}

// Notes are what check says under an answer: the near misses ("lists
// analysts as a user, but it is one of the groups"), where the groups came
// from, a queue that does not exist yet; placement's notes for a place case.
func (r Result) Notes() []string {
	switch {
	case r.Limits != nil:
		return r.Limits.Notes
	case r.Decision != nil:
		return r.Decision.Notes
	case r.Placement != nil:
		return r.Placement.Notes
	}
	return nil
}

// Run answers one case.
func (e Env) Run(c *Case) Result {
	if c.Place != nil {
		return e.place(c)
	}
	if c.Limits != nil {
		return e.limits(c)
	}
	r := Result{Case: c}
	d, err := e.Policy.Decide(acl.Query{Partition: c.Partition, Queue: c.Queue, User: c.User, Groups: c.Groups,
		Action: c.Action, Resolver: e.Resolver, Resolvers: e.Resolvers, Tags: c.Tags})
	if err != nil {
		r.Outcome, r.Why = Error, err.Error()
		return r
	}
	r.Decision = d
	r.Got = Deny
	if d.Allowed {
		r.Got = Allow
	}
	r.Why = ExplainDecision(d)
	r.Outcome = judge(r.Got == c.Expect)
	return r
}

func judge(ok bool) Outcome {
	if ok {
		return Pass
	}
	return Fail
}

func (e Env) place(c *Case) Result {
	r := Result{Case: c}
	app := placement.App{Partition: c.Partition, User: c.User, Groups: c.Groups, Queue: c.Place.Queue,
		Tags: map[string]string{}, Resolver: e.Resolver, Resolvers: e.Resolvers}
	for k, v := range c.Place.Tags {
		app.Tags[k] = v
	}
	if c.Place.Forced {
		app.Tags["application.create.force"] = "true"
	}
	res, err := e.Placer.Place(app)
	if err != nil {
		r.Outcome, r.Why = Error, err.Error()
		return r
	}
	r.Placement = res
	if res.Crash != "" {
		r.Outcome, r.Why = Error, "YuniKorn's scheduler would crash placing this application: "+res.Crash
		return r
	}
	r.Got, r.Why = Rejected, res.Reason
	if res.Placed {
		r.Got, r.Why = res.Queue, explainPlaced(res)
	}
	r.Outcome = judge(r.Got == strings.ToLower(c.Expect))
	return r
}

// ExplainDecision says in one line why access was allowed or denied.
func ExplainDecision(d *acl.Decision) string {
	who := "user " + d.Query.User + ", groups " + acl.Names(d.Groups)
	if d.GroupsSource != "" && len(d.Query.Groups) == 0 {
		who += " (" + d.GroupsSource + ")"
	}
	switch {
	case d.Reason != "":
		return who + ": " + d.Reason
	case d.DecidedBy != nil:
		return who + ": allowed by " + d.DecidedBy.String()
	}
	var parts []string
	for _, c := range d.Consulted {
		s := c.Queue + " " + c.ACL
		if c.Set {
			s += " " + strconv.Quote(c.Value) + " (" + c.Pos.String() + ")"
		} else {
			s += " not set"
		}
		parts = append(parts, s)
	}
	return who + ": no ACL lets them in; consulted " + strings.Join(parts, ", ")
}

func explainPlaced(r *placement.Result) string {
	how := "exists"
	if r.Created {
		how = "created under " + r.CreatedUnder
	}
	by := "the root.default fallback (no rule placed it)"
	for _, st := range r.Rules {
		if st.Result == "placed" && r.Fallback == "" {
			by = fmt.Sprintf("rule %d %s", st.Index, st.Rule)
			if st.Pos.File != "" {
				by += " at " + st.Pos.String()
			}
		}
	}
	s := fmt.Sprintf("placed in %s (%s) by %s", r.Queue, how, by)
	if r.Decision != nil && r.Decision.DecidedBy != nil {
		s += "; submit allowed by " + r.Decision.DecidedBy.String()
	}
	return s
}
