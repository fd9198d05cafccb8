package yarn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/budget"
)

// TestReadersStayLinear holds the XML readers to linear work on elements
// built to be slow: one element of 80,000 attributes (the duplicate check
// compared every attribute with every earlier one: 13 s), and 40,000
// namespace prefixes declared and used on one element (the look-up scanned
// every declared prefix). Each is timed in CPU time against reading a file
// of the same size and number of names spread over ordinary elements,
// which is linear; a quadratic reader is hundreds of times slower, so the
// generous limit holds on a busy machine.
func TestReadersStayLinear(t *testing.T) {
	const n = 80000
	var attrs, props, ns, fsAttrs, fsQueues strings.Builder
	attrs.WriteString("<configuration><property")
	props.WriteString("<configuration>")
	ns.WriteString("<configuration><property")
	fsAttrs.WriteString("<allocations><queue")
	fsQueues.WriteString("<allocations>")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&attrs, " a%d=\"x\"", i)
		fmt.Fprintf(&props, "<property><name>a%d</name></property>", i)
		fmt.Fprintf(&fsAttrs, " a%d=\"x\"", i)
		fmt.Fprintf(&fsQueues, "<queue name=\"a%d\"/>", i)
		if i < n/2 {
			fmt.Fprintf(&ns, " xmlns:p%d=\"u\"", i)
		} else {
			fmt.Fprintf(&ns, " p%d:a=\"x\"", i-n/2)
		}
	}
	attrs.WriteString("><name>x</name></property></configuration>")
	props.WriteString("</configuration>")
	ns.WriteString("><name>x</name></property></configuration>")
	fsAttrs.WriteString(" name=\"a\"/></allocations>")
	fsQueues.WriteString("</allocations>")
	readConf := func(s string) func() {
		return func() {
			if _, err := ReadConf("t.xml", []byte(s)); err != nil {
				t.Fatal(err)
			}
		}
	}
	readFS := func(s string) func() {
		return func() {
			if _, err := ReadFS("t.xml", []byte(s)); err != nil {
				t.Fatal(err)
			}
		}
	}
	confFloor := budget.Best(3, readConf(props.String()))
	fsFloor := budget.Best(3, readFS(fsQueues.String()))
	for _, tc := range []struct {
		name  string
		floor float64
		read  func()
	}{
		{"capacity-scheduler.xml, 80,000 attributes", float64(confFloor), readConf(attrs.String())},
		{"capacity-scheduler.xml, 40,000 prefixes", float64(confFloor), readConf(ns.String())},
		{"allocation file, 80,000 attributes", float64(fsFloor), readFS(fsAttrs.String())},
	} {
		got := float64(budget.Best(1, tc.read))
		if limit := budget.Limit(10) * tc.floor; got > limit {
			t.Errorf("%s: %.0f ms of CPU, over %.0f ms (10x reading as many names in ordinary elements, %.0f ms): the reader is not linear",
				tc.name, got/1e6, limit/1e6, tc.floor/1e6)
		}
	}
}
