package commands

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/clikit"
)

// The partition is --partition in every command (default: default, the
// partition the Kubernetes shim submits to), as access, matrix and why
// always took it. check, place, who-can and limits once took it as their
// first word (check default root.prod alice); that form still works, for
// the scripts that use it, and is no longer documented.

// partitionFlag registers --partition on a question that asks about one
// partition.
func partitionFlag(f *pflag.FlagSet) {
	f.String("partition", "default", "the partition asked about")
}

// arity is how many words a command takes after the partition: the least
// and the most, with and without --pod.
func arity(command string, pod bool) (least, most int) {
	switch {
	case command == "who-can":
		return 1, 1
	case command == "place" && pod:
		return 0, 0
	case command == "place":
		return 1, 1
	case pod: // check, limits: QUEUE, and USER may be left out
		return 1, 2
	}
	return 2, 2
}

// partitioned reads a question's words as PARTITION and the rest: the
// partition from --partition, or from the first word in the older form
// (one word more than the command takes, or with --pod a queue path
// second). It returns the words with the partition first, as every answer
// reads them, or says how the question is asked.
func partitioned(cmd *cobra.Command, command, usage string, args []string, pod bool) ([]string, error) {
	least, most := arity(command, pod)
	older := len(args) == most+1 ||
		len(args) == most && least < most && looksLikeQueue(args[1]) && !looksLikeQueue(args[0])
	fl := cmd.Flags().Lookup("partition")
	switch {
	case older && fl != nil && fl.Changed:
		return nil, clikit.Usage("%s: the partition is given twice, as --partition %s and as the first word %s: give it with --partition only\nrun 'aclint %s --help' for usage", command, fl.Value, args[0], command)
	case (older || len(args) == most+2) && command == "check" && !cmd.Flags().Changed("file") && looksLikeFile(args[0]):
		// aclint check queues.yaml root.a alice: the file is -f's
		return nil, clikit.Usage("check needs %s; if %s is the config, name it with -f: aclint check -f %s %s\nrun 'aclint check --help' for usage", usage, args[0], args[0], strings.Join(args[1:], " "))
	case older:
		return args, nil
	case !pod && len(args) == 2 && looksLikeQueue(args[1]) && !looksLikeQueue(args[0]):
		// check default root.a: the older form, without its user
		return nil, clikit.Usage("%s needs %s: %s reads as a partition and %s as a queue, and the user is missing\nrun 'aclint %s --help' for usage", command, usage, args[0], args[1], command)
	case len(args) < least || len(args) > most:
		return nil, clikit.Usage("%s needs %s, got %d argument(s)\nrun 'aclint %s --help' for usage", command, usage, len(args), command)
	}
	if command == "place" && pod && (fl == nil || !fl.Changed) {
		return args, nil // the pod's own partition
	}
	part := "default"
	if fl != nil {
		part = fl.Value.String()
	}
	return append([]string{part}, args...), nil
}

// looksLikeQueue: a YuniKorn queue path, which starts at root.
func looksLikeQueue(w string) bool {
	return strings.EqualFold(w, "root") || len(w) > 5 && strings.EqualFold(w[:5], "root.")
}

// looksLikeFile: a word that names a config file rather than a partition.
func looksLikeFile(w string) bool {
	for _, ext := range []string{".yaml", ".yml", ".json"} {
		if strings.HasSuffix(strings.ToLower(w), ext) {
			return true
		}
	}
	return false
}
