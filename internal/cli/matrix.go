package cli

import (
	"github.com/aclint/aclint/internal/clikit"

	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/audit"
)

func newMatrixCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "matrix",
		Short: "Show objects against users and groups, with each one's access",
		Args:  clikit.ExactArgs(0, "matrix takes no arguments"),
	}
	p := s.extend(c, "matrix")
	f := c.Flags()
	fileFlag(f)
	f.String("subjects", "", "more columns: comma-separated user:NAME or group:NAME (a bare NAME is a user)")
	f.String("action", "", "the one action the cells answer, for a system with many (a permission); where a cell names the strongest access (admin, submit) it is not taken")
	f.Int("width", 0, "text table width (default: $COLUMNS, or 120)")
	scopeFlags(f, "objects where no subject has access")
	sharedFlag(f, "output", func(f *pflag.FlagSet) { f.StringP("output", "o", "text", "output format: text, csv or json") })
	f.String("layout", "auto", "text only: grid (a column per subject), list (per queue, who gains access there), or auto (grid while it fits in "+strconv.Itoa(clikit.MaxGridBlocks)+" blocks of --width)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		output, layout := flagString(cmd, "output"), flagString(cmd, "layout")
		if err := clikit.CheckOutput(output, "text", "json", "csv"); err != nil {
			return err
		}
		if err := checkLayout(layout); err != nil {
			return err
		}
		return p.answer(s, cmd, func(q *asked) error {
			return askMatrix(s, q, matrixAsk{q: audit.MatrixQuestion{Subjects: subjectList(flagString(cmd, "subjects")), Scope: scopeOf(cmd), Action: flagString(cmd, "action")},
				only: flagBool(cmd, "only-access"), output: output, layout: layout, width: flagInt(cmd, "width")})
		})
	}
	return c
}

// subjectList reads --subjects for any system: KIND:NAME, or a bare NAME
// whose kind the system chooses (a user, a principal).
func subjectList(list string) []audit.Subject {
	var out []audit.Subject
	for _, v := range clikit.ParseList(list) {
		kind, name, ok := strings.Cut(v, ":")
		if !ok {
			kind, name = "", v
		}
		out = append(out, audit.Subject{Kind: kind, Name: name})
	}
	return out
}

func checkLayout(layout string) error {
	if layout != "auto" && layout != "grid" && layout != "list" {
		return clikit.Usage("invalid --layout %q: use auto, grid or list", layout)
	}
	return nil
}
