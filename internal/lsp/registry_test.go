package lsp

import "github.com/aclint/aclint/internal/systems"

// testRegistry is the systems aclint runs with.
var testRegistry = systems.New()
