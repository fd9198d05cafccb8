package commands

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/output"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// maxRefusalErrors is how many errors a refused config shows.
const maxRefusalErrors = 10

// readOptions are the input options of the YuniKorn commands; verbose
// names the files a directory search skips.
func (s *streams) readOptions(key string, verbose bool) yunikorn.ReadOptions {
	opts := yunikorn.ReadOptions{Key: key, Stdin: s.env.In(), Warn: s.env.Warn, Elsewhere: s.env.Registry().Elsewhere, MaxSize: s.env.MaxInput(), Seen: s.env.Seen()}
	if verbose {
		opts.Skip = func(p, reason string) { fmt.Fprintf(s.env.Err(), "aclint: skipping %s: %s\n", p, reason) }
	}
	return opts
}

// load reads the config a question is asked against (yunikorn.Load), says
// its warnings on standard error, and turns a config YuniKorn rejects into
// exit 2 with its first errors (aclint lint lists every one). Errors for
// which tolerate is true do not refuse it.
func load(s *streams, files []string, key string, tolerate func(engine.Finding) bool) (*yunikorn.Loaded, error) {
	return loadAs(s, files, nil, key, tolerate, false)
}

// loadOne is load for a question that reads the ACLs on the paths it asks
// about, not every queue's (yunikorn.ReadOptions.OnePath).
func loadOne(s *streams, files []string, key string, tolerate func(engine.Finding) bool) (*yunikorn.Loaded, error) {
	return loadAs(s, files, nil, key, tolerate, true)
}

// loadAs is load, with pre the files already read (by name) that are taken
// as they are, never read again.
func loadAs(s *streams, files []string, pre map[string][]byte, key string, tolerate func(engine.Finding) bool, onePath bool) (*yunikorn.Loaded, error) {
	files, fetched, err := s.fetchServers(files)
	if err != nil {
		return nil, err
	}
	for k, v := range pre {
		if fetched == nil {
			fetched = map[string][]byte{}
		}
		fetched[k] = v
	}
	opts := s.readOptions(key, false)
	opts.Preloaded = fetched
	opts.OnePath = onePath
	l, err := yunikorn.Load(files, opts, tolerate)
	if l != nil {
		for _, w := range l.Warnings {
			fmt.Fprintln(s.env.Err(), "aclint: "+engine.Printable(w))
		}
	}
	var rej *yunikorn.RejectedError
	if errors.As(err, &rej) {
		return nil, refusal(rej)
	}
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	return l, nil
}

// refusal is exit 2 for a config YuniKorn rejects, with its first errors:
// a config of 5,000 errors must not print them all here.
func refusal(rej *yunikorn.RejectedError) error {
	doc := rej.Doc
	var b strings.Builder
	shown := rej.Errors
	if len(shown) > maxRefusalErrors {
		shown = shown[:maxRefusalErrors]
	}
	_ = output.Text(&b, shown, output.Sources{doc.File: doc.Lines()}, false)
	if more := len(rej.Errors) - len(shown); more > 0 {
		fmt.Fprintf(&b, "... and %d more %s\n", more, clikit.Plural(more, "error", "errors"))
	}
	return &clikit.ExitError{Code: clikit.ExitUsage, Err: &clikit.Explained{
		Msg: fmt.Sprintf("%s: YuniKorn rejects this config, so it answers no access question; run 'aclint lint' for details:\n%s", doc.Describe(), strings.TrimRight(b.String(), "\n")),
		Err: rej}}
}

// loadInputs reads the YuniKorn configs named by paths (yunikorn.Read) and
// says on standard error what the ConfigMap merge did.
func loadInputs(s *streams, paths []string, key string, verbose bool) ([]*config.Document, error) {
	paths, fetched, err := s.fetchServers(paths)
	if err != nil {
		return nil, err
	}
	opts := s.readOptions(key, verbose)
	opts.Preloaded = fetched
	docs, notes, err := yunikorn.Read(paths, opts)
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	for _, n := range notes {
		fmt.Fprintln(s.env.Err(), "aclint: "+engine.Printable(n))
	}
	return docs, nil
}
