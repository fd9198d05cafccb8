// Package mesos models Apache Mesos' authorization ACLs (the JSON that
// --acls takes) exactly as the master and agent read them with the local
// authorizer: a JSON parser that accepts what Mesos' parser accepts and
// keeps every position, the JSON-to-protobuf decoding with its silent
// drops, the start-up validation, the first-match evaluation, and the lint
// rules over all of it.
//
// The facts come from Mesos' code: include/mesos/authorizer/acls.proto,
// src/authorizer/local/authorizer.cpp and stout's JSON and protobuf
// parsing. Where Mesos' documentation says otherwise, the code wins.
package mesos

import "sort"

// ObjectRule says how Mesos builds and checks the object of a kind.
type ObjectRule int

const (
	// Plain objects are matched by exact, case-sensitive string equality.
	Plain ObjectRule = iota
	// Role objects are roles: an entry's "x/%" value covers every role
	// nested under x/ (createHierarchicalRoleACLs).
	Role
	// Endpoint objects are HTTP paths; a SOME entity may name only the
	// authorizable endpoints (LocalAuthorizer::validate).
	Endpoint
	// AnyOnly objects are always ANY in a request; a SOME entity in the
	// ACLs stops Mesos at start-up (LocalAuthorizer::validate).
	AnyOnly
	// AnyUnchecked objects are always ANY in a request, but SOME entities
	// are not refused: they can never match (mark_agents_gone).
	AnyUnchecked
)

// Kind is one ACL kind: a repeated field of the ACLs message.
type Kind struct {
	Key     string // JSON key, e.g. "run_tasks"
	Message string // protobuf message, e.g. "RunTask"
	Object  string // the object field, e.g. "users"
	Rule    ObjectRule
}

// Subject is the subject field of every kind.
const Subject = "principals"

// Kinds are the 54 ACL kinds of acls.proto, in tag order.
var Kinds = []*Kind{
	{"register_frameworks", "RegisterFramework", "roles", Role},
	{"run_tasks", "RunTask", "users", Plain},
	{"reserve_resources", "ReserveResources", "roles", Role},
	{"unreserve_resources", "UnreserveResources", "reserver_principals", Plain},
	{"create_volumes", "CreateVolume", "roles", Role},
	{"destroy_volumes", "DestroyVolume", "creator_principals", Plain},
	{"teardown_frameworks", "TeardownFramework", "framework_principals", Plain},
	{"update_weights", "UpdateWeight", "roles", Role},
	{"get_endpoints", "GetEndpoint", "paths", Endpoint},
	{"get_quotas", "GetQuota", "roles", Role},
	{"update_quotas", "UpdateQuota", "roles", Role},
	{"view_frameworks", "ViewFramework", "users", Plain},
	{"view_tasks", "ViewTask", "users", Plain},
	{"view_executors", "ViewExecutor", "users", Plain},
	{"access_sandboxes", "AccessSandbox", "users", Plain},
	{"access_mesos_logs", "AccessMesosLog", "logs", AnyOnly},
	{"view_roles", "ViewRole", "roles", Role},
	{"view_flags", "ViewFlags", "flags", AnyOnly},
	{"launch_nested_containers_as_user", "LaunchNestedContainerAsUser", "users", Plain},
	{"launch_nested_containers_under_parent_with_user", "LaunchNestedContainerUnderParentWithUser", "users", Plain},
	{"kill_nested_containers", "KillNestedContainer", "users", Plain},
	{"wait_nested_containers", "WaitNestedContainer", "users", Plain},
	{"launch_nested_container_sessions_as_user", "LaunchNestedContainerSessionAsUser", "users", Plain},
	{"launch_nested_container_sessions_under_parent_with_user", "LaunchNestedContainerSessionUnderParentWithUser", "users", Plain},
	{"attach_containers_input", "AttachContainerInput", "users", Plain},
	{"attach_containers_output", "AttachContainerOutput", "users", Plain},
	{"view_containers", "ViewContainer", "users", Plain},
	{"set_log_level", "SetLogLevel", "level", AnyOnly},
	{"remove_nested_containers", "RemoveNestedContainer", "users", Plain},
	{"register_agents", "RegisterAgent", "agents", AnyOnly},
	{"update_maintenance_schedules", "UpdateMaintenanceSchedule", "machines", AnyOnly},
	{"get_maintenance_schedules", "GetMaintenanceSchedule", "machines", AnyOnly},
	{"start_maintenances", "StartMaintenance", "machines", AnyOnly},
	{"stop_maintenances", "StopMaintenance", "machines", AnyOnly},
	{"get_maintenance_statuses", "GetMaintenanceStatus", "machines", AnyOnly},
	{"mark_agents_gone", "MarkAgentGone", "agents", AnyUnchecked},
	{"launch_standalone_containers", "LaunchStandaloneContainer", "users", AnyOnly},
	{"kill_standalone_containers", "KillStandaloneContainer", "users", AnyOnly},
	{"wait_standalone_containers", "WaitStandaloneContainer", "users", AnyOnly},
	{"remove_standalone_containers", "RemoveStandaloneContainer", "users", AnyOnly},
	{"modify_resource_provider_configs", "ModifyResourceProviderConfig", "resource_providers", AnyOnly},
	{"view_standalone_containers", "ViewStandaloneContainer", "users", AnyOnly},
	{"prune_images", "PruneImages", "images", AnyOnly},
	{"resize_volumes", "ResizeVolume", "roles", Role},
	{"create_block_disks", "CreateBlockDisk", "roles", Role},
	{"destroy_block_disks", "DestroyBlockDisk", "roles", Role},
	{"create_mount_disks", "CreateMountDisk", "roles", Role},
	{"destroy_mount_disks", "DestroyMountDisk", "roles", Role},
	{"view_resource_providers", "ViewResourceProvider", "resource_providers", AnyOnly},
	{"mark_resource_providers_gone", "MarkResourceProvidersGone", "resource_providers", AnyOnly},
	{"destroy_raw_disks", "DestroyRawDisk", "roles", Role},
	{"drain_agents", "DrainAgent", "agents", AnyOnly},
	{"deactivate_agents", "DeactivateAgent", "agents", AnyOnly},
	{"reactivate_agents", "ReactivateAgent", "agents", AnyOnly},
}

