package yarn

import (
	"errors"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/engine"
)

func conf(t *testing.T, props string) *Conf {
	t.Helper()
	c, err := ReadConf("c.xml", []byte("<?xml version=\"1.0\"?>\n<configuration>\n"+props+"\n</configuration>\n"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestReadConf: Configuration's parser (Hadoop 3, Configuration.Parser
// and loadProperty), case by case.
func TestReadConf(t *testing.T) {
	get := func(c *Conf, name string) (string, bool) {
		p, ok := c.Get(name)
		if !ok {
			return "", false
		}
		return p.Value, true
	}
	cases := []struct {
		why, props, name, value string
		set                     bool
	}{
		{"the name is trimmed, the value is not", "<property><name> a </name><value> x </value></property>", "a", " x ", true},
		{"an empty value leaves the property unset (handleEndElement keeps a null value; loadProperty skips it)", "<property><name>a</name><value></value></property>", "a", "", false},
		{"no value element: unset", "<property><name>a</name></property>", "a", "", false},
		{"a value of one space is set", "<property><name>a</name><value> </value></property>", "a", " ", true},
		{"the short form's attributes are read as written", `<property name="a" value="v"/>`, "a", "v", true},
		{"the name attribute is not trimmed", `<property name=" a" value="v"/>`, " a", "v", true},
		{"an element's text overrides the attribute", `<property name="a" value="v"><value>w</value></property>`, "a", "w", true},
		{"the later property wins", "<property><name>a</name><value>1</value></property><property><name>a</name><value>2</value></property>", "a", "2", true},
		{"a final property is not overridden", "<property><name>a</name><value>1</value><final>true</final></property><property><name>a</name><value>2</value></property>", "a", "1", true},
		{"final must be exactly true", "<property><name>a</name><value>1</value><final> true</final></property><property><name>a</name><value>2</value></property>", "a", "2", true},
		{"final without a value still makes the name final, and unset", "<property><name>a</name><final>true</final></property><property><name>a</name><value>2</value></property>", "a", "", false},
		{"a comment inside the value: the text around it is joined", "<property><name>a</name><value>x<!-- c -->y</value></property>", "a", "xy", true},
		{"text of elements nested in the value counts", "<property><name>a</name><value>x<b>y</b>z</value></property>", "a", "xyz", true},
		{"XML's entities are expanded", "<property><name>a</name><value>x &amp; &#121;</value></property>", "a", "x & y", true},
		{"a property without a name is dropped", "<property><value>x</value></property>", "", "", false},
		{"an empty name element is no name", "<property><name></name><value>x</value></property>", "", "", false},
		{"a blank name is the empty name", "<property><name> </name><value>x</value></property>", "", "x", true},
		{"a description is ignored", "<property><name>a</name><description>d</description><value>v</value></property>", "a", "v", true},
		{"properties are read wherever they are", "<x><property><name>a</name><value>v</value></property></x>", "a", "v", true},
	}
	for _, c := range cases {
		got, ok := get(conf(t, c.props), c.name)
		if ok != c.set || got != c.value {
			t.Errorf("%s: got %q set=%v, want %q set=%v", c.why, got, ok, c.value, c.set)
		}
	}
}

func TestReadConfFinalAndOverride(t *testing.T) {
	c := conf(t, "<property><name>a</name><value>1</value><final>true</final></property>\n<property><name>a</name><value>2</value></property>\n<property><name>b</name><value>1</value></property><property><name>b</name><value>2</value></property>")
	if !c.Props[1].Ignored || c.Props[0].Ignored || !c.IsFinal("a") {
		t.Errorf("the second a should be ignored: %+v", c.Props[:2])
	}
	if !c.Props[2].Overridden || c.Props[3].Overridden {
		t.Errorf("the first b should be overridden: %+v", c.Props[2:])
	}
}

func TestReadConfPositions(t *testing.T) {
	c, err := ReadConf("c.xml", []byte("<configuration>\n  <property>\n    <name>a</name>\n    <value>v w</value>\n  </property>\n</configuration>\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.Get("a")
	if p.Pos != (Pos{2, 3}) || p.NamePos != (Pos{3, 11}) || p.ValuePos != (Pos{4, 12}) {
		t.Errorf("positions: property %v name %v value %v", p.Pos, p.NamePos, p.ValuePos)
	}
	if c.Root != "configuration" || c.RootPos != (Pos{1, 1}) {
		t.Errorf("root %q at %v", c.Root, c.RootPos)
	}
}

// TestReadConfUnknown: what aclint does not read as Hadoop would is said,
// never guessed.
func TestReadConfUnknown(t *testing.T) {
	for props, want := range map[string]string{
		"<property><name>a</name><value><![CDATA[x]]></value></property>":          "CDATA",
		`<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="more.xml"/>`: "XInclude",
	} {
		c := conf(t, props)
		if len(c.Unknown) != 1 || !strings.Contains(c.Unknown[0].Why, want) {
			t.Errorf("%s: unknown %+v, want %s", props, c.Unknown, want)
		}
	}
	var fe *FileError
	for in, refused := range map[string]bool{
		"<configuration><property></configuration>":                    true,
		"<configuration><property>":                                    true,
		"<configuration/><configuration/>":                             true,
		"<a:configuration></b:configuration>":                          true,
		`<configuration><property name="a" name="b"/></configuration>`: true,
		"":                  true, // no root element: "Premature end of file"
		"x<configuration/>": true, // "Content is not allowed in prolog"
		"<configuration/>x": true, // "... in trailing section"
		"\n<?xml version=\"1.0\"?><configuration/>":        true, // the declaration after a blank line
		"<?XML version=\"1.0\"?><configuration/>":          true, // [xX][mM][lL] is reserved
		"<configuration>&#xD800;</configuration>":          true, // a surrogate is no XML Char
		"<configuration><c a=\"&#0;\"/></configuration>":   true,
		"<configuration><a:b/></configuration>":            true, // Woodstox is namespace aware
		"<configuration><c xmlns:x=\"\"/></configuration>": true,
		"<configuration><xmlns:a/></configuration>":        true,
		"<?xml version=\"1.1\"?><configuration/>":          false, // Java reads XML 1.1, Go does not
		"<!DOCTYPE c [<!ENTITY e \"x\">]><configuration><property><name>a</name><value>&e;</value></property></configuration>": false,
		"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><configuration/>":                                                      false,
	} {
		_, err := ReadConf("c.xml", []byte(in))
		if !errors.As(err, &fe) || fe.Refused != refused {
			t.Errorf("%s: %v, want refused=%v", in, err, refused)
		}
	}
}

// TestReadConfAccepts: what well-formed XML allows around the root.
func TestReadConfAccepts(t *testing.T) {
	for _, in := range []string{
		"\xef\xbb\xbf<?xml version=\"1.0\"?><configuration/>",
		"<?xml version=\"1.0\"?>\n<!-- c -->\n<configuration/>\n\n",
		"<?xml-stylesheet href=\"configuration.xsl\"?><configuration/>",
		"<configuration><a:b xmlns:a=\"u\"><a:c a:d=\"1\"/></a:b>&#x1F600;<!-- &#xD800; --></configuration>",
	} {
		if _, err := ReadConf("c.xml", []byte(in)); err != nil {
			t.Errorf("%q: %v", in, err)
		}
		fs := strings.ReplaceAll(strings.ReplaceAll(in, "<configuration", "<allocations"), "</configuration>", "</allocations>")
		if _, err := ReadFS("f.xml", []byte(fs)); err != nil {
			t.Errorf("%q: %v", fs, err)
		}
	}
	var fe *FileError
	for _, in := range []string{"", "x<allocations/>", "<allocations/>x", "<allocations/><allocations/>", "\n<?xml version=\"1.0\"?><allocations/>", "<allocations>&#xFFFE;</allocations>"} {
		if _, err := ReadFS("f.xml", []byte(in)); !errors.As(err, &fe) || !fe.Refused || fe.Pos.Line < 1 {
			t.Errorf("%q: %v, want refused at a line", in, err)
		}
	}
}

// TestReadFSNotNamespaceAware: the allocation file's DOM reader is not
// namespace aware, so what Configuration's reader refuses it takes; a name
// with two colons, which Go's reader cannot read, is not known.
func TestReadFSNotNamespaceAware(t *testing.T) {
	if _, err := ReadFS("f.xml", []byte("<allocations><a:b/><c xmlns:x=\"\"/></allocations>")); err != nil {
		t.Errorf("undeclared prefixes: %v", err)
	}
	var fe *FileError
	if _, err := ReadFS("f.xml", []byte("<allocations><a:b:c/></allocations>")); !errors.As(err, &fe) || fe.Refused {
		t.Errorf("two colons: %v, want not known", err)
	}
}

// FuzzReadConf: any bytes. The reader and the tree never panic, every
// position is inside the file, and a decision can always be asked.
func FuzzReadConf(f *testing.F) {
	f.Add([]byte("<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a, b</value></property>" +
		"<property name=\"yarn.scheduler.capacity.root.a.acl_submit_applications\" value=\" g\"/></configuration>"))
	f.Add([]byte("<!DOCTYPE c [<!ENTITY e \"x\">]><configuration><property><name>a</name><value>&e;<![CDATA[y]]></value></property></configuration>"))
	// capacities, weights, an absolute resource, Hadoop 1 keys, ACL-like keys
	f.Add([]byte("<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>" +
		"<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>2w</value></property>" +
		"<property><name>yarn.scheduler.capacity.root.b.capacity</name><value> 5e1f </value></property>" +
		"<property><name>yarn.scheduler.capacity.root.b.maximum-capacity</name><value>[memory=1,vcores=1]</value></property>" +
		"<property><name>yarn.scheduler.capacity.rootacl</name><value>x</value></property>" +
		"<property><name>yarn.scheduler.capacity.root.a.acl_submit_jobs</name><value>x</value></property>" +
		"<property><name>mapred.queue.default.acl-submit-job</name><value>x</value></property></configuration>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		c, err := ReadConf("f.xml", data)
		if err != nil {
			return
		}
		lines := 1 + strings.Count(string(data), "\n")
		for _, p := range c.Props {
			for _, at := range []Pos{p.Pos, p.NamePos, p.ValuePos} {
				if at.Line > lines || at.Line < 0 {
					t.Fatalf("position %v outside the %d-line file", at, lines)
				}
			}
		}
		cs := ReadCS(c)
		for path := range cs.ByPath {
			cs.Decide(path+".x", "u", []string{"g"}, Submit)
		}
		_ = NewSetup([]*Conf{c}).Refused() // the capacity walk, the scheduler
		// every rule, with a yarn-site.xml given beside it: findings
		// inside the file
		in := &engine.Input{Path: "f.xml", Data: data, Explicit: true}
		site := &engine.Input{Path: "yarn-site.xml", Data: []byte("<configuration><property><name>yarn.acl.enable</name><value>true</value></property></configuration>")}
		in.Related = []*engine.Input{in, site}
		rep, err := Sys{}.Lint(in, engine.Options{})
		if err != nil {
			return
		}
		for _, f := range rep.Findings {
			if f.Pos.Line < 1 || f.Pos.Line > lines {
				t.Fatalf("%s at line %d of a %d-line file", f.Rule, f.Pos.Line, lines)
			}
		}
	})
}
