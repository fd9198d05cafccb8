// Package si holds the one type of yunikorn-scheduler-interface the
// admission controller decodes a pod's annotation into. It is a package of
// its own, named si, because encoding/json names the type with its package
// in the error the admission controller returns as its reason for refusing
// a pod ("json: cannot unmarshal array into Go value of type
// si.UserGroupInformation"): aclint gives that reason word for word.
package si

// UserGroupInformation is the yunikorn.apache.org/user.info annotation.
type UserGroupInformation struct {
	User   string   `json:"user,omitempty"`
	Groups []string `json:"groups,omitempty"`
}
