package cli

// This file builds the commands every system shares (check, who-can,
// access, matrix, diff, lint) once: the systems' parts (clikit.Extender)
// add their flags and words, the shared flags are read by name, and the
// question goes to the system whose files it is about.

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
)

// parts are the systems' parts of one shared command.
type parts struct {
	by    map[string]*clikit.Extension // by system name
	order []string                     // the systems with a part, in registry order
	// fallback is the fallback system's part: its question is the
	// command's bare form; nil when it has none
	fallback *clikit.Extension
}

// extend asks every system for its part of the shared command c (named
// name), adds their flags, and takes the fallback's help words when it
// has them.
func (s *streams) extend(c *cobra.Command, name string) *parts {
	p := &parts{by: map[string]*clikit.Extension{}}
	for _, sys := range s.reg.Systems() {
		x, ok := sys.(clikit.Extender)
		if !ok {
			continue
		}
		e := x.Extend(name, env{s})
		if e == nil {
			continue
		}
		p.by[sys.Name()] = e
		p.order = append(p.order, sys.Name())
		if sys == s.reg.Fallback() {
			p.fallback = e
		}
		if e.Flags != nil {
			e.Flags(c)
		}
	}
	if fb := p.fallback; fb != nil {
		if fb.Use != "" {
			c.Use = fb.Use
		}
		if fb.Long != "" {
			c.Long = fb.Long
		}
		if fb.Example != "" {
			c.Example = fb.Example
		}
	}
	c.ValidArgsFunction = s.completeWords(c, p)
	return p
}

// words are the fallback's question words, for usage messages: "QUEUE
// USER".
func (p *parts) words() string {
	if p.fallback == nil {
		return ""
	}
	return p.fallback.Words
}

// args checks a command's words: the fallback's way when it has one.
func (p *parts) args(otherwise cobra.PositionalArgs) cobra.PositionalArgs {
	if p.fallback != nil && p.fallback.Args != nil {
		return p.fallback.Args
	}
	return otherwise
}

// foreign tells every part but that of the system answering that the
// question is another system's: each refuses its own flags.
func (p *parts) foreign(system string) error {
	// in registry order: the same flag refused the same way every run
	for _, name := range p.order {
		if e := p.by[name]; name != system && e.Foreign != nil {
			if err := e.Foreign(system); err != nil {
				return err
			}
		}
	}
	return nil
}

// take readies a question for its system: the other systems' parts
// refuse their own flags, the system's own flags' values go into what it
// loads with, and the system's part, when it binds its capabilities to
// its flags (clikit.Extension.Answers), is what is asked.
func (p *parts) take(q *asked) error {
	name := q.sys.Name()
	if err := p.foreign(name); err != nil {
		return err
	}
	e := p.by[name]
	if e != nil && e.Values != nil {
		for k, v := range e.Values() {
			q.opts = q.opts.WithValue(k, v)
		}
	}
	if e != nil && e.Answers != nil {
		q.caps = e.Answers
	}
	return nil
}

// answer hands a shared command's question to the system its files are
// about (the fallback's when they are no other system's, or none are
// named), asked through its capabilities.
func (p *parts) answer(s *streams, cmd *cobra.Command, ask func(q *asked) error) error {
	q, err := s.question(flagStrings(cmd, "file"))
	if err != nil {
		return err
	}
	if err := p.take(q); err != nil {
		return err
	}
	return ask(q)
}

// sharedFlag registers a flag every system's question reads by name,
// unless a system's part registered it with its own words.
func sharedFlag(f *pflag.FlagSet, name string, add func(f *pflag.FlagSet)) {
	if f.Lookup(name) == nil {
		add(f)
	}
}

// The shared flags, read by name (a system's part may have registered
// them).
func flagString(c *cobra.Command, name string) string {
	v, _ := c.Flags().GetString(name)
	return v
}

func flagStrings(c *cobra.Command, name string) []string {
	v, _ := c.Flags().GetStringArray(name)
	return v
}

func flagBool(c *cobra.Command, name string) bool {
	v, _ := c.Flags().GetBool(name)
	return v
}

func flagInt(c *cobra.Command, name string) int {
	v, _ := c.Flags().GetInt(name)
	return v
}

// fileFlag registers -f as every question reads it.
func fileFlag(f *pflag.FlagSet) {
	sharedFlag(f, "file", func(f *pflag.FlagSet) {
		f.StringArrayP("file", "f", nil, "input file, or - for standard input (repeatable)")
	})
}

// scopeFlags registers --partition, --under and --only-access, which
// narrow an audit, unless a system's part did; rows says what
// --only-access leaves out.
func scopeFlags(f *pflag.FlagSet, rows string) {
	sharedFlag(f, "partition", func(f *pflag.FlagSet) { f.String("partition", "", "only this partition (section)") })
	sharedFlag(f, "under", func(f *pflag.FlagSet) { f.String("under", "", "only this object and those below it") })
	sharedFlag(f, "only-access", func(f *pflag.FlagSet) { f.Bool("only-access", false, "leave out "+rows) })
}

// scopeOf is an audit's scope, as --partition and --under narrow it.
func scopeOf(cmd *cobra.Command) audit.Scope {
	return audit.Scope{Partition: flagString(cmd, "partition"), Under: flagString(cmd, "under")}
}
