package cli

// This file writes the verdict of every check command (check, mesos check,
// yt check, place): -o json or text, -q and the exit code. What each
// command's verdict says, in text and JSON from one model, is beside the
// command: check_output.go, place_output.go, mesos_output.go,
// yt_output.go.

import (
	"github.com/aclint/aclint/internal/audit"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/engine"
)

// verdict is one answer of a check command.
type verdict struct {
	ok   bool
	code int // the exit code when not ok; ExitFail (1) when 0
	// text writes the text output; json is the JSON document
	text func(io.Writer) error
	json func() any
}

// writeVerdict prints a verdict as -o and -q ask, and gives its exit code:
// 0 when ok.
func writeVerdict(s *streams, v verdict, output string, quiet bool) error {
	if !quiet {
		var err error
		if output == "json" {
			err = writeJSON(s.out, v.json())
		} else {
			err = v.text(s.out)
		}
		if err != nil {
			return usageErr("writing output: %w", err)
		}
	}
	if v.ok {
		return nil
	}
	if v.code == 0 {
		return &exitError{code: ExitFail}
	}
	return &exitError{code: v.code}
}

// writeNotes ends a text verdict with its notes, as every command's.
func writeNotes(b *strings.Builder, notes []string) { audit.WriteNotes(b, notes) }

func strconvQuote(s string) string { return engine.Quote(s) }

// verdictFlags registers -o and -q, which every check command takes, the
// same way: what json writes is said in jsonIs.
func verdictFlags(f *pflag.FlagSet, output *string, quiet *bool, jsonIs string) {
	f.StringVarP(output, "output", "o", "text", "output format: text, or json ("+jsonIs+")")
	f.BoolVarP(quiet, "quiet", "q", false, "print nothing; answer with the exit code only")
}
