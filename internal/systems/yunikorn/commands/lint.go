package commands

import (
	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// lintPart is YuniKorn's part of lint: the ConfigMap key, the LDAP
// settings directory (--ldap-config) and a running scheduler's own
// verdict on each config (--server).
func lintPart(s *streams) *clikit.Extension {
	var (
		key, ldapDir, server string
		toCheck              []checked
	)
	return &clikit.Extension{
		Flags: func(c *cobra.Command) {
			f := c.Flags()
			f.StringVar(&key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
			f.StringVar(&ldapDir, "ldap-config", "", "also check YuniKorn's LDAP settings directory (the Secret mounted at "+resolve.DefaultLDAPDir+")")
			f.StringVar(&server, "server", "", "also ask a running YuniKorn scheduler (its REST address) whether it would load each YuniKorn config (POST /ws/v1/validate-conf), and say where it disagrees with aclint (exit 2)")
			s.serverOptionFlags(f)
		},
		Lint: &clikit.LintPart{
			Alone:  "--ldap-config DIR",
			Named:  func() bool { return ldapDir != "" },
			Values: func() map[string]string { return map[string]string{"key": key} },
			Before: func() ([]engine.Finding, string, error) {
				if ldapDir == "" {
					return nil, "", nil
				}
				// the settings directory is the Secret that holds the bind
				// password, and any file in it (a misnamed bindpassword) may
				// be it: no snippet of it is shown and no fingerprint hashes
				// its text
				fs, err := yunikorn.LintLDAP(ldapDir, s.env.Seen())
				if err != nil {
					return nil, "", clikit.Usage("--ldap-config: %w", err)
				}
				return fs, ldapDir, nil
			},
			Linted: func(j engine.Job, r *engine.Report) {
				if j.Sys.Name() != yunikorn.System {
					return
				}
				if server != "" {
					toCheck = append(toCheck, checked{j.In, r.Findings, r.Parsed})
				}
				if ldapDir != "" {
					r.Findings = yunikorn.WithLDAPSettings(r.Findings)
				}
			},
			After: func() error { return s.crossCheck(server, key, toCheck) },
		},
	}
}
