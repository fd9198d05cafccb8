// Package resolve finds a user's groups the way YuniKorn's user group
// resolvers do, in the same order, and says where they came from.
package resolve

import (
	"errors"
	"fmt"
	"os/user"
	"strconv"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
)

// Result is a user's groups in YuniKorn's order.
type Result struct {
	Groups []string
	// Source says where the groups came from, for explanations.
	Source string
	// Details explain the lookup step by step (check --explain): for LDAP
	// the filter sent and how each memberOf value became a group.
	Details []string
	// Warnings are where YuniKorn's own lookup would differ from this one;
	// they are always shown.
	Warnings []string
}

// Resolver looks up a user's groups. An error means YuniKorn's resolver fails
// for the user, and YuniKorn rejects the application.
type Resolver interface {
	Resolve(user string) (Result, error)
	// Name is the usergroupresolver type the resolver stands for.
	Name() string
}

// ErrUnresolvable wraps every resolution failure: YuniKorn rejects the
// application when its resolver cannot resolve the user.
var ErrUnresolvable = errors.New("user cannot be resolved")

// Options are what the resolvers need beyond a user name.
type Options struct {
	GroupsFile string // for "file"
	// GroupsRoot is set when a file in a repository (a test file's
	// groupsFile:) named GroupsFile rather than the command line: it is then
	// read only as a regular file inside this directory (input.ReadConfined).
	GroupsRoot string
	MaxSize    int64 // the largest groups file read (0: input.DefaultMaxSize)
	// Seen is the run's files read, where the groups file is remembered.
	Seen *engine.ReadSet
	// LDAP reads the LDAP settings when an ldap resolver is needed; nil
	// means none are available.
	LDAP func() (*LDAPSettings, error)
}

// Names are the resolvers --resolver accepts.
var Names = []string{"none", "os", "file", "test", "ldap"}

// New returns the resolver called name.
func New(name string, opts Options) (Resolver, error) {
	switch name {
	case "none":
		return None{}, nil
	case "os":
		return OS{}, nil
	case "test":
		return Test{}, nil
	case "file":
		if opts.GroupsFile == "" {
			return nil, fmt.Errorf("the file resolver reads --groups-file FILE; none was given")
		}
		if opts.GroupsRoot != "" {
			data, err := input.ReadConfined(opts.GroupsRoot, opts.GroupsFile, opts.MaxSize, opts.Seen)
			if err != nil {
				return nil, err
			}
			return ParseFile(opts.GroupsFile, data)
		}
		return LoadFile(opts.GroupsFile, opts.MaxSize, opts.Seen)
	case "ldap":
		if opts.LDAP == nil {
			return nil, fmt.Errorf("the ldap resolver needs YuniKorn's LDAP settings: give --ldap-config DIR, or the user's groups with --groups")
		}
		s, err := opts.LDAP()
		if err != nil {
			return nil, err
		}
		return &LDAP{Settings: *s}, nil
	}
	return nil, fmt.Errorf("unknown resolver %q: use none, os, file, test or ldap", name)
}

// ForType returns the resolver YuniKorn creates for a usergroupresolver type.
// Exactly "test", "os" and "ldap" select a resolver; anything else, including
// other spellings, silently means no resolver.
func ForType(t string, opts Options) (Resolver, error) {
	if Selects(t) {
		return New(t, opts)
	}
	return None{}, nil
}

// Selects reports whether a usergroupresolver type makes YuniKorn run a
// resolver; any other value means None.
func Selects(t string) bool { return t == "test" || t == "os" || t == "ldap" }

// None is YuniKorn's behaviour without a resolver: the user's only group is
// a group named like the user.
type None struct{}

func (None) Name() string { return "" }

func (None) Resolve(u string) (Result, error) {
	if u == "" {
		return Result{}, fmt.Errorf("%w: empty user name", ErrUnresolvable)
	}
	return Result{Groups: []string{u}, Source: "no resolver: the user's own name is the only group"}, nil
}

// Test is YuniKorn's fixed test resolver table (usergroup_test_resolver.go).
type Test struct{}

func (Test) Name() string { return "test" }

type testUser struct {
	gid  string
	gids []string // nil: the group id lookup fails
}

var testUsers = map[string]testUser{
	"testuser1":        {"1000", []string{"1001"}},
	"testuser2":        {"100", []string{"1001", "1002"}},
	"testuser3":        {"1001", []string{"1002", "1001", "1003", "1004"}},
	"testuser4":        {"901", []string{"901", "902"}},
	"testuser5":        {"1001", nil},
	"invalid-gid-user": {"1_001", nil},
}

// testGroupName is the test resolver's group lookup: ids of 1000 and up
// resolve to "group<id>", anything else fails and stays as the id.
func testGroupName(gid string) string {
	n, err := strconv.Atoi(gid)
	if err != nil || n < 1000 {
		return gid
	}
	return "group" + gid
}

func (Test) Resolve(u string) (Result, error) {
	tu, ok := testUsers[u]
	if !ok {
		return Result{}, fmt.Errorf("%w: the test resolver's lookup fails for %q (only testuser1 to testuser5 exist)", ErrUnresolvable, u)
	}
	groups := []string{testGroupName(tu.gid)}
	if tu.gids == nil {
		return Result{Groups: groups}, fmt.Errorf("%w: the test resolver's group lookup fails for %q", ErrUnresolvable, u)
	}
	for _, g := range tu.gids {
		if g != tu.gid {
			groups = append(groups, testGroupName(g))
		}
	}
	return Result{Groups: groups, Source: "test resolver: YuniKorn's fixed test table"}, nil
}

// OS resolves through the system's user database (os/user, with NSS when
// built with cgo): primary group first, then the others, a group id without
// a name kept as the number.
type OS struct{}

func (OS) Name() string { return "os" }

func (OS) Resolve(name string) (Result, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return Result{}, fmt.Errorf("%w: os resolver: %v", ErrUnresolvable, err)
	}
	groupName := func(gid string) string {
		if g, err := user.LookupGroupId(gid); err == nil {
			return g.Name
		}
		return gid
	}
	groups := []string{groupName(u.Gid)}
	ids, err := u.GroupIds()
	if err != nil {
		return Result{Groups: groups}, fmt.Errorf("%w: os resolver: group lookup for %q: %v", ErrUnresolvable, name, err)
	}
	for _, id := range ids {
		if id != u.Gid {
			groups = append(groups, groupName(id))
		}
	}
	return Result{Groups: groups, Source: "os resolver: the system user database"}, nil
}
