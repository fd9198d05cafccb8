package yarn

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

const ruleACLKeyUnread = "yarn-acl-key-unread"

// csACLKeys are the queue ACL keys the Capacity Scheduler reads
// (CapacitySchedulerConfiguration: getAcl, the reservation ACLs, and the
// application priority ACL).
var csACLKeys = map[string]bool{
	"acl_submit_applications": true, "acl_administer_queue": true,
	"acl_administer_reservations": true, "acl_list_reservations": true, "acl_submit_reservations": true,
	"acl_application_max_priority": true,
}

// fsACLElements are the ACL elements of an allocation file's <queue>.
var fsACLElements = map[string]bool{
	"aclSubmitApps": true, "aclAdministerApps": true,
	"aclAdministerReservations": true, "aclListReservations": true, "aclSubmitReservations": true,
}

// mrv1Keys are Hadoop 1's queue ACL names (the JobTracker's
// mapred-queue-acls.xml and its capacity scheduler), which Ambari's HDP,
// Bigtop and ODPi stacks still write into capacity-scheduler.xml: YARN
// reads none of them.
var mrv1Keys = map[string]Action{
	"acl_submit_jobs": Submit, "acl_administer_jobs": Administer, "acl_administer_queues": Administer,
	"acl-submit-job": Submit, "acl-administer-jobs": Administer,
}

// looksLikeACL reports whether a key's last part names an ACL.
func looksLikeACL(name string) bool {
	return strings.Contains(strings.ToLower(name), "acl")
}

// ruleRuleACLKeyUnread is the rule ruleACLKeyUnread.
func ruleRuleACLKeyUnread() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleACLKeyUnread,
		Severity: engine.Warning,
		Summary:  "an ACL-like key YARN never reads: the queue it seems to lock is open",
		Doc: "The Capacity Scheduler reads a queue's ACLs from `acl_submit_applications` and\n" +
			"`acl_administer_queue` (and the reservation ACLs); the Fair Scheduler from `<aclSubmitApps>` and\n" +
			"`<aclAdministerApps>`. Hadoop 1's `acl_submit_jobs`, `acl_administer_jobs` and\n" +
			"`acl_administer_queues`, still written by Ambari's HDP, Bigtop and ODPi stacks, and near misses\n" +
			"such as `acl_submit_application` or `<aclSubmitApplications>`, are never read: the queue keeps its\n" +
			"default ACL, which for a queue below root is nobody but lets everyone in through root's `*`\n" +
			"unless root is locked too. The finding names the key YARN reads instead.",
		Bad: csExample(
			CSPrefix+"root.queues", "default",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " admins",
			CSPrefix+"root.default.acl_submit_jobs", "etl"),
		Good: csExample(
			CSPrefix+"root.queues", "default",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " admins",
			CSPrefix+"root.default.acl_submit_applications", "etl"),
	}, func(s *state, report reporter) {
		if s.cs.FS {
			for _, p := range s.cs.UnreadACLs {
				want := engine.Nearest(p.Name, []string{"aclSubmitApps", "aclAdministerApps"})
				switch lower := strings.ToLower(p.Name); {
				case want != "":
				case strings.Contains(lower, "admin"):
					want = "aclAdministerApps"
				case strings.Contains(lower, "submit"):
					want = "aclSubmitApps"
				default:
					want = "aclSubmitApps> or <aclAdministerApps"
				}
				report(p.NamePos, fmt.Sprintf("the Fair Scheduler does not know <%s> and passes over it: this queue's ACLs are not set by it", p.Name),
					fmt.Sprintf("write <%s>", want))
			}
			return
		}
		for _, p := range s.conf.Props {
			if !strings.HasPrefix(p.Name, CSPrefix+"root") {
				continue
			}
			i := strings.LastIndexByte(p.Name, '.')
			if i < len(CSPrefix) {
				continue // yarn.scheduler.capacity.rootX: no queue path
			}
			key := p.Name[i+1:]
			if !looksLikeACL(key) || csACLKeys[key] {
				continue
			}
			path := p.Name[len(CSPrefix):i]
			want := "acl_submit_applications"
			if a, ok := mrv1Keys[key]; ok {
				want = a.Key()
				report(p.NamePos, fmt.Sprintf("%s is Hadoop 1's queue ACL (MRv1); YARN never reads it, so it does not lock %s", key, path),
					fmt.Sprintf("write %s%s.%s", CSPrefix, path, want))
				continue
			}
			if near := engine.Nearest(key, []string{"acl_submit_applications", "acl_administer_queue"}); near != "" {
				want = near
			} else if strings.Contains(strings.ToLower(key), "admin") {
				want = "acl_administer_queue"
			}
			report(p.NamePos, fmt.Sprintf("YARN never reads %s: the Capacity Scheduler's queue ACLs are acl_submit_applications and acl_administer_queue, so %s is not locked by it", key, path),
				fmt.Sprintf("write %s%s.%s", CSPrefix, path, want))
		}
	})
}
