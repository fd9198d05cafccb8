package resolve

import (
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"

	"github.com/go-ldap/ldap/v3"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// DefaultLDAPDir is where YuniKorn reads its LDAP settings (a mounted Secret).
const DefaultLDAPDir = "/run/secrets/ldap"

// Names of the setting files, as YuniKorn reads them.
const (
	LDAPHost         = "Host"
	LDAPPort         = "Port"
	LDAPBaseDN       = "BaseDN"
	LDAPFilter       = "Filter"
	LDAPGroupAttr    = "GroupAttr"
	LDAPReturnAttr   = "ReturnAttr"
	LDAPBindUser     = "BindUser"
	LDAPBindPassword = "BindPassword"
	LDAPInsecure     = "Insecure"
	LDAPSSL          = "SSL"
)

// requiredLDAP are the settings YuniKorn refuses to start without.
var requiredLDAP = []string{LDAPHost, LDAPPort, LDAPBaseDN, LDAPFilter, LDAPGroupAttr, LDAPReturnAttr, LDAPBindUser, LDAPBindPassword}

var knownLDAP = append(append([]string(nil), requiredLDAP...), LDAPInsecure, LDAPSSL)

// LDAPSettings are the settings of YuniKorn's LDAP resolver. Defaults are
// YuniKorn's.
type LDAPSettings struct {
	Dir          string
	Host         string
	Port         int
	BaseDN       string
	Filter       string
	GroupAttr    string
	ReturnAttr   []string
	BindUser     string
	BindPassword string
	Insecure     bool
	SSL          bool
	Timeout      time.Duration
	given        map[string]bool // settings with a value YuniKorn accepts
	present      map[string]bool // settings written, valid or not
}

// DefaultLDAPSettings are YuniKorn's defaults.
func DefaultLDAPSettings() LDAPSettings {
	return LDAPSettings{Host: "localhost", Port: 389, BaseDN: "dc=example,dc=com", Filter: "(&(sAMAccountName=%s))",
		GroupAttr: "memberOf", ReturnAttr: []string{"memberOf"}, BindUser: "admin", BindPassword: "admin",
		Timeout: 10 * time.Second, given: map[string]bool{}, present: map[string]bool{}}
}

// LDAPIssue is a problem in the LDAP settings. Fatal issues make YuniKorn
// refuse to start; the others are accepted with a different effect.
type LDAPIssue struct {
	File  string // the setting's file
	Fatal bool
	Msg   string
}

// ReadLDAPDir reads the settings directory as YuniKorn's ReadLdapConfig
// does: one file per setting, trimmed; Kubernetes' "..data" entries and
// directories are skipped; a value that fails its check is ignored.
func ReadLDAPDir(dir string, seen *engine.ReadSet) (LDAPSettings, []LDAPIssue, error) {
	s := DefaultLDAPSettings()
	s.Dir = dir
	entries, err := os.ReadDir(dir)
	if err != nil {
		return s, nil, fmt.Errorf("LDAP settings directory %s: %w", dir, err)
	}
	var issues []LDAPIssue
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, "..") || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, name)
		raw, err := input.ReadFile(path, 0, seen) // a Secret's files: at most 1 MiB each
		if err != nil {
			issues = append(issues, LDAPIssue{path, false, fmt.Sprintf("cannot be read (%v): YuniKorn skips it", err)})
			continue
		}
		if msg, fatal := s.Set(name, strings.TrimSpace(string(raw))); msg != "" {
			issues = append(issues, LDAPIssue{path, fatal, msg})
		}
	}
	return s, issues, nil
}

