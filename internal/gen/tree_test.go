package gen

import (
	"strings"
	"testing"
)

// TestTreeShape: Tree writes n queues, about 70% with a submitacl and 20%
// with an adminacl, as gen_tree.py does.
func TestTreeShape(t *testing.T) {
	s := string(Tree(10000))
	queues := strings.Count(s, "- name: q")
	submit := strings.Count(s, "  submitacl: ") - 1 // root's
	admin := strings.Count(s, "  adminacl: ")
	if queues != 10000 {
		t.Errorf("%d queues", queues)
	}
	if submit < 6500 || submit > 7500 || admin < 1700 || admin > 2300 {
		t.Errorf("%d submitacls, %d adminacls in %d queues", submit, admin, queues)
	}
}
