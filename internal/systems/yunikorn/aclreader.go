package yunikorn

import (
	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// ACLReader reads an ACL string as YuniKorn does (both of its parsers),
// for another system's rule that compares readings (audit.ACLReader):
// the registry hands it to YARN.
type ACLReader struct{}

// ReadACL is YuniKorn's reading of value.
func (ACLReader) ReadACL(value string) audit.ACLReading {
	v := acl.Parse(value)
	var r audit.ACLReading
	switch {
	case v.ValidatorErr != nil:
		r.Refused = v.ValidatorErr.Error()
		return r
	case v.RuntimeErr != nil:
		r.FailsToLoad = v.RuntimeErr.Error()
		return r
	}
	r.Everyone = v.Everyone
	for _, e := range v.Entries {
		ae := audit.ACLEntry{Group: e.Kind == acl.Group, Name: e.Name}
		if !e.Effective() {
			ae.Dropped = e.DropReason()
		}
		r.Entries = append(r.Entries, ae)
	}
	return r
}
