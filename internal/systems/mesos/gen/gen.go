package gen

import (
	"fmt"
	"strings"
)

// MesosACLs returns an --acls file with perKind entries in each of the kinds
// given, and a last entry refusing the rest: principals and objects drawn
// from a few hundred names, roles nested under /%, ANY principals and NONE
// objects mixed in, as a large site's ACLs look.
func MesosACLs(kinds []KindObject, perKind int) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"permissive\": false")
	for _, k := range kinds {
		fmt.Fprintf(&b, ",\n  %q: [", k.Key)
		for i := 0; i < perKind; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			subject := fmt.Sprintf(`{"values": ["svc%d", "svc%d"]}`, i, (i*7)%300)
			if i%50 == 49 && !k.AnyOnly {
				subject = `{"type": "ANY"}`
			}
			var object string
			switch {
			case k.AnyOnly:
				object = `{"type": "ANY"}`
			case len(k.Values) > 0:
				object = fmt.Sprintf(`{"values": [%q]}`, k.Values[i%len(k.Values)])
			case i%100 == 98:
				object = `{"type": "NONE"}`
			case k.Role && i%3 == 0:
				object = fmt.Sprintf(`{"values": ["team%d", "team%d/%%"]}`, i%200, i%200)
			default:
				object = fmt.Sprintf(`{"values": ["u%d", "u%d"]}`, i%400, (i*3)%400)
			}
			fmt.Fprintf(&b, "\n    {\"principals\": %s, %q: %s}", subject, k.Object, object)
		}
		// and the usual last entry: refuse whatever the others did not allow
		fmt.Fprintf(&b, ",\n    {\"principals\": {\"type\": \"ANY\"}, %q: {\"type\": \"NONE\"}}", k.Object)
		b.WriteString("\n  ]")
	}
	b.WriteString("\n}\n")
	return []byte(b.String())
}

// KindObject describes an ACL kind for MesosACLs.
type KindObject struct {
	Key, Object   string
	Role, AnyOnly bool
	Values        []string // the only object values the kind takes, if limited
}
