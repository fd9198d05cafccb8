package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The command line is wiring (docs/architecture.md): it reaches the
// systems through the registry only, so neither it nor the language
// server links a system's package, and it stays small enough to read: no
// file over 300 lines, no function over 80.
func TestWiringOnly(t *testing.T) {
	for _, pkg := range []string{".", "../lsp", "../clikit", "../audit", "../engine"} {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, "github.com/aclint/aclint/internal/systems") || strings.HasPrefix(dep, "github.com/aclint/aclint/internal/systems/convert") {
				t.Errorf("%s links %s: a system is reached through the registry, never by its package", pkg, dep)
			}
		}
	}
	files, _ := filepath.Glob("*.go")
	fs := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), "\n"); n > 300 {
			t.Errorf("%s has %d lines: over 300, the command line is wiring", f, n)
		}
		file, err := parser.ParseFile(fs, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if n := fs.Position(fd.End()).Line - fs.Position(fd.Pos()).Line + 1; n > 80 {
					t.Errorf("%s: %s is %d lines: over 80", f, fd.Name.Name, n)
				}
			}
		}
	}
}

// TestSystemsImportNoOtherSystem: a system knows the engine and the
// question types, and no other system: YARN compares its ACLs with
// YuniKorn's reading through an audit.ACLReader the registry hands it,
// and the conversion from YARN to YuniKorn (internal/systems/convert) is
// neither's, offered by the registry beside them.
func TestSystemsImportNoOtherSystem(t *testing.T) {
	for _, sys := range []string{"mesos", "ytsaurus", "yarn", "yunikorn"} {
		pkg := "github.com/aclint/aclint/internal/systems/" + sys
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg+"/...").Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, "github.com/aclint/aclint/internal/systems/") && !strings.HasPrefix(dep, pkg) {
				t.Errorf("%s imports %s: a system imports no other system", pkg, dep)
			}
		}
	}
}
