// Package ytsaurus models YTsaurus' access control on Cypress nodes as the
// master evaluates it: ACEs read and validated as `set @acl` reads them,
// subjects with transitive groups, aliases and tags, the effective ACL
// along the path with depth-aware inheritance modes, and the decision of
// check-permission, columns and full_read included; plus the lint rules
// over a tree document that describes users, groups and nodes.
//
// The facts come from YTsaurus' code (security_client/acl, the master's
// security manager and permission checker, the boolean formula of subject
// tag filters). Where its documentation says otherwise, the code wins.
package ytsaurus
