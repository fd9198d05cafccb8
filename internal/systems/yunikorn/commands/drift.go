package commands

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/running"
)

// driftResult is what drift found: the two checksums and, when they
// differ, what applying the file would change.
type driftResult struct {
	file, running *side
	fileSum       string
	runSum        string
	source        string      // where the running config came from
	diff          *audit.Diff // nil: not compared (the file is rejected)
	// contents are where the file and the scheduler's config differ
	// field by field (at most maxContents of them); empty when they
	// configure the same
	contents []string
	// settings are the differences in the settings the shim passes
	// (extra): only for ConfigMaps, which carry them
	settings []settingDiff
}

// settingDiff is one setting the scheduler runs with and the file sets
// otherwise.
type settingDiff struct {
	Key     string `json:"key"`
	File    string `json:"file,omitempty"`
	Running string `json:"running,omitempty"`
	// InFile and InRunning say whether each side sets it at all
	InFile    bool `json:"inFile"`
	InRunning bool `json:"inRunning"`
	// Identity: an admission controller setting, which decides who a
	// pod's user is (docs/admission.md)
	Identity bool   `json:"identity"`
	Pos      string `json:"position,omitempty"`
}

// maxContents bounds the field differences drift lists.
const maxContents = 20

// same reports whether the scheduler runs this file: its checksum, its
// config as the scheduler reports it, and its settings.
func (d *driftResult) same() bool { return d.sumSame() && len(d.contents) == 0 && len(d.settings) == 0 }

func (d *driftResult) sumSame() bool { return d.fileSum == d.runSum }

// forged: the scheduler reports this file's checksum beside another
// config, an answer aclint cannot stand behind.
func (d *driftResult) forged() bool { return d.sumSame() && len(d.contents) > 0 }

