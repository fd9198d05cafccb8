package yarn

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// System is the name YARN's rules carry.
const System = "yarn"

// Sys is YARN as a engine.System.
type Sys struct {
	// YuniKorn reads an ACL as YuniKorn does, for the rule
	// yarn-acl-yunikorn-differs; the registry sets it (internal/systems),
	// so that YARN imports no other system. Without it the rule is silent.
	YuniKorn audit.ACLReader
}

// Name is the system's name.
func (Sys) Name() string { return System }

// Detect takes Hadoop configuration files that hold YARN's queue or ACL
// settings: an XML document whose first element is <configuration> and
// that names a yarn.scheduler.capacity. key or yarn.acl.enable or
// yarn.admin.acl (or a Hadoop 1 scheduler key, mapred.capacity-scheduler.
// or mapred.queue.), or that has the name of one of YARN's files
// (yarn-site.xml without those keys still says that yarn.acl.enable is
// off). A file with syntax errors is still recognised, so that they are
// reported.
func (Sys) Detect(in *engine.Input) bool {
	if hadoopName(in.Path) {
		return true // a file named for Hadoop is Hadoop's, empty or broken as it may be
	}
	root := firstElement(in.Data)
	if root == "allocations" {
		return true // a Fair Scheduler allocation file
	}
	if root != "configuration" {
		// an XML file named on the command line: no other system reads
		// XML, so it is said not to be Hadoop's rather than read as YAML
		return in.Explicit && strings.EqualFold(filepath.Ext(in.Path), ".xml")
	}
	// a Hadoop 1 scheduler file is recognised too, so that it is named
	// as one (yarn-no-queues) instead of being read as something else
	return bytes.Contains(in.Data, []byte(CSPrefix)) || bytes.Contains(in.Data, []byte(ACLEnableKey)) || bytes.Contains(in.Data, []byte(AdminACLKey)) ||
		bytes.Contains(in.Data, []byte("mapred.capacity-scheduler.")) || bytes.Contains(in.Data, []byte("mapred.queue."))
}

// IsAllocationFile reports whether data is a Fair Scheduler allocation
// file: its first element is <allocations>.
func IsAllocationFile(data []byte) bool { return firstElement(data) == "allocations" }

// firstElement is the name of a document's first element, skipping a byte
// order mark, the XML declaration, comments, processing instructions and a
// DOCTYPE; "" when the text does not start like XML.
func firstElement(data []byte) string {
	s := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for guard := 0; guard < 1000; guard++ {
		s = bytes.TrimLeft(s, " \t\r\n")
		switch {
		case bytes.HasPrefix(s, []byte("<?")):
			i := bytes.Index(s, []byte("?>"))
			if i < 0 {
				return ""
			}
			s = s[i+2:]
		case bytes.HasPrefix(s, []byte("<!--")):
			i := bytes.Index(s, []byte("-->"))
			if i < 0 {
				return ""
			}
			s = s[i+3:]
		case bytes.HasPrefix(s, []byte("<!")):
			i := bytes.IndexByte(s, '>')
			if i < 0 {
				return ""
			}
			if j := bytes.IndexByte(s[:i], '['); j >= 0 { // an internal subset
				k := bytes.Index(s, []byte("]>"))
				if k < 0 {
					return ""
				}
				i = k + 1
			}
			s = s[i+1:]
		case bytes.HasPrefix(s, []byte("<")):
			end := bytes.IndexAny(s[1:], " \t\r\n/>")
			if end < 0 {
				return ""
			}
			name := string(s[1 : 1+end])
			if i := strings.IndexByte(name, ':'); i >= 0 {
				name = name[i+1:]
			}
			return name
		default:
			return ""
		}
	}
	return ""
}

// hadoopName reports a file named as the ResourceManager's own files are.
func hadoopName(path string) bool {
	switch filepath.Base(path) {
	case siteName, csName, coreName, fsName:
		return true
	}
	return false
}

