package mesos

import (
	"errors"
	"strings"
	"testing"
)

func p(s string) *string { return &s }

// The local authorizer's decisions on the cases the reference calls out:
// first match wins, NONE entries, unauthenticated subjects, objects left
// out, permissive only when nothing matched, hierarchical roles.
func TestAuthorize(t *testing.T) {
	for _, c := range []struct {
		name, acls string
		kind       string
		principal  *string
		objects    []string
		allowed    bool
		by         string // deciding rule; "" when permissive decided
	}{
		{"no entries: permissive true", `{}`, "run_tasks", p("foo"), []string{"root"}, true, ""},
		{"no entries: permissive false", `{"permissive": false}`, "run_tasks", p("foo"), []string{"root"}, false, ""},
		{"first match wins over a later grant",
			`{"run_tasks": [{"principals": {"type": "NONE"}, "users": {"values": ["root"]}}, {"principals": {"values": ["foo"]}, "users": {"type": "ANY"}}]}`,
			"run_tasks", p("foo"), []string{"root"}, false, "run_tasks[0]"},
		{"a NONE subject entry matches and refuses even with permissive true",
			`{"run_tasks": [{"principals": {"type": "NONE"}, "users": {"values": ["root"]}}]}`,
			"run_tasks", p("foo"), []string{"root"}, false, "run_tasks[0]"},
		{"…and does not apply to other users",
			`{"run_tasks": [{"principals": {"type": "NONE"}, "users": {"values": ["root"]}}]}`,
			"run_tasks", p("foo"), []string{"alice"}, true, ""},
		{"NONE object: foo may do nothing",
			`{"run_tasks": [{"principals": {"values": ["foo"]}, "users": {"type": "NONE"}}]}`,
			"run_tasks", p("foo"), []string{"alice"}, false, "run_tasks[0]"},
		{"an unauthenticated subject never matches SOME principals",
			`{"permissive": false, "run_tasks": [{"principals": {"values": ["foo"]}, "users": {"type": "ANY"}}]}`,
			"run_tasks", nil, []string{"alice"}, false, ""},
		{"…but matches ANY principals",
			`{"permissive": false, "run_tasks": [{"principals": {"type": "ANY"}, "users": {"type": "ANY"}}]}`,
			"run_tasks", nil, []string{"alice"}, true, "run_tasks[0]"},
		{"…and a NONE entry refuses it",
			`{"run_tasks": [{"principals": {"type": "NONE"}, "users": {"type": "ANY"}}]}`,
			"run_tasks", nil, nil, false, "run_tasks[0]"},
		{"no object only hits ANY or NONE objects",
			`{"permissive": false, "run_tasks": [{"principals": {"type": "ANY"}, "users": {"values": ["alice"]}}]}`,
			"run_tasks", p("foo"), nil, false, ""},
		{"no object and an ANY object entry",
			`{"permissive": false, "run_tasks": [{"principals": {"values": ["foo"]}, "users": {"type": "ANY"}}]}`,
			"run_tasks", p("foo"), nil, true, "run_tasks[0]"},
		{"subset matching is exact and case-sensitive",
			`{"permissive": false, "run_tasks": [{"principals": {"values": ["Foo"]}, "users": {"type": "ANY"}}]}`,
			"run_tasks", p("foo"), nil, false, ""},
		{"a dropped type leaves SOME without values: matches nothing",
			`{"permissive": false, "teardown_frameworks": [{"principals": {"type": "admin"}, "framework_principals": {"type": "ANY"}}]}`,
			"teardown_frameworks", p("admin"), nil, false, ""},
		{"values are ignored for ANY",
			`{"permissive": false, "run_tasks": [{"principals": {"type": "ANY", "values": ["foo"]}, "users": {"type": "ANY"}}]}`,
			"run_tasks", p("bar"), nil, true, "run_tasks[0]"},
		{"implicit objects are ANY whatever is asked",
			`{"permissive": false, "view_flags": [{"principals": {"values": ["ops"]}, "flags": {"type": "ANY"}}]}`,
			"view_flags", p("ops"), []string{"--acls"}, true, "view_flags[0]"},
		{"mark_agents_gone with named agents never matches",
			`{"permissive": false, "mark_agents_gone": [{"principals": {"values": ["ops"]}, "agents": {"values": ["a1"]}}]}`,
			"mark_agents_gone", p("ops"), []string{"a1"}, false, ""},
		{"x/% covers nested roles",
			`{"permissive": false, "reserve_resources": [{"principals": {"values": ["ops"]}, "roles": {"values": ["king/%"]}}]}`,
			"reserve_resources", p("ops"), []string{"king/prince/duke"}, true, `reserve_resources[0] (its role "king/%")`},
		{"x/% does not cover x",
			`{"permissive": false, "reserve_resources": [{"principals": {"values": ["ops"]}, "roles": {"values": ["king/%"]}}]}`,
			"reserve_resources", p("ops"), []string{"king"}, false, ""},
		{"x/% does not cover a role merely starting with x",
			`{"permissive": false, "reserve_resources": [{"principals": {"values": ["ops"]}, "roles": {"values": ["king/%"]}}]}`,
			"reserve_resources", p("ops"), []string{"kingdom/a"}, false, ""},
		{"x/% is skipped for a request about all roles",
			`{"permissive": false, "reserve_resources": [{"principals": {"values": ["ops"]}, "roles": {"values": ["king/%"]}}]}`,
			"reserve_resources", p("ops"), nil, false, ""},
		{"recursive rules come first, the plain roles after",
			`{"reserve_resources": [{"principals": {"values": ["ops"]}, "roles": {"values": ["king", "king/%"]}}]}`,
			"reserve_resources", p("ops"), []string{"king"}, true, "reserve_resources[0]"},
		{"a recursive rule allows on the object side; the subject still has to match",
			`{"permissive": false, "reserve_resources": [{"principals": {"values": ["ops"]}, "roles": {"values": ["king/%"]}}]}`,
			"reserve_resources", p("dev"), []string{"king/a"}, false, ""},
		{"an ANY subject with a recursive role",
			`{"permissive": false, "reserve_resources": [{"principals": {"type": "NONE"}, "roles": {"values": ["king/%"]}}]}`,
			"reserve_resources", p("dev"), []string{"king/a"}, false, `reserve_resources[0] (its role "king/%")`},
		{"NONE roles with one x/% value is recursive, and allows",
			`{"permissive": false, "reserve_resources": [{"principals": {"values": ["ops"]}, "roles": {"type": "NONE", "values": ["king/%"]}}]}`,
			"reserve_resources", p("ops"), []string{"king/a"}, true, `reserve_resources[0] (its role "king/%")`},
		{"…and does not apply outside it",
			`{"reserve_resources": [{"principals": {"values": ["ops"]}, "roles": {"type": "NONE", "values": ["king/%"]}}]}`,
			"reserve_resources", p("ops"), []string{"queen"}, true, ""},
		{"/% is literal for users",
			`{"permissive": false, "run_tasks": [{"principals": {"values": ["ops"]}, "users": {"values": ["king/%"]}}]}`,
			"run_tasks", p("ops"), []string{"king/a"}, false, ""},
		{"several roles must all be allowed",
			`{"permissive": false, "register_frameworks": [{"principals": {"values": ["spark"]}, "roles": {"values": ["a", "b"]}}]}`,
			"register_frameworks", p("spark"), []string{"a", "c"}, false, ""},
		{"…and are",
			`{"permissive": false, "register_frameworks": [{"principals": {"values": ["spark"]}, "roles": {"values": ["a", "b"]}}]}`,
			"register_frameworks", p("spark"), []string{"b", "a"}, true, "register_frameworks[0]"},
		{"an empty principal is a value",
			`{"permissive": false, "run_tasks": [{"principals": {"values": [""]}, "users": {"type": "ANY"}}]}`,
			"run_tasks", p(""), nil, true, "run_tasks[0]"},
	} {
		a := decode(t, c.acls)
		d, err := a.Authorize(Request{Kind: LookupKind(c.kind), Principal: c.principal, Objects: c.objects})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		by := ""
		if dc := d.DecidedBy(); dc != nil && dc.By != nil {
			by = dc.By.Name()
		}
		if d.Allowed != c.allowed || by != c.by {
			t.Errorf("%s: allowed %v by %q, want %v by %q", c.name, d.Allowed, by, c.allowed, c.by)
		}
	}
}