func newDriftCmd(s *streams) *cobra.Command {
	var (
		key, server, dump string
		outputs           []string
		commentSize       int
	)
	c := &cobra.Command{
		Use:   "drift -f FILE... (--server URL | --running DUMP)",
		Short: "Say whether a running YuniKorn scheduler runs exactly this config, and what applying it would change",
		Long: `Compare the config in FILE (a queues.yaml, or the ConfigMaps the shim reads: yunikorn-configs
over yunikorn-defaults) with the one a scheduler runs: fetched from --server (GET /ws/v1/config)
or read from --running, a saved dump. YuniKorn's checksum of a config is SHA-256 of the text it
was given, without its checksum line (yunikorn-core configs.SetChecksum); for ConfigMaps, of the
queues.yaml value the shim registers. The same checksum: the scheduler runs this file. Another:
it runs something else, and the output says what applying FILE would grant and take away, grouped
by the ACL entry that causes each change (the formats of aclint diff). A FILE YuniKorn rejects
would be refused on reload, and the scheduler goes on with the config it runs: drift says so.

Exit codes: 0 the scheduler runs FILE; 1 it runs another config; 2 the running config could not
be read (a scheduler that cannot be reached, or answers something that is not its config) or
FILE cannot be read.`,
		Example: `  aclint drift -f queues.yaml --server http://localhost:9080
  kubectl port-forward -n yunikorn svc/yunikorn-service 9080 & aclint drift -f deploy/yunikorn-configs.yaml --server http://localhost:9080
  curl -s http://yunikorn:9080/ws/v1/config > running.yaml; aclint drift -f queues.yaml --running running.yaml -o markdown`,
		Args: clikit.MinArgs(1, "drift needs the config FILE to compare with what runs"),
		RunE: func(cmd *cobra.Command, args []string) error {
			targets, err := clikit.ParseDiffOutputs(outputs)
			if err != nil {
				return err
			}
			runPath := dump
			switch {
			case (server == "") == (dump == ""):
				return clikit.Usage("drift compares FILE with a running config: give --server URL or --running DUMP (one of them)")
			case server != "":
				runPath = serverMark + server
			}
			d, err := s.drift(args, runPath, key)
			if err != nil {
				return err
			}
			write := func(w io.Writer, format string) error { return writeDrift(s, w, format, d, commentSize) }
			if err := clikit.WriteDiffTargets(s.env.Out(), s.env.Seen(), targets, write); err != nil {
				return err
			}
			switch {
			case d.forged():
				return &clikit.ExitError{Code: clikit.ExitUsage}
			case !d.same():
				return &clikit.ExitError{Code: clikit.ExitFail}
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
	f.StringVar(&server, "server", "", "the running scheduler's REST address, as in http://yunikorn-service.yunikorn:9080")
	s.serverOptionFlags(f)
	f.StringVar(&dump, "running", "", "a saved running config (curl http://yunikorn:9080/ws/v1/config > running.yaml), YAML or JSON")
	f.StringArrayVarP(&outputs, "output", "o", []string{"text"}, "output format text, json or markdown, optionally FORMAT=PATH; repeatable")
	f.IntVar(&commentSize, "comment-size", clikit.DefaultCommentSize, "markdown: the most characters the comment may have")
	clikit.FilesFlag(c, "a config or ConfigMap file to compare with what runs (repeatable; the same as naming it as an argument)")
	return c
}

// drift reads both configs and compares them.
func (s *streams) drift(files []string, runPath, key string) (*driftResult, error) {
	runDocs, err := loadInputs(s, []string{runPath}, key, false)
	if err != nil {
		return nil, err
	}
	if len(runDocs) != 1 || runDocs[0].Running == nil {
		name := runPath
		if u, ok := strings.CutPrefix(runPath, serverMark); ok {
			name = running.Label(u)
		}
		if len(runDocs) > 0 {
			name = runDocs[0].File
		}
		return nil, clikit.Usage("%s is not a running scheduler's config (GET /ws/v1/config, YAML or JSON): compare two configs with aclint diff", name)
	}
	run := runDocs[0]
	fileDocs, err := loadInputs(s, files, key, false)
	if err != nil {
		return nil, err
	}
	merged, _ := config.Merge(fileDocs)
	d := &driftResult{fileSum: merged.RegisteredChecksum(), runSum: run.Running.Checksum, source: run.File}
	d.contents = config.RunningDiffers(merged, run, maxContents)
	if merged.Settings != nil {
		d.settings = settingDiffs(merged.Settings, run.Running.Extra)
	}
	if d.sumSame() {
		return d, nil
	}
	toSide := func(docs []*config.Document) *side {
		l := yunikorn.Accept(docs, nil)
		return &side{name: l.Config.Doc.Describe(), l: l, accepted: len(l.Errors) == 0, errors: l.Errors}
	}
	d.running, d.file = toSide(runDocs), toSide(fileDocs)
	if !d.running.accepted {
		return nil, clikit.Usage("%s: aclint reads the running config as one YuniKorn would refuse, though the scheduler runs it; this is aclint's error, please report it (aclint lint -f %s)", run.File, run.File)
	}
	if d.file.accepted {
		d.diff = diffOf(d.running.l, d.file.l)
	}
	return d, nil
}

// side is one config drift compares: the running one, or the file's.
type side struct {
	name     string
	l        *yunikorn.Loaded
	accepted bool
	errors   []engine.Finding
}

// diffSide is the side as a diff's answer has it.
func (sd *side) diffSide(label string) audit.DiffSide {
	out := audit.DiffSide{Label: label, Name: sd.name}
	if !sd.accepted {
		doc := sd.l.Config.Doc
		out.Refused = &audit.Refused{File: sd.name, Why: "YuniKorn rejects this config", Findings: sd.errors,
			Sources: map[string][]string{doc.File: doc.Lines()}, By: "YuniKorn", OnReload: "YuniKorn keeps running the old config"}
	}
	return out
}

// settingDiffs compares the settings a ConfigMap carries (the shim passes
// every key that does not end in .yaml: utils.GetExtraConfigFromConfigMap)
// with the ones the scheduler reports, in key order.
func settingDiffs(file, run map[string]config.Setting) []settingDiff {
	keys := map[string]bool{}
	for k := range file {
		if !strings.HasSuffix(k, ".yaml") {
			keys[k] = true
		}
	}
	for k := range run {
		keys[k] = true
	}
	var out []settingDiff
	for _, k := range sortedKeys(keys) {
		f, inF := file[k]
		r, inR := run[k]
		if inF && inR && f.Value == r.Value {
			continue
		}
		sd := settingDiff{Key: k, File: f.Value, Running: r.Value, InFile: inF, InRunning: inR,
			Identity: strings.HasPrefix(k, "admissionController.accessControl.")}
		if inF {
			sd.Pos = f.Pos.String()
		}
		out = append(out, sd)
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// verdict is drift's answer in one sentence.
func (d *driftResult) verdict() string {
	switch {
	case d.forged():
		return fmt.Sprintf("not known: the scheduler (%s) reports this file's checksum %s, but the config it reports is not this file's; aclint cannot tell which of the two it runs (ask again, or read its GET /ws/v1/config)", d.source, d.runSum)
	case d.sumSame() && len(d.settings) > 0:
		return fmt.Sprintf("drift: the scheduler (%s) runs this queue config (checksum %s), with other settings", d.source, d.runSum)
	case d.sumSame():
		return fmt.Sprintf("running: the scheduler (%s) runs this config: checksum %s", d.source, d.runSum)
	}
	v := fmt.Sprintf("drift: the scheduler (%s) runs another config: its checksum is %s, this file's %s", d.source, d.runSum, d.fileSum)
	switch {
	case !d.file.accepted:
		v += fmt.Sprintf("; YuniKorn rejects %s (%d %s, aclint lint says which), so a reload with it is refused and the scheduler goes on with the config it runs", d.file.name, len(d.file.errors), clikit.Plural(len(d.file.errors), "error", "errors"))
	case len(d.contents) == 0:
		v += "; the two configure the same queues (the texts differ in comments, order or layout): applying this file changes the checksum only"
	}
	return v
}

// settingLine says one setting's difference.
func (sd settingDiff) line() string {
	var s string
	switch {
	case !sd.InFile:
		s = fmt.Sprintf("%s: the scheduler runs with %q, the files given do not set it (a ConfigMap not given here?)", sd.Key, sd.Running)
	case !sd.InRunning:
		s = fmt.Sprintf("%s: %s sets %q, the scheduler runs without it", sd.Key, sd.Pos, sd.File)
	default:
		s = fmt.Sprintf("%s: %s sets %q, the scheduler runs with %q", sd.Key, sd.Pos, sd.File, sd.Running)
	}
	if sd.Identity {
		s += " (the admission controller: it decides who a pod's user is)"
	}
	return s
}

func writeDrift(s *streams, w io.Writer, format string, d *driftResult, commentSize int) error {
	verdict := d.verdict()
	answer := "running"
	switch {
	case d.forged():
		answer = "unknown"
	case !d.same():
		answer = "drift"
	}
	switch format {
	case "json":
		v := map[string]any{"answer": answer, "running": d.same(), "source": d.source, "runningChecksum": d.runSum, "fileChecksum": d.fileSum,
			"configDiffers": nonNil(d.contents), "settings": nonNilSettings(d.settings)}
		if !d.sumSame() {
			v["fileAccepted"] = d.file.accepted
			v["diff"] = s.env.DiffJSON(d.running.diffSide("OLD"), d.file.diffSide("NEW"), d.diff)
		}
		return clikit.WriteJSON(w, v)
	case "markdown":
		head := d.markdownHead(verdict, commentSize)
		if _, err := io.WriteString(w, head); err != nil || d.sumSame() {
			return err
		}
		return s.env.Diff(w, "markdown", d.running.diffSide("OLD"), d.file.diffSide("NEW"), d.diff, max(commentSize-len(head), commentSize/2))
	}
	bw := bufio.NewWriter(w)
	engine.Fprintf(bw, "%s\n", verdict)
	for _, l := range d.detailLines() {
		engine.Fprintf(bw, "  %s\n", l)
	}
	if !d.sumSame() {
		if d.file.accepted {
			fmt.Fprintln(bw, "applying this file would change, from what runs:")
		}
		bw.Flush()
		if err := s.env.Diff(w, "text", d.running.diffSide("OLD"), d.file.diffSide("NEW"), d.diff, 0); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// markdownHead is the verdict and the detail lines as Markdown, within
// the comment's size: where a diff follows, the lines take at most half of
// it, and the lines past that are counted, not shown.
func (d *driftResult) markdownHead(verdict string, commentSize int) string {
	var b strings.Builder
	engine.Fprintf(&b, "**%s**\n\n", clikit.MDText(verdict))
	budget := commentSize
	if !d.sumSame() {
		budget = commentSize / 2
	}
	lines := d.detailLines()
	for i, l := range lines {
		line := "- " + clikit.MDText(engine.Printable(l)) + "\n"
		if commentSize > 0 && b.Len()+len(line) > budget-100 {
			fmt.Fprintf(&b, "- and %d more (the comment's size, --comment-size %d, is reached: aclint drift -o text lists every one)\n", len(lines)-i, commentSize)
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// detailLines are the field differences a forged answer shows, and the
// settings that differ.
func (d *driftResult) detailLines() []string {
	var out []string
	if d.forged() {
		out = append(out, d.contents...)
	}
	for _, sd := range d.settings {
		out = append(out, "setting "+sd.line())
	}
	return out
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

func nonNilSettings(l []settingDiff) []settingDiff {
	if l == nil {
		return []settingDiff{}
	}
	return l
}
