package yunikorn

import (
	"github.com/aclint/aclint/internal/engine"

	"os"
	"path/filepath"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// LintLDAP checks a directory of YuniKorn's LDAP settings (the Secret the
// scheduler mounts at /run/secrets/ldap) as YuniKorn reads it at start.
func LintLDAP(dir string, seen *engine.ReadSet) ([]Finding, error) {
	s, issues, err := resolve.ReadLDAPDir(dir, seen)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, is := range append(issues, s.Check()...) {
		r := ruleLDAPSettingIgnored()
		if is.Fatal {
			r = ruleLDAPSettingInvalid()
		}
		out = append(out, Finding{Rule: r.Name, Severity: r.Severity, Pos: config.Position{File: is.File, Line: 1, Col: 1},
			Message: is.Msg, Hint: ldapHint(is)})
	}
	engine.Sort(out)
	return out, nil
}

func ldapHint(is resolve.LDAPIssue) string {
	name := filepath.Base(is.File)
	switch {
	case strings.Contains(is.Msg, "is missing"):
		return "create the file " + name + " in the Secret with the setting's value"
	case strings.Contains(is.Msg, "not an LDAP setting"):
		return "rename or remove the file; YuniKorn reads Host, Port, BaseDN, Filter, GroupAttr, ReturnAttr, BindUser, BindPassword, Insecure and SSL"
	case name == resolve.LDAPFilter:
		return "write a filter in parentheses with one %s for the user name, e.g. (&(sAMAccountName=%s))"
	case name == resolve.LDAPInsecure || name == resolve.LDAPSSL:
		return "write true or false"
	case name == resolve.LDAPReturnAttr:
		return "include memberOf: YuniKorn reads groups from it and nothing else"
	}
	return "correct the value in the file " + name
}

// ldapExample writes a rule's example settings ("File: value" lines) into a
// directory, for the documentation and its tests.
func ldapExample(dir, text string) error {
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		name, v, _ := strings.Cut(l, ":")
		if err := os.WriteFile(filepath.Join(dir, strings.TrimSpace(name)), []byte(strings.TrimSpace(v)+"\n"), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// LDAPExample lints a rule's LDAP example in a fresh directory under tmp
// and returns the findings with file names relative to it.
func LDAPExample(tmp, text string) ([]Finding, error) {
	if err := ldapExample(tmp, text); err != nil {
		return nil, err
	}
	fs, err := LintLDAP(tmp, nil)
	for i := range fs {
		fs[i].Pos.File = strings.TrimPrefix(fs[i].Pos.File, tmp+string(filepath.Separator))
	}
	return fs, err
}

const ldapGood = `Host: ldap.example.com
Port: 389
BaseDN: dc=example,dc=com
Filter: (&(sAMAccountName=%s))
GroupAttr: memberOf
ReturnAttr: memberOf
BindUser: cn=yunikorn,ou=services,dc=example,dc=com
BindPassword: change-me`

// ruleLDAPSettingInvalid is the rule ldap-setting-invalid.
func ruleLDAPSettingInvalid() *Rule {
	return &Rule{
		Name:     "ldap-setting-invalid",
		Severity: Error,
		LDAP:     true,
		Summary:  "an LDAP setting YuniKorn cannot start with: missing, empty, a bad port, a filter without %s or with unbalanced parentheses",
		Doc: "With `usergroupresolver: {type: ldap}` YuniKorn reads one file per setting from the Secret mounted at\n" +
			"`/run/secrets/ldap`. Host, Port, BaseDN, Filter, GroupAttr, ReturnAttr, BindUser and BindPassword are\n" +
			"required; a missing one, or one whose value YuniKorn rejects (a Port outside 1-65535, a Filter without\n" +
			"`%s` or with unbalanced parentheses, an empty value), stops the scheduler from starting.\n" +
			"Checked by `aclint lint --ldap-config DIR`.",
		Bad:   strings.Replace(strings.Replace(ldapGood, "Port: 389", "Port: 3899x", 1), "Filter: (&(sAMAccountName=%s))", "Filter: (&(sAMAccountName=alice)", 1),
		Good:  ldapGood,
		check: func(*pass) {}, // LintLDAP reports it
	}
}

// ruleLDAPSettingIgnored is the rule ldap-setting-ignored.
func ruleLDAPSettingIgnored() *Rule {
	return &Rule{
		Name:     "ldap-setting-ignored",
		Severity: Warning,
		LDAP:     true,
		Summary:  "an LDAP setting YuniKorn ignores or reads differently: a non-boolean SSL or Insecure, an unknown file, no memberOf in ReturnAttr",
		Doc: "YuniKorn skips a value it cannot read when the setting is optional: `SSL: yes` is not a Go boolean, so\n" +
			"SSL stays off and the password goes over plain LDAP. A file with a name YuniKorn does not know\n" +
			"(`Basedn`) is ignored. YuniKorn takes groups only from `memberOf`, whatever ReturnAttr asks for.\n" +
			"The validator's other warnings (host name, DN and filter format, SSL on a port other than 636) are\n" +
			"reported here too.",
		Bad:   ldapGood + "\nSSL: yes\nInsecure: sometimes",
		Good:  strings.Replace(ldapGood, "Port: 389", "Port: 636", 1) + "\nSSL: true",
		check: func(*pass) {}, // LintLDAP reports it
	}
}
