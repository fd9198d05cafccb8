package yarn

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// ruleYuniKorn compares each ACL value with YuniKorn's reading of the same
// string (an audit.ACLReader the registry hands YARN: YuniKorn's, held to
// YuniKorn's own verdicts; YARN imports no other system): YuniKorn took the
// format from Hadoop but refuses or drops what Hadoop keeps, which is
// what a team moving from YARN needs to know before it copies a value.
const ruleYuniKorn = "yarn-acl-yunikorn-differs"

// ruleRuleYuniKorn is the rule ruleYuniKorn.
func ruleRuleYuniKorn() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleYuniKorn,
		Severity: engine.Info,
		Summary:  "an ACL value YuniKorn reads differently than YARN: names it drops, a value it refuses",
		Doc: "YuniKorn's ACLs have Hadoop's format, but YuniKorn reads some values differently (see the\n" +
			"table in [yarn.md](yarn.md#the-same-acl-in-yarn-and-in-yunikorn)). It refuses a value with\n" +
			"more than one space in a row or more than two parts, and drops names that do not match its\n" +
			"patterns (a `.` in a group, a `:` in a user) and `*` inside a list. The finding compares the\n" +
			"two readings of each set ACL value, as YARN's `AccessControlList` and YuniKorn's two ACL\n" +
			"parsers read it, and says what YuniKorn would not keep. It is information: the YARN file is\n" +
			"fine for YARN. `aclint convert yarn` shows what a migration keeps, queue by queue.",
		Bad: csExample(
			CSPrefix+"root.acl_submit_applications", "alice data.eng",
			CSPrefix+"root.acl_administer_queue", " admins",
			CSPrefix+"root.queues", "default"),
		Good: csExample(
			CSPrefix+"root.acl_submit_applications", "alice data-eng",
			CSPrefix+"root.acl_administer_queue", " admins",
			CSPrefix+"root.queues", "default"),
	}, func(s *state, report reporter) {
		if s.reader == nil {
			return // a YARN system without YuniKorn beside it
		}
		s.aclSites(func(q *Queue, a Action, p *Property) {
			if q.Unknown[a] {
				return
			}
			if why := yuniKornDiffers(s.reader, q.ACL[a], p.Value); why != "" {
				report(p.ValuePos, fmt.Sprintf("%s of %s reads differently in YuniKorn: %s", s.aclName(a), q.Path, why),
					"write names both read alike, or check the migration with aclint convert yarn")
			}
		})
	})
}

// yuniKornDiffers says how YuniKorn's reading of value differs from
// YARN's (y), or "" when both let in the same users and groups.
func yuniKornDiffers(reader audit.ACLReader, y ACL, value string) string {
	if plainACL(value) {
		return ""
	}
	v := reader.ReadACL(value)
	if v.Refused != "" {
		return fmt.Sprintf("it refuses the value (%s)", v.Refused)
	}
	if v.FailsToLoad != "" {
		return fmt.Sprintf("it accepts the value, then fails to load the config (%s)", v.FailsToLoad)
	}
	if y.All || v.Everyone {
		switch {
		case y.All && v.Everyone:
			return ""
		case y.All:
			return "YARN lets everyone in, YuniKorn does not"
		default:
			return "YuniKorn lets everyone in, YARN does not"
		}
	}
	type key struct {
		group bool
		name  string
	}
	yarnHas := map[key]bool{}
	for _, e := range y.Users {
		yarnHas[key{false, e.Name}] = true
	}
	for _, e := range y.Groups {
		yarnHas[key{true, e.Name}] = true
	}
	ykHas := map[key]bool{}
	var dropped []string
	seen := map[key]bool{}
	for _, e := range v.Entries {
		k := key{e.Group, e.Name}
		if e.Dropped == "" {
			ykHas[k] = true
			continue
		}
		if yarnHas[k] && !seen[k] {
			seen[k] = true
			dropped = append(dropped, fmt.Sprintf("%s %q (%s)", kindName(k.group), k.name, e.Dropped))
		}
	}
	var missing, added []string
	for k := range yarnHas {
		if !ykHas[k] && !seen[k] {
			missing = append(missing, fmt.Sprintf("%s %q", kindName(k.group), k.name))
		}
	}
	for k := range ykHas {
		if !yarnHas[k] {
			added = append(added, fmt.Sprintf("%s %q", kindName(k.group), k.name))
		}
	}
	sort.Strings(missing)
	sort.Strings(added)
	var parts []string
	if len(dropped) > 0 {
		parts = append(parts, "it drops "+strings.Join(dropped, ", "))
	}
	if len(missing) > 0 {
		parts = append(parts, "it does not have "+strings.Join(missing, ", "))
	}
	if len(added) > 0 {
		parts = append(parts, "it has "+strings.Join(added, ", ")+", which YARN does not")
	}
	return strings.Join(parts, "; ")
}

func kindName(group bool) string {
	if group {
		return "group"
	}
	return "user"
}

// plainACL reports whether both systems surely read value alike, without
// parsing it as YuniKorn: names of letters, digits, _ and - that start
// with a letter or _ (both of YuniKorn's name patterns), separated by
// single commas, and at most one space. Most real values are plain, and
// a large file's ACLs then cost a byte loop each; TestYuniKornDiffersAgrees
// holds the shortcut to both parsers.
func plainACL(v string) bool {
	spaces, start := 0, true // start: at the start of a name
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == ' ':
			if spaces++; spaces > 1 || (i > 0 && v[i-1] == ',') {
				return false
			}
			start = true
		case c == ',':
			if start {
				return false // an empty name
			}
			start = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
			start = false
		case c >= '0' && c <= '9' || c == '-':
			if start {
				return false
			}
		default:
			return false
		}
	}
	return len(v) == 0 || v[len(v)-1] != ','
}
