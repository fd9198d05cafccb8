package commands

import (
	"testing"

	"github.com/aclint/aclint/internal/audit"
)

// TestCapabilitiesOfEveryQuestion: YuniKorn answers each shared question
// through the capability every system implements for it, bound to the
// command's flags (clikit.Extension.Answers), so that the command line
// asks and renders it as it does every system's.
func TestCapabilitiesOfEveryQuestion(t *testing.T) {
	env := quiet{fakeEnv{}}
	for command, ok := range map[string]func(any) bool{
		"check":   func(a any) bool { _, ok := a.(audit.Checker); return ok },
		"who-can": func(a any) bool { _, ok := a.(audit.WhoCanner); return ok },
		"access":  func(a any) bool { _, ok := a.(audit.Accesser); return ok },
		"matrix":  func(a any) bool { _, ok := a.(audit.Matrixer); return ok },
		"diff":    func(a any) bool { _, ok := a.(audit.Differ); return ok },
		"place":   func(a any) bool { _, ok := a.(audit.Placer); return ok },
	} {
		e := Sys{}.Extend(command, env)
		if e == nil || e.Answers == nil || !ok(e.Answers) {
			t.Errorf("%s: YuniKorn's part answers through no %s capability", command, command)
		}
	}
}