// Lint reads one file and runs YARN's rules over it.
func (sys Sys) Lint(in *engine.Input, opts engine.Options) (*engine.Report, error) {
	// the lines are for the findings' snippets: only a file with findings
	// needs them split
	rep := &engine.Report{Sources: map[string][]string{}, Configs: 1}
	defer func() {
		if len(rep.Findings) > 0 {
			rep.Sources[in.Path] = lines(in.Data)
		}
	}()
	switch root := firstElement(in.Data); {
	case root == "allocations":
		return lintFS(in, rep, opts, sys.YuniKorn)
	case root != "configuration" && root != "" && !hadoopName(in.Path):
		return nil, fmt.Errorf("%s: its top element is <%s>, not <configuration> (a Hadoop configuration file) or <allocations> (a Fair Scheduler allocation file): aclint reads it as neither; name it capacity-scheduler.xml, yarn-site.xml or fair-scheduler.xml if it is one", in.Path, root)
	}
	c, err := ReadConf(in.Path, in.Data)
	var fe *FileError
	if errors.As(err, &fe) && fe.Refused {
		rep.Findings = []engine.Finding{{Rule: ruleXML, Severity: engine.Error, Pos: engine.Position{File: in.Path, Line: fe.Pos.Line, Col: fe.Pos.Col},
			Message: fmt.Sprintf("not well-formed XML: %v; Hadoop refuses the file (Configuration throws while loading it)", fe.Err),
			Hint:    xmlHint(fe)}}
		return rep, nil
	}
	if err != nil {
		return nil, err
	}
	site := aclEnableFor(c, in.Path, in.Related, opts)
	site.dir = rmDir(c, in.Path, in.Related, opts)
	var partner *Conf
	if SiteFile(c) {
		partner = csPartner(in.Path, in.Related, opts)
	}
	cs := ReadCS(c)
	if cs.Truncated {
		// no limit may hide a refusal: a tree aclint stopped reading is
		// linted when what it read is already refused, and otherwise said
		// to be unread, never linted clean
		if r := (&Setup{Conf: c, CS: cs}).CapacityRefused(); r == nil || r.Unknown != "" {
			return nil, fmt.Errorf("%s: the queue tree is deeper than %d levels or has more than %d queues, past what aclint reads: whether the Capacity Scheduler starts with it is not known, and aclint does not lint it", in.Path, maxDepth, maxQueues)
		}
	}
	rep.Findings = lintTree(c, cs, site, partner, sys.YuniKorn)
	rep.Parsed = &parsed{conf: c, cs: cs}
	return rep, nil
}

// lintFS lints a Fair Scheduler allocation file.
func lintFS(in *engine.Input, rep *engine.Report, opts engine.Options, reader audit.ACLReader) (*engine.Report, error) {
	tree, err := ReadFS(in.Path, in.Data)
	var fe *FileError
	var fse *FSError
	switch {
	case errors.As(err, &fe) && fe.Refused:
		rep.Findings = []engine.Finding{{Rule: ruleXML, Severity: engine.Error, Pos: engine.Position{File: in.Path, Line: fe.Pos.Line, Col: fe.Pos.Col},
			Message: fmt.Sprintf("not well-formed XML: %v; the Fair Scheduler refuses the file", fe.Err),
			Hint:    xmlHint(fe)}}
		return rep, nil
	case errors.As(err, &fse):
		rep.Findings = []engine.Finding{{Rule: ruleFSRefused, Severity: engine.Error, Pos: engine.Position{File: in.Path, Line: fse.Pos.Line, Col: fse.Pos.Col},
			Message: fse.Msg, Hint: "the ResourceManager does not start with this file (a reload keeps the old one): fix it"}}
		return rep, nil
	case err != nil:
		return nil, err
	}
	// the yarn-site.xml beside it says which scheduler runs; its
	// yarn.acl.enable does not matter to the Fair Scheduler's own check
	site := aclEnableFor(tree.Conf, in.Path, in.Related, opts)
	rep.Findings = lintTree(tree.Conf, tree, siteInfo{conf: site.conf}, nil, reader)
	rep.Parsed = &parsed{conf: tree.Conf, cs: tree}
	return rep, nil
}