var kindByKey = func() map[string]*Kind {
	m := map[string]*Kind{}
	for _, k := range Kinds {
		m[k.Key] = k
	}
	return m
}()

// LookupKind returns the kind with the given JSON key, or nil.
func LookupKind(key string) *Kind { return kindByKey[key] }

// KindKeys returns every kind's JSON key, sorted.
func KindKeys() []string {
	out := make([]string, 0, len(Kinds))
	for _, k := range Kinds {
		out = append(out, k.Key)
	}
	sort.Strings(out)
	return out
}

// ImplicitObject reports whether Mesos always builds the object of this
// kind as ANY, whatever the request carries.
func (k *Kind) ImplicitObject() bool { return k.Rule == AnyOnly || k.Rule == AnyUnchecked }

// Obsolete is a key Mesos once read and now silently ignores.
type Obsolete struct {
	Now  string // the key that replaced it ("" when none did)
	What string // what happened to it
}

// ObsoleteKinds are top-level keys of earlier Mesos versions.
var ObsoleteKinds = map[string]Obsolete{
	"get_weights":                 {"view_roles", "renamed view_roles"},
	"shutdown_frameworks":         {"teardown_frameworks", "removed; teardown_frameworks replaced it"},
	"set_quotas":                  {"update_quotas", "removed; update_quotas replaced it"},
	"remove_quotas":               {"update_quotas", "removed; update_quotas replaced it"},
	"launch_standalone_container": {"launch_standalone_containers", "renamed launch_standalone_containers"},
	"kill_standalone_container":   {"kill_standalone_containers", "renamed kill_standalone_containers"},
	"wait_standalone_container":   {"wait_standalone_containers", "renamed wait_standalone_containers"},
	"remove_standalone_container": {"remove_standalone_containers", "renamed remove_standalone_containers"},
}

// obsoleteFields are entry keys of earlier Mesos versions, by kind.
var obsoleteFields = map[string]map[string]Obsolete{
	"register_agents": {"agent": {"agents", "renamed agents"}},
}

// AuthorizableEndpoints are the paths a get_endpoints entry of type SOME may
// name (authorization::AUTHORIZABLE_ENDPOINTS). Mesos' documentation also
// lists /slave(id)/... forms; Mesos refuses to start with those.
var AuthorizableEndpoints = []string{
	"/containers",
	"/containerizer/debug",
	"/files/debug",
	"/logging/toggle",
	"/metrics/snapshot",
	"/monitor/statistics",
}

func authorizable(path string) bool {
	for _, p := range AuthorizableEndpoints {
		if p == path {
			return true
		}
	}
	return false
}

// nestedPartner pairs the two lists Mesos checks together when a nested
// container is launched with a command: the parent list (executor's user)
// and the child list (the command's user).
var nestedPartner = map[string]string{
	"launch_nested_containers_under_parent_with_user":         "launch_nested_containers_as_user",
	"launch_nested_container_sessions_under_parent_with_user": "launch_nested_container_sessions_as_user",
}

// NestedChild returns the child list checked with a parent kind when the
// request carries a command, or "".
func NestedChild(parent string) string { return nestedPartner[parent] }

// NestedParent returns the parent list of a child kind, or "".
func NestedParent(child string) string {
	for p, c := range nestedPartner {
		if c == child {
			return p
		}
	}
	return ""
}
