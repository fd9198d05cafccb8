package commands

import (
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// resolverFlags are check's flags for where groups come from.
type resolverFlags struct {
	name, groupsFile, ldapDir, passwordFile string
	timeout                                 time.Duration
	ldap                                    map[string]*string // setting name -> flag value
	insecure, ssl                           string
	max                                     func() int64 // --max-input-size, for the groups and password files
	seen                                    *engine.ReadSet
}

func (f *resolverFlags) register(s *streams, c *cobra.Command) {
	f.max, f.seen = s.env.MaxInput, s.env.Seen()
	fl := c.Flags()
	fl.StringVar(&f.name, "resolver", "", "where groups come from when the request carries none: "+strings.Join(resolve.Names, ", ")+" (default: the first partition's usergroupresolver, as in YuniKorn)")
	fl.StringVar(&f.groupsFile, "groups-file", "", "YAML or JSON file of users' groups, for --resolver file (given alone, it means --resolver file)")
	fl.StringVar(&f.ldapDir, "ldap-config", resolve.DefaultLDAPDir, "directory of YuniKorn's LDAP settings, one file per setting (the Secret the scheduler mounts)")
	f.ldap = map[string]*string{}
	for name, flag := range map[string]string{
		resolve.LDAPHost: "ldap-host", resolve.LDAPPort: "ldap-port", resolve.LDAPBaseDN: "ldap-base-dn",
		resolve.LDAPFilter: "ldap-filter", resolve.LDAPGroupAttr: "ldap-group-attr", resolve.LDAPReturnAttr: "ldap-return-attr",
		resolve.LDAPBindUser: "ldap-bind-user",
	} {
		f.ldap[name] = fl.String(flag, "", "override the LDAP "+name+" setting")
	}
	fl.StringVar(&f.insecure, "ldap-insecure", "", "override the LDAP Insecure setting (true or false)")
	fl.StringVar(&f.ssl, "ldap-ssl", "", "override the LDAP SSL setting (true or false)")
	fl.StringVar(&f.passwordFile, "ldap-bind-password-file", "", "file holding the LDAP bind password (or set ACLINT_LDAP_PASSWORD); never given on the command line")
	fl.DurationVar(&f.timeout, "ldap-timeout", 10*time.Second, "time limit for connecting to and searching the LDAP server")
}

// options builds what the resolvers need from the flags.
func (f *resolverFlags) options(c *cobra.Command) resolve.Options {
	return resolve.Options{GroupsFile: f.groupsFile, MaxSize: f.max(), Seen: f.seen, LDAP: func() (*resolve.LDAPSettings, error) { return f.ldapSettings(c) }}
}

// ldapSettings reads the settings directory like YuniKorn, then applies the
// --ldap-* overrides and the password from a file or ACLINT_LDAP_PASSWORD.
func (f *resolverFlags) ldapSettings(c *cobra.Command) (*resolve.LDAPSettings, error) {
	s, issues, err := resolve.ReadLDAPDir(f.ldapDir, f.seen)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) || c.Flags().Changed("ldap-config") {
			return nil, err
		}
		s = resolve.DefaultLDAPSettings() // no directory: the flags say it all
		s.Dir = f.ldapDir
		issues = nil
	}
	set := func(name, v string) {
		if msg, fatal := s.Set(name, v); msg != "" {
			issues = append(issues, resolve.LDAPIssue{File: "--" + flagOf(name), Fatal: fatal, Msg: msg})
		}
	}
	for name, v := range f.ldap {
		if *v != "" {
			set(name, *v)
		}
	}
	if f.insecure != "" {
		set(resolve.LDAPInsecure, f.insecure)
	}
	if f.ssl != "" {
		set(resolve.LDAPSSL, f.ssl)
	}
	if f.passwordFile != "" {
		b, err := input.ReadFile(f.passwordFile, f.max(), f.seen)
		if err != nil {
			return nil, fmt.Errorf("--ldap-bind-password-file: %v", err)
		}
		set(resolve.LDAPBindPassword, strings.TrimSpace(string(b)))
	} else if p := os.Getenv("ACLINT_LDAP_PASSWORD"); p != "" {
		set(resolve.LDAPBindPassword, p)
	}
	s.Timeout = f.timeout
	if s.Insecure {
		fmt.Fprintf(c.ErrOrStderr(), "aclint: warning: LDAP Insecure=true: the certificate of %s is not verified, so the groups may come from whoever answers at that address\n", s.URL())
	}
	var fatal []string
	for _, is := range append(issues, s.Check()...) {
		if is.Fatal {
			fatal = append(fatal, engine.Printable(is.File+": "+is.Msg))
		}
	}
	if len(fatal) > 0 {
		return nil, &clikit.Explained{Msg: fmt.Sprintf("YuniKorn would not start with these LDAP settings:\n  %s\nsettings come from the files in --ldap-config (now %s) or the --ldap-* flags, the password from --ldap-bind-password-file or ACLINT_LDAP_PASSWORD; 'aclint lint --ldap-config DIR' lists every problem",
			strings.Join(fatal, "\n  "), engine.Printable(f.ldapDir))}
	}
	return &s, nil
}

func flagOf(setting string) string {
	switch setting {
	case resolve.LDAPBaseDN:
		return "ldap-base-dn"
	case resolve.LDAPGroupAttr:
		return "ldap-group-attr"
	case resolve.LDAPReturnAttr:
		return "ldap-return-attr"
	case resolve.LDAPBindUser:
		return "ldap-bind-user"
	case resolve.LDAPBindPassword:
		return "ldap-bind-password-file"
	}
	return "ldap-" + strings.ToLower(setting)
}

// subject fills a query's user side from --groups and the resolver flags,
// as check, access and place take them.
func (f *resolverFlags) subject(c *cobra.Command, q *acl.Query, groups string) error {
	q.Resolvers = f.options(c)
	q.Groups = clikit.ParseList(groups)
	if groups != "" && len(q.Groups) == 0 {
		return clikit.Usage("--groups %q names no group: give comma-separated names, or leave --groups out to let the resolver find the groups", groups)
	}
	r, err := f.resolver(c)
	q.Resolver = r
	return err
}

// resolver is the resolver the flags name, nil when they name none:
// --resolver, or file when only --groups-file is given (a groups file
// given is never passed over).
func (f *resolverFlags) resolver(c *cobra.Command) (resolve.Resolver, error) {
	if f.timeout <= 0 {
		// no limit would let a server that never answers hang CI
		return nil, clikit.Usage("--ldap-timeout %v: give a positive time limit, e.g. 10s", f.timeout)
	}
	name := f.name
	if name == "" && f.groupsFile != "" {
		name = "file"
	}
	if name == "" {
		return nil, nil
	}
	r, err := resolve.New(name, f.options(c))
	if err != nil {
		return nil, clikit.Usage("--resolver %s: %w", name, err)
	}
	return r, nil
}

// ResolverFlags are check's flags for where groups come from, for a
// command outside this package that resolves groups as check does
// (convert yarn).
type ResolverFlags struct{ f resolverFlags }

// RegisterResolverFlags adds --resolver, --groups-file and the LDAP flags
// to c.
func RegisterResolverFlags(env clikit.Env, c *cobra.Command) *ResolverFlags {
	r := &ResolverFlags{}
	r.f.register(&streams{env: env}, c)
	return r
}

// Resolver is the resolver the flags name; nil when they name none.
func (r *ResolverFlags) Resolver(c *cobra.Command) (resolve.Resolver, error) {
	return r.f.resolver(c)
}