func lines(data []byte) []string {
	// the lines alias the input's bytes, which are never modified once
	// read (as internal/systems/yunikorn/config's splits): one finding's snippet does not copy
	// a 16 MB file
	s := unsafe.String(unsafe.SliceData(data), len(data))
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Extensions: Hadoop configuration files are XML.
func (Sys) Extensions() []string { return []string{".xml"} }

// Inputs says what YARN files look like.
func (Sys) Inputs() string {
	return "Hadoop YARN configuration files (capacity-scheduler.xml, yarn-site.xml: <configuration> with yarn.scheduler.capacity. or yarn.acl keys; Fair Scheduler allocation files: <allocations>)"
}

// Refuses says what an error means for this system.
func (Sys) Refuses() string { return "configuration files Hadoop refuses to load" }

// Misdirected says which command takes an input given to a YuniKorn one.
func (Sys) Misdirected(path string) string {
	return fmt.Sprintf("%s holds Hadoop YARN settings, not a YuniKorn queue config: use `aclint lint -f %s`", path, path)
}

// NoneFound says what the system's inputs look like.
func (Sys) NoneFound(path string) string {
	return fmt.Sprintf("%s: no YARN configuration files found (<configuration> XML with yarn.scheduler.capacity. or yarn.acl keys; directories are searched for .xml files)", path)
}

// exampleName is the name a YARN example is linted and shown under: an
// allocation file is fair-scheduler.xml, the rest capacity-scheduler.xml.
func exampleName(text string) string {
	if firstElement([]byte(text)) == "allocations" {
		return "fair-scheduler.xml"
	}
	return "capacity-scheduler.xml"
}

// Example lints a rule's example as `aclint lint FILE`.
// A capacity-scheduler.xml example is linted with this yarn-site.xml,
// which turns queue ACLs on, so that only the rule's own findings show;
// yarn-acl-enable-unknown's is linted alone.
const exampleSite = `<configuration>
  <property><name>yarn.acl.enable</name><value>true</value></property>
</configuration>
`

// exampleSiteFair is the yarn-site.xml of yarn-scheduler-not-run's
// examples: it runs the Fair Scheduler.
const exampleSiteFair = `<configuration>
  <property><name>yarn.acl.enable</name><value>true</value></property>
  <property><name>yarn.resourcemanager.scheduler.class</name><value>org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler</value></property>
</configuration>
`

func (s Sys) Example(r *engine.Rule, text string) engine.Example {
	name := exampleFor(r, text)
	in := &engine.Input{Path: name, Data: []byte(text), Explicit: true}
	cmd := "aclint lint -f " + name
	if name == csName && (r == nil || r.Name != ruleEnableUnknown) {
		text := exampleSite
		if r != nil && r.Name == ruleNotRun {
			text = exampleSiteFair
		}
		site := &engine.Input{Path: siteName, Data: []byte(text), Explicit: true}
		in.Related = []*engine.Input{in, site}
		cmd += " " + siteName
	}
	return engine.Example{Command: cmd, Input: in}
}

// ExampleBlock shows an example as XML.
func (Sys) ExampleBlock(_ *engine.Rule, text string) string { return "```xml\n" + text + "```\n" }

// ExampleFile is the name examples are shown as.
func (Sys) ExampleFile(r *engine.Rule) string { return exampleFor(r, r.Bad) }

// exampleFor names a rule's example file: yarn-acls-disabled's example is
// the ResourceManager's own configuration, where yarn.acl.enable counts.
func exampleFor(r *engine.Rule, text string) string {
	if r != nil && r.Name == ruleDisabled {
		return siteName
	}
	return exampleName(text)
}

// xmlHint says how to fix a file Hadoop refuses as XML.
func xmlHint(fe *FileError) string {
	if fe.Hint != "" {
		return fe.Hint
	}
	return "fix the XML: every element closed, attributes once, & written as &amp;"
}

// Rules are the system's rules, sorted by name.
func (Sys) Rules() []*engine.Rule { return Rules().All() }
