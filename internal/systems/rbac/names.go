package rbac

import (
	"fmt"
	"strings"
)

// The name checks of k8s.io/apimachinery's validation, which the API
// server runs on every object it takes.

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

func lowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// dnsLabel is IsDNS1123Label: a namespace's name.
func dnsLabel(s string) string {
	if len(s) > 63 {
		return "must be no more than 63 characters"
	}
	if !labelShape(s) {
		return "must be a lowercase RFC 1123 label: lowercase letters, digits and '-', starting and ending with a letter or digit"
	}
	return ""
}

func labelShape(s string) bool {
	if s == "" || !lowerAlnum(s[0]) || !lowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !lowerAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// dnsSubdomain is IsDNS1123Subdomain: a service account's name, a label
// key's prefix.
func dnsSubdomain(s string) string {
	if len(s) > 253 {
		return "must be no more than 253 characters"
	}
	for _, part := range strings.Split(s, ".") {
		if !labelShape(part) {
			return "must be a lowercase RFC 1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit"
		}
	}
	return ""
}

// pathSegment is IsPathSegmentName: the name of a Role or a binding.
func pathSegment(s string) string {
	switch {
	case s == "." || s == "..":
		return fmt.Sprintf("may not be %q", s)
	case strings.ContainsAny(s, "/%"):
		return "may not contain '/' or '%'"
	}
	return ""
}

// qualifiedShape is the name part of a qualified name or a label value:
// letters, digits, '-', '_' and '.', starting and ending with a letter or
// digit.
func qualifiedShape(s string) bool {
	if s == "" || !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !alnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// qualifiedName is IsQualifiedName: a label or annotation key.
func qualifiedName(s string) string {
	name := s
	if prefix, rest, ok := strings.Cut(s, "/"); ok {
		if prefix == "" {
			return "prefix part must be non-empty"
		}
		if msg := dnsSubdomain(prefix); msg != "" {
			return "prefix part " + msg
		}
		name = rest
	}
	switch {
	case name == "":
		return "name part must be non-empty"
	case len(name) > 63:
		return "name part must be no more than 63 characters"
	case !qualifiedShape(name):
		return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	}
	return ""
}

// labelValue is IsValidLabelValue.
func labelValue(s string) string {
	switch {
	case len(s) > 63:
		return "must be no more than 63 characters"
	case s != "" && !qualifiedShape(s):
		return "must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	}
	return ""
}
