package cli

import "github.com/spf13/cobra"

func newMesosCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "mesos",
		Short: "Apache Mesos ACLs (--acls): answer access questions as the local authorizer does",
		Long: `Commands for Apache Mesos' authorization ACLs, the JSON that the master's and
agent's --acls flag takes. Lint them with 'aclint lint' (Mesos ACL files are
recognised by their content, or forced with --system mesos).`,
	}
	c.AddCommand(newMesosCheckCmd(s))
	return group(c)
}
