package convert

import (
	"errors"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/slapdtest"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// twoQueues names users and groups: alice, bob and dave as users, dev and
// ops as groups.
const twoQueues = `<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
<property><name>yarn.scheduler.capacity.root.acl_submit_applications</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.acl_administer_queue</name><value> ops</value></property>
<property><name>yarn.scheduler.capacity.root.a.acl_submit_applications</name><value>dave dev</value></property>
<property><name>yarn.scheduler.capacity.root.b.acl_submit_applications</name><value>alice</value></property>
<property><name>yarn.scheduler.capacity.queue-mappings</name><value>g:dev:root.a</value></property>
</configuration>`

// TestProvedUnderAGroupsFile: without a resolver, users named like the
// groups dev and ops differ (YuniKorn gives them their own name as a group);
// with the cluster's groups, each is asked with those, in both systems, and
// nothing differs; the config sets no resolver (requests carry the groups).
func TestProvedUnderAGroupsFile(t *testing.T) {
	res, err := FromYARN(aclsOnSetup(t, twoQueues), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Differences) == 0 || res.Differences[0].Cause != causeNoGroups {
		t.Fatalf("without groups, users dev and ops differ: %v", res.Differences)
	}
	f, err := resolve.ParseFile("groups.yaml", []byte("alice: [dev]\ndev: [staff]\nops: [ops]\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err = FromYARN(aclsOnSetup(t, twoQueues), Options{Resolver: f})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Differences) > 0 {
		t.Errorf("under the groups file: %v", res.Differences)
	}
	for _, d := range res.Placement {
		if d.Cause == causeNoGroups {
			t.Errorf("under the groups file: %s", d)
		}
	}
	if strings.Contains(string(res.YAML), "usergroupresolver") {
		t.Errorf("a groups file is the groups requests carry, not a YuniKorn resolver:\n%s", res.YAML)
	}
	// a resolver YuniKorn runs is written into the config
	res, err = FromYARN(aclsOnSetup(t, twoQueues), Options{Resolver: resolve.Test{}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.YAML), "usergroupresolver:\n      type: test\n") {
		t.Errorf("no usergroupresolver in:\n%s", res.YAML)
	}
	for _, d := range res.Differences {
		if d.User != "" && d.Cause != causeUnresolved {
			t.Errorf("the test resolver knows none of these users: %s is %s", d, d.Cause)
		}
	}
}

type unreachable struct{ calls int }

func (*unreachable) Name() string { return "ldap" }
func (u *unreachable) Resolve(string) (resolve.Result, error) {
	u.calls++
	return resolve.Result{}, &resolve.UnreachableError{Addr: "ldap://127.0.0.1:1", Step: "connect", Err: errors.New("connection refused")}
}

// TestResolverWithoutAnswer: a server that cannot be reached ends the
// conversion (exit 2), after one lookup: no "same" and no "differs".
func TestResolverWithoutAnswer(t *testing.T) {
	u := &unreachable{}
	_, err := FromYARN(aclsOnSetup(t, twoQueues), Options{Resolver: u})
	if err == nil || !strings.Contains(err.Error(), "the ldap resolver gave no answer: LDAP server ldap://127.0.0.1:1: connect failed") {
		t.Fatalf("error %v", err)
	}
	if u.calls != 1 {
		t.Errorf("%d lookups after the server failed once", u.calls)
	}
}

// TestProvedUnderLDAP asks a real OpenLDAP server: alice is in dev and ops,
// dave in none; bob's memberOf is one YuniKorn crashes on, so a setup that
// names bob is not proven.
func TestProvedUnderLDAP(t *testing.T) {
	srv := slapdtest.Start(t)
	dir := srv.WriteSettings(t, nil)
	ldap := func() resolve.Resolver {
		r, err := resolve.New("ldap", resolve.Options{LDAP: func() (*resolve.LDAPSettings, error) {
			s, _, err := resolve.ReadLDAPDir(dir, nil)
			return &s, err
		}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	res, err := FromYARN(aclsOnSetup(t, twoQueues), Options{Resolver: ldap()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.YAML), "usergroupresolver:\n      type: ldap\n") {
		t.Errorf("no ldap usergroupresolver in:\n%s", res.YAML)
	}
	for _, d := range res.Differences {
		if d.Cause != causeUnresolved {
			t.Errorf("%s: cause %s", d, d.Cause)
		}
	}
	withBob := strings.Replace(twoQueues, "<value>alice</value>", "<value>alice,bob</value>", 1)
	if _, err := FromYARN(aclsOnSetup(t, withBob), Options{Resolver: ldap()}); err == nil || !strings.Contains(err.Error(), "crashes on memberOf value") {
		t.Errorf("bob: error %v", err)
	}
}
