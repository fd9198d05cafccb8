package clikit

import (
	"io"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"

	"github.com/spf13/cobra"
)

// Commander is a System with commands of its own, for the questions only
// it has (aclint mesos check with its nested-container flags, aclint yt
// effective-acl): the command line adds them to its tree through the
// registry, and lends them an Env.
type Commander interface {
	Commands(env Env) []*cobra.Command
}

// Env is what the command line lends a system's commands: its streams,
// the run's input bound, and the one way each kind of ending is written
// (exit codes are the command line's interface, the same for every
// command).
type Env interface {
	In() io.Reader
	Out() io.Writer
	Err() io.Writer
	MaxInput() int64
	// Seen is the run's files read: every file a system's command reads
	// is remembered there (input.ReadFile's seen), and no output of the
	// run replaces one (safewrite).
	Seen() *engine.ReadSet
	// Version is aclint's version, as aclint version says it.
	Version() string
	// WrapWidth is the width to wrap text to on standard output: the
	// terminal's, or 0 when it is not a terminal (no wrapping).
	WrapWidth() int
	// Registry is the run's systems and rules.
	Registry() *engine.Registry
	// Warn says on standard error that a file of a directory search is not
	// read, and why.
	Warn(path, reason string)
	// Usage is an error that exits 2 with its message.
	Usage(format string, args ...any) error
	// Refused exits 2 with the errors of inputs the system refuses.
	Refused(r *audit.Refused) error
	// Check writes a check's verdict as -o (text or json) and -q ask: the
	// one rendering of every system's check, exit 0 allowed, 1 denied, 2
	// not known.
	Check(v *audit.Verdict, output string, quiet bool) error
	// PlaceJSON is place's JSON answer, for a command that embeds one
	// (aclint test's place cases).
	PlaceJSON(p *audit.Placement) any
	// Diff writes a diff's answer as diff writes it, text or markdown, for
	// a command that embeds one (drift): old and new are its sides, d the
	// system's diff of them (nil when a side is refused); DiffJSON is its
	// JSON, without the pairs.
	Diff(w io.Writer, format string, old, new audit.DiffSide, d *audit.Diff, commentSize int) error
	DiffJSON(old, new audit.DiffSide, d *audit.Diff) any
	// Gated writes the answer of a question whose request never reaches
	// the system's decision (audit.Gated), as -o asks: key is the answer's
	// field in the command's JSON ("submitAllowed"); exit 1 when the
	// request is refused, 2 when what becomes of it is not known.
	Gated(g *audit.Gated, key, output string) error
	// VerdictFlags registers -o and -q as every check command takes them.
	VerdictFlags(c *cobra.Command, output *string, quiet *bool, jsonIs string)
	// Load reads files, finds their system and loads them into its model
	// (a refusal is exit 2 with its errors); system is "" and m nil when
	// the files are no capability system's.
	Load(files []string) (system string, m audit.Model, err error)
	// Group makes c a command that only groups others: an unknown word is
	// exit 2.
	Group(c *cobra.Command) *cobra.Command
}

// Extender is a system with a part in the shared commands (check, who-can,
// access, matrix, diff, place, lint): flags only its question has
// (YuniKorn's --pod, --tag and group resolvers, its ConfigMap key, a
// running scheduler), handed to its capabilities as option values
// (Extension.Values) or bound to them (Extension.Answers). The command
// line builds each shared command once, asks every Extender for its part,
// and asks the capabilities of the system whose files the question is
// about; every answer is rendered by the command line.
type Extender interface {
	// Extend is the system's part of the named command; nil when it has
	// none.
	Extend(command string, env Env) *Extension
}

// Extension is one system's part of a shared command.
type Extension struct {
	// Use, Long and Example are the command's help when the system is the
	// fallback, whose question is the command's bare form ("check
	// QUEUE USER"); the command line adds the other systems'
	// question words.
	Use, Long, Example string
	// Words are the fallback's question words, for usage messages:
	// "QUEUE USER".
	Words string
	// Flags adds the system's flags to the command. It may register a
	// shared flag (-f, -o, -q, --action, --groups) with its own words and
	// default; the command line registers those it did not, and reads them
	// all by name.
	Flags func(c *cobra.Command)
	// Args checks the words, when the system's question reads them
	// differently (USER may be left out with --pod).
	Args cobra.PositionalArgs
	// Complete completes the command's words.
	Complete cobra.CompletionFunc
	// Foreign is told when the question's files are another system's: it
	// refuses the system's own flags, which that question cannot take.
	Foreign func(system string) error
	// Values are the system's flags as its Load reads them
	// (engine.Options.Value).
	Values func() map[string]string
	// Answers are the system's capabilities (audit.Loader and the
	// questions it answers) bound to this command's flags and streams,
	// asked in place of the registry's entry when the question's files are
	// the system's (or none are named and the system is the fallback): a
	// question whose flags are more than strings (YuniKorn's pod, group
	// resolvers and running scheduler) reads them there. nil: the
	// registry's entry is asked, with Values.
	Answers audit.Loader
	// Lint is the system's part of lint, which every input passes.
	Lint *LintPart
}

// LintPart is a system's part of a lint run: values its Lint reads from
// the run's options, inputs beside the files linted (a settings
// directory), and a last look at what was linted (a running scheduler's
// own verdict).
type LintPart struct {
	// Alone says how the part's flags name an input of their own, when
	// lint may run with no file ("--ldap-config DIR"); Named says whether
	// they did.
	Alone string
	Named func() bool
	// Values are put in every input's engine.Options (the ConfigMap key).
	Values func() map[string]string
	// Before lints what the flags name besides the files (a settings
	// directory): its findings, and the path whose settings apply to them.
	Before func() (findings []engine.Finding, path string, err error)
	// Linted sees every input the system linted, and its report.
	Linted func(j engine.Job, r *engine.Report)
	// After runs once every input is linted: an error ends the run.
	After func() error
}