func TestAuthorizeNested(t *testing.T) {
	a := decode(t, `{"permissive": false,
	  "launch_nested_containers_under_parent_with_user": [{"principals": {"values": ["ops"]}, "users": {"values": ["svc"]}}],
	  "launch_nested_containers_as_user": [{"principals": {"values": ["ops"]}, "users": {"values": ["nobody"]}}]}`)
	k := LookupKind("launch_nested_containers_under_parent_with_user")
	for _, c := range []struct {
		command bool
		user    *string
		allowed bool
		checks  int
	}{
		{false, nil, true, 1},        // no command: the parent list alone
		{true, p("nobody"), true, 2}, // both lists
		{true, p("root"), false, 2},  // the command's user is refused
		{true, nil, false, 2},        // a command without a user asks about ANY user
	} {
		d, err := a.Authorize(Request{Kind: k, Principal: p("ops"), Objects: []string{"svc"}, Command: c.command, CommandUser: c.user})
		if err != nil || d.Allowed != c.allowed || len(d.Checks) != c.checks {
			t.Errorf("%+v: %+v %v", c, d, err)
		}
	}
}

// An *_as_user list asked about directly is a nested launch with a command:
// Mesos checks the parent list first, so with no parent entries and
// permissive false nobody may launch, whatever the *_as_user list says.
func TestAuthorizeNestedChildAlone(t *testing.T) {
	for _, kind := range []string{"launch_nested_containers_as_user", "launch_nested_container_sessions_as_user"} {
		parent := NestedParent(kind)
		noParent := decode(t, `{"permissive": false, "`+kind+`": [{"principals": {"type": "ANY"}, "users": {"type": "ANY"}}]}`)
		withParent := decode(t, `{"permissive": false, "`+kind+`": [{"principals": {"type": "ANY"}, "users": {"type": "ANY"}}],
		  "`+parent+`": [{"principals": {"values": ["ops"]}, "users": {"values": ["svc"]}}]}`)
		k := LookupKind(kind)
		for _, c := range []struct {
			a       *ACLs
			parent  *string
			allowed bool
		}{
			{noParent, nil, false},
			{noParent, p("svc"), false},
			{withParent, p("svc"), true},
			{withParent, p("other"), false},
			{withParent, nil, false}, // the executor's user unknown: ANY matches no SOME entry
		} {
			d, err := c.a.Authorize(Request{Kind: k, Principal: p("ops"), Objects: []string{"root"}, ParentUser: c.parent})
			if err != nil || d.Allowed != c.allowed || len(d.Checks) != 2 || d.Checks[0].Kind.Key != parent {
				t.Errorf("%s parent user %v: %+v %v, want allowed %v with the parent check first", kind, c.parent, d, err, c.allowed)
			}
		}
	}
}

func TestAuthorizeRefuses(t *testing.T) {
	if _, err := decode(t, `{"view_flags": [{"principals": {"type": "ANY"}, "flags": {}}]}`).Authorize(Request{Kind: LookupKind("view_flags")}); !errors.Is(err, ErrRejected) {
		t.Errorf("ACLs Mesos refuses answer nothing: %v", err)
	}
	if _, err := decode(t, `{}`).Authorize(Request{Kind: LookupKind("run_tasks"), Objects: []string{"a", "b"}}); err == nil {
		t.Error("several objects are for register_frameworks only")
	}
	var none *ACLs
	d, err := none.Authorize(Request{Kind: LookupKind("run_tasks")})
	if err != nil || !d.Allowed || !strings.Contains(d.Notes[0], "without --acls") {
		t.Errorf("no ACLs: %+v %v", d, err)
	}
}