// Set applies one setting as YuniKorn's ValidateSecretValue would. It
// returns a message for a value YuniKorn ignores, and whether that makes
// YuniKorn refuse to start (a required setting left without a value).
func (s *LDAPSettings) Set(name, v string) (string, bool) {
	s.present[name] = true
	required := contains(requiredLDAP, name)
	bad := func(format string, args ...any) (string, bool) {
		msg := fmt.Sprintf(format, args...)
		if required {
			return msg + ": YuniKorn ignores the value and, as " + name + " is required, refuses to start", true
		}
		return msg, false
	}
	switch name {
	case LDAPHost, LDAPBaseDN, LDAPGroupAttr, LDAPBindUser, LDAPBindPassword:
		if v == "" {
			return bad("%s is empty", name)
		}
		switch name {
		case LDAPHost:
			s.Host = v
		case LDAPBaseDN:
			s.BaseDN = v
		case LDAPGroupAttr:
			s.GroupAttr = v
		case LDAPBindUser:
			s.BindUser = v
		case LDAPBindPassword:
			s.BindPassword = v
		}
	case LDAPPort:
		p, err := strconv.Atoi(v)
		if err != nil {
			return bad("Port %q is not a number", v)
		}
		if p < 1 || p > 65535 {
			return bad("Port %d is outside 1 to 65535", p)
		}
		s.Port = p
	case LDAPFilter:
		switch {
		case v == "":
			return bad("Filter is empty")
		case !strings.Contains(v, "%s"):
			return bad("Filter %q has no %%s where the user name goes", v)
		case !balanced(v):
			return bad("Filter %q has unbalanced parentheses", v)
		}
		s.Filter = v
	case LDAPReturnAttr:
		if v == "" {
			return bad("ReturnAttr is empty")
		}
		s.ReturnAttr = strings.Split(v, ",")
	case LDAPInsecure, LDAPSSL:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Sprintf("%s %q is not a boolean (true or false): YuniKorn ignores it and uses false", name, v), false
		}
		if name == LDAPSSL {
			s.SSL = b
		} else {
			s.Insecure = b
		}
	default:
		msg := fmt.Sprintf("%q is not an LDAP setting YuniKorn reads, so it is ignored", name)
		if near := nearest(name, knownLDAP); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		return msg, false
	}
	s.given[name] = true
	return "", false
}

func balanced(s string) bool {
	n := 0
	for _, c := range s {
		switch c {
		case '(':
			n++
		case ')':
			if n--; n < 0 {
				return false
			}
		}
	}
	return n == 0
}

var (
	hostnameRe = regexp.MustCompile(`^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]*[a-zA-Z0-9])\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9\-]*[A-Za-z0-9])$`)
	dnRe       = regexp.MustCompile(`^(?:(?:[a-zA-Z0-9]+=[^,]+)(?:,(?:[a-zA-Z0-9]+=[^,]+))*)?$`)
	attrRe     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9\-_]*$`)
	bindUserRe = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9\._\-@]*$`)
)

