package convert

import (
	"strings"

	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

// Most of what a conversion reports is what YARN and YuniKorn do
// differently by design, not a mistake in the files: YARN rejects an
// application YuniKorn gives to its next rule, YARN reads "default" as no
// queue. Each difference carries its cause, a stable name a team can
// accept in a file (accept.go), and the report is one line per cause.

// Cause is why the two systems answer one kind of question differently.
type Cause struct {
	// ID is the cause's stable name, as accepted files write it.
	ID string
	// Summary says what each system does, in one sentence.
	Summary string
	// Fix says how to make the difference go away, when something can.
	Fix string
}

// the causes' IDs
const (
	causeNoGroups      = "no-groups"
	causeUnresolved    = "unresolved-user"
	causeNameDropped   = "name-dropped"
	causeNotConverted  = "queue-not-converted"
	causeAccess        = "access-differs"
	causeDefaultQueue  = "default-queue"
	causeUnknownQueue  = "yarn-rejects-unknown-queue"
	causeParentQueue   = "yarn-rejects-parent-queue"
	causeACLRejects    = "yarn-rejects-acl"
	causeRejects       = "yarn-rejects"
	causeFallsBack     = "mapping-falls-back"
	causeCreatesAsked  = "yarn-creates-asked-queue"
	causeShortName     = "short-queue-name"
	causeGroupFilter   = "group-filter"
	causePlacedOtherly = "placed-differently"
)

// Causes lists every cause, in the order the report lists them.
func Causes() []Cause {
	return []Cause{
		{causeNoGroups, "the request carries no groups: YuniKorn without a usergroupresolver gives the user their own name as a group, Hadoop does not",
			"prove under the cluster's groups (--groups-file, --resolver), or set partitions[].usergroupresolver"},
		{causeUnresolved, "the resolver cannot resolve the user: YuniKorn rejects the application, YARN goes on with no groups",
			"add the user to the directory, or take them out of the ACLs and rules"},
		{causeNameDropped, "YuniKorn's ACL parser drops a user or group name YARN reads (a name YuniKorn's name pattern refuses)",
			"rename the user or group, or grant them through a group YuniKorn can name"},
		{causeNotConverted, "the queue is not converted (YuniKorn refuses its name, or another queue has it in another case), and whoever YARN lets in there loses that access",
			"rename the queue in YARN first"},
		{causeAccess, "the two systems' ACL checks answer otherwise", ""},
		{causeDefaultQueue, "YARN reads a request for the queue default as one naming no queue, so its mappings decide; YuniKorn's provided rule places it in root.default",
			"have applications name no queue, or their real queue"},
		{causeUnknownQueue, "YARN rejects an application that names a queue it does not have; YuniKorn has no rule that rejects, and tries the next rule",
			""},
		{causeParentQueue, "YARN rejects an application that names a parent queue; YuniKorn tries the next rule",
			""},
		{causeACLRejects, "YARN rejects an application when the ACLs refuse the queue a rule or the request chose; YuniKorn tries the next rule and at last root.default",
			""},
		{causeRejects, "YARN rejects the application (a rule fails, or may not create the queue); YuniKorn tries the next rule", ""},
		{causeFallsBack, "a YARN mapping whose queue does not exist places the application in root.default; YuniKorn tries the next rule", ""},
		{causeCreatesAsked, "YARN creates the queue an application names under a parent that creates queues at submission (auto-queue-creation); the converted provided rule does not create it, and YuniKorn tries the next rule", ""},
		{causeShortName, "YARN reads a queue name without root. as a leaf's short name or a path; YuniKorn's provided rule reads it as one queue under root (prod.etl is root.prod_dot_etl)",
			"have applications name queues by their full path"},
		{causeGroupFilter, "a rule that places by the primary group is carried as fixed rules whose filter matches any of the user's groups, so a user whose other group has a queue lands there", ""},
		{causePlacedOtherly, "the two systems' placement answers otherwise", ""},
	}
}

// causeOf finds a cause by its ID.
func causeOf(id string) (Cause, bool) {
	for _, c := range Causes() {
		if c.ID == id {
			return c, true
		}
	}
	return Cause{}, false
}

// causeIDs are the IDs, for messages.
func causeIDs() []string {
	var out []string
	for _, c := range Causes() {
		out = append(out, c.ID)
	}
	return out
}

// asker places one application in both systems.
type asker func(user string, groups []string, queue string) (*yarn.Placement, *placement.Result, error)

// placeCause says why an application is placed differently, by asking
// both systems again with one thing changed: with the user's own name as
// their group (what YuniKorn's default resolver gives), with no queue for
// default, with the primary group alone. Each application placed differently is
// asked so, on its own.
func placeCause(ask asker, q placeQuestion, y *yarn.Placement, yk *placement.Result, err error) string {
	if err != nil || y.Unknown != "" || yk.Crash != "" {
		return causePlacedOtherly
	}
	if q.groups == nil {
		if y2, _, _ := ask(q.user, []string{q.user}, q.queue); samePlace(y2, yk, nil) {
			return causeNoGroups
		}
	}
	if q.queue == "default" {
		if _, yk2, err2 := ask(q.user, q.groups, ""); samePlace(y, yk2, err2) {
			return causeDefaultQueue
		}
	}
	if len(q.groups) > 1 {
		if _, yk2, err2 := ask(q.user, q.groups[:1], q.queue); samePlace(y, yk2, err2) {
			return causeGroupFilter
		}
	}
	if !y.Placed && yk.Placed {
		switch y.Stage {
		case "unknown":
			return causeUnknownQueue
		case "non-leaf":
			return causeParentQueue
		case "acl":
			return causeACLRejects
		}
		return causeRejects
	}
	for _, st := range y.Steps {
		if st.Result == "fallback" && y.Placed {
			return causeFallsBack
		}
	}
	if y.Placed && y.Created && q.queue != "" && q.queue != "default" {
		return causeCreatesAsked
	}
	if y.Placed && q.queue != "" && q.queue != "default" && !strings.HasPrefix(q.queue, "root.") {
		return causeShortName
	}
	return causePlacedOtherly
}
