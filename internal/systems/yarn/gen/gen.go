package gen

import (
	"fmt"
	"strings"
)

// CapacityScheduler returns a capacity-scheduler.xml with about n queues in
// three levels under root, each with a submit ACL and every team with an
// administer ACL, as a large YARN site's file looks.
func CapacityScheduler(n int) []byte {
	var b strings.Builder
	b.Grow(n * 260)
	prop := func(name, value string) {
		fmt.Fprintf(&b, "  <property>\n    <name>yarn.scheduler.capacity.%s</name>\n    <value>%s</value>\n  </property>\n", name, value)
	}
	b.WriteString("<?xml version=\"1.0\"?>\n<configuration>\n")
	const top, mid = 50, 40
	leaves := max(n/(top*mid), 1)
	names := func(prefix string, k int) string {
		s := make([]string, k)
		for i := range s {
			s[i] = fmt.Sprintf("%s%d", prefix, i)
		}
		return strings.Join(s, ",")
	}
	prop("root.queues", names("dept", top))
	prop("root.acl_submit_applications", " ")
	prop("root.acl_administer_queue", " yarn-admins")
	for t := 0; t < top; t++ {
		d := fmt.Sprintf("root.dept%d", t)
		prop(d+".queues", names("team", mid))
		prop(d+".acl_submit_applications", fmt.Sprintf("lead%d dept%d", t, t))
		for m := 0; m < mid; m++ {
			tm := fmt.Sprintf("%s.team%d", d, m)
			prop(tm+".queues", names("q", leaves))
			prop(tm+".acl_administer_queue", fmt.Sprintf(" team%d-%d-admins", t, m))
			for l := 0; l < leaves; l++ {
				prop(fmt.Sprintf("%s.q%d.acl_submit_applications", tm, l), fmt.Sprintf("user%d,user%d grp%d", l, l+1, l%97))
			}
		}
	}
	b.WriteString("</configuration>\n")
	return []byte(b.String())
}