// Check returns what YuniKorn's settings validation says once all files
// are read: required settings that were not given (fatal), and the
// validator's warnings, plus the one that matters most for groups: a
// ReturnAttr without memberOf, the only attribute YuniKorn reads.
func (s *LDAPSettings) Check() []LDAPIssue {
	var out []LDAPIssue
	file := func(n string) string { return filepath.Join(s.Dir, n) }
	for _, n := range requiredLDAP {
		if !s.present[n] {
			out = append(out, LDAPIssue{file(n), true, fmt.Sprintf("%s is missing: YuniKorn refuses to start without it (LDAP configuration not found or invalid)", n)})
		}
	}
	warn := func(n, format string, args ...any) {
		out = append(out, LDAPIssue{file(n), false, fmt.Sprintf(format, args...)})
	}
	if s.given[LDAPHost] && net.ParseIP(s.Host) == nil && !hostnameRe.MatchString(s.Host) {
		warn(LDAPHost, "Host %q is not a valid host name (YuniKorn warns and tries it anyway)", s.Host)
	}
	if s.given[LDAPBaseDN] {
		if !strings.Contains(strings.ToLower(s.BaseDN), "dc=") {
			warn(LDAPBaseDN, "BaseDN %q has no domain component (dc=)", s.BaseDN)
		}
		if !dnRe.MatchString(s.BaseDN) {
			warn(LDAPBaseDN, "BaseDN %q is not a valid DN", s.BaseDN)
		}
	}
	if s.given[LDAPFilter] && !(strings.HasPrefix(s.Filter, "(") && strings.HasSuffix(s.Filter, ")")) {
		warn(LDAPFilter, "Filter %q is not enclosed in parentheses", s.Filter)
	}
	if s.given[LDAPFilter] && strings.Count(s.Filter, "%") != 1 {
		warn(LDAPFilter, "Filter %q has more than one %% directive; YuniKorn fills it with fmt.Sprintf and one user name", s.Filter)
	}
	if s.given[LDAPGroupAttr] && !attrRe.MatchString(s.GroupAttr) {
		warn(LDAPGroupAttr, "GroupAttr %q is not a valid attribute name (YuniKorn does not use GroupAttr)", s.GroupAttr)
	}
	if s.given[LDAPReturnAttr] {
		for _, a := range s.ReturnAttr {
			if !attrRe.MatchString(a) {
				warn(LDAPReturnAttr, "ReturnAttr entry %q is not a valid attribute name (entries are split on commas and not trimmed)", a)
			}
		}
		if !contains(s.ReturnAttr, "memberOf") {
			warn(LDAPReturnAttr, "ReturnAttr %q does not include memberOf, the only attribute YuniKorn reads groups from: every user gets only the group named like the user", strings.Join(s.ReturnAttr, ","))
		}
	}
	if s.given[LDAPBindUser] && !dnRe.MatchString(s.BindUser) && !bindUserRe.MatchString(s.BindUser) {
		warn(LDAPBindUser, "BindUser %q is neither a DN nor a user name", s.BindUser)
	}
	if s.given[LDAPBindPassword] && len(s.BindPassword) < 3 {
		warn(LDAPBindPassword, "BindPassword is shorter than 3 characters")
	}
	if s.SSL && s.Port != 636 {
		warn(LDAPPort, "SSL is on but Port is %d, not the LDAPS port 636", s.Port)
	}
	if s.SSL && s.Insecure {
		warn(LDAPInsecure, "SSL and Insecure are both on: the server certificate is not verified")
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// URL is the address YuniKorn dials: ldaps:// with SSL, ldap:// otherwise
// (no StartTLS).
func (s *LDAPSettings) URL() string {
	scheme := "ldap"
	if s.SSL {
		scheme = "ldaps"
	}
	return fmt.Sprintf("%s://%s", scheme, net.JoinHostPort(s.Host, strconv.Itoa(s.Port)))
}

// YuniKornFilter is the filter YuniKorn sends: the user name put in
// unescaped.
func (s *LDAPSettings) YuniKornFilter(user string) string { return fmt.Sprintf(s.Filter, user) }

// SafeFilter is the filter aclint sends, with the user name escaped.
func (s *LDAPSettings) SafeFilter(user string) string {
	return fmt.Sprintf(s.Filter, ldap.EscapeFilter(user))
}

// UnreachableError is an LDAP lookup that failed: the server could not be
// reached, did not answer in time, closed the connection, refused the bind
// or the search, or the TLS handshake failed. aclint cannot know the groups
// YuniKorn would get, so the answer is exit 2, never a verdict.
type UnreachableError struct {
	Addr string
	Step string // connect, bind as ..., search ...
	Err  error
}

func (e *UnreachableError) Error() string {
	if e.Step == "" {
		return fmt.Sprintf("LDAP server %s: %v", e.Addr, e.Err)
	}
	return fmt.Sprintf("LDAP server %s: %s failed: %v", e.Addr, e.Step, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// CrashError is a memberOf value YuniKorn's group extraction panics on: the
// scheduler would crash instead of answering.
type CrashError struct {
	Value string
}

func (e *CrashError) Error() string {
	return fmt.Sprintf("YuniKorn's LDAP group extraction crashes on memberOf value %q: it takes the text after an upper-case \"CN=\" in the part before the first comma, and there is none; the scheduler would panic instead of placing the application", e.Value)
}

// LDAP is YuniKorn's LDAP resolver, pointed at a real server.
type LDAP struct {
	Settings LDAPSettings
}

// Name is "ldap".
func (*LDAP) Name() string { return "ldap" }

// Resolve searches the directory as YuniKorn does and extracts groups from
// memberOf the same way: the user's own name first, then for each memberOf
// value the text after "CN=" in the part before the first comma.
func (l *LDAP) Resolve(user string) (Result, error) {
	s := l.Settings
	res := Result{Groups: []string{user}, Source: fmt.Sprintf("ldap resolver: %s, base %s", s.URL(), s.BaseDN)}
	filter := s.SafeFilter(user)
	res.Details = append(res.Details, "filter sent: "+filter)
	if s.Insecure {
		res.Details = append(res.Details, "Insecure=true: the server's TLS certificate is not verified")
		res.Warnings = append(res.Warnings, fmt.Sprintf("LDAP Insecure=true: the certificate of %s is not verified, so these groups may come from whoever answers at that address", s.URL()))
	}
	if yk := s.YuniKornFilter(user); yk != filter {
		res.Warnings = append(res.Warnings, fmt.Sprintf("YuniKorn puts the user name into the LDAP filter unescaped and would send %s, which may match other entries and give other groups; aclint sent %s", yk, filter))
	}
	values, err := l.memberOf(filter)
	if err != nil {
		return res, err
	}
	for _, v := range values {
		g, err := ExtractGroup(v)
		if err != nil {
			return res, err
		}
		res.Details = append(res.Details, fmt.Sprintf("memberOf %q -> group %q", v, g))
		res.Groups = append(res.Groups, g)
	}
	if len(values) == 0 {
		res.Details = append(res.Details, "no memberOf values found: the only group is the user's own name")
	}
	return res, nil
}

// ExtractGroup is YuniKorn's extraction from one memberOf value:
// strings.Split(strings.Split(v, ",")[0], "CN=")[1], which panics when the
// part before the first comma has no upper-case "CN=".
func ExtractGroup(v string) (string, error) {
	first := strings.Split(v, ",")[0]
	parts := strings.Split(first, "CN=")
	if len(parts) < 2 {
		return "", &CrashError{Value: v}
	}
	return parts[1], nil
}

func (l *LDAP) memberOf(filter string) ([]string, error) {
	s := l.Settings
	addr := s.URL()
	conn, err := ldap.DialURL(addr,
		ldap.DialWithDialer(&net.Dialer{Timeout: s.Timeout}),
		ldap.DialWithTLSConfig(&tls.Config{InsecureSkipVerify: s.Insecure, ServerName: s.Host})) // #nosec G402: YuniKorn's own setting
	if err != nil {
		return nil, &UnreachableError{addr, "connect", err}
	}
	defer conn.Close()
	conn.SetTimeout(s.Timeout)
	if err := conn.Bind(s.BindUser, s.BindPassword); err != nil {
		return nil, &UnreachableError{addr, "bind as " + s.BindUser, err}
	}
	req := ldap.NewSearchRequest(s.BaseDN, ldap.ScopeWholeSubtree, ldap.NeverDerefAliases, 0, 0, false, filter, s.ReturnAttr, nil)
	sr, err := conn.Search(req)
	if err != nil {
		return nil, &UnreachableError{addr, fmt.Sprintf("search for %s under %s", filter, s.BaseDN), err}
	}
	var out []string
	for _, e := range sr.Entries {
		out = append(out, e.GetAttributeValues("memberOf")...)
	}
	return out, nil
}

func contains(list []string, x string) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}

// nearest returns the setting name closest to name, ignoring case.
func nearest(name string, candidates []string) string {
	lower := make([]string, len(candidates))
	for i, c := range candidates {
		lower[i] = strings.ToLower(c)
	}
	n := config.Nearest(strings.ToLower(name), lower)
	for i, l := range lower {
		if l == n && n != "" {
			return candidates[i]
		}
	}
	return ""
}
