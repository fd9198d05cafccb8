package rbac

import (
	_ "embed" // the bootstrap policy
)

// bootstrapPolicy is Kubernetes v1.37's bootstrap policy: the ClusterRoles
// (cluster-admin, admin, edit, view and their aggregate-to parts, the
// system: roles), ClusterRoleBindings, Roles and RoleBindings that the
// API server reconciles at every start (pkg/registry/rbac/rest), as
// plugin/pkg/auth/authorizer/rbac/bootstrappolicy builds them (written by
// testdata/harness with -bootstrap).
//
//go:embed bootstrap.json
var bootstrapPolicy []byte

// BootstrapFile is how the bootstrap policy is named in answers.
const BootstrapFile = "Kubernetes v1.37 bootstrap policy"

// AddBootstrap adds Kubernetes' bootstrap policy to the set, before the
// files: every cluster has it, and a file's own object of the same name
// replaces it, as applying it does.
func (s *Set) AddBootstrap() error {
	r := &reader{set: s, file: BootstrapFile, budget: 4*len(bootstrapPolicy) + 64, bootstrap: true}
	return r.read(bootstrapPolicy)
}
