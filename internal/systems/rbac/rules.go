package rbac

// The findings' rule names: each is reported by the reader and the API
// server's validation as they read a file, not by a check of its own.
const (
	ruleMalformed       = "rbac-malformed"
	ruleNotServed       = "rbac-not-served"
	ruleInvalid         = "rbac-invalid"
	ruleDuplicateObject = "rbac-duplicate-object"
	ruleDuplicateKey    = "rbac-duplicate-key"
	ruleNoNamespace     = "rbac-no-namespace"
)
