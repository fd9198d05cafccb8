package yarn

import (
	"errors"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestHadoopVectors runs testdata/hadoop/*.txtar: configurations and
// verdicts taken from Hadoop's own tests (each archive and case names the
// test class and method), and cases derived from the code. An archive's
// files are one case, or one case per top directory. A case's "questions"
// file asks, one per line:
//
//	raw NAME = "VALUE"      the property's value as Configuration.getRaw gives it
//	raw NAME unset          no value (get returns null)
//	final NAME | notfinal NAME
//	acl QUEUE submit|admin = "ACL"  the queue's ACL as YARN builds it (compared as an ACL)
//	hasaccess QUEUE submit|admin USER[:g1,g2] true|false
//	                        the queue's hasAccess (scheduler.checkAccess): the walk
//	                        up the path for that ACL alone, whatever yarn.acl.enable says
//	submit|admin QUEUE USER[:g1,g2] allowed|denied|unknown
//	                        the ResourceManager's decision (aclint yarn check)
//	refused                 YARN refuses the file
//
// The other files are the case's configuration, in the order Hadoop loads
// them; an <allocations> file is the Fair Scheduler's.
func TestHadoopVectors(t *testing.T) {
	archives, _ := filepath.Glob("testdata/hadoop/*.txtar")
	if len(archives) == 0 {
		t.Fatal("no vectors in testdata/hadoop")
	}
	questions := 0
	for _, name := range archives {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		cases := map[string][]txtar.File{}
		var order []string
		for _, f := range ar.Files {
			dir := path.Dir(f.Name)
			if _, ok := cases[dir]; !ok {
				order = append(order, dir)
			}
			cases[dir] = append(cases[dir], f)
		}
		for _, dir := range order {
			t.Run(filepath.Base(name)+"/"+dir, func(t *testing.T) {
				questions += runHadoopCase(t, cases[dir])
			})
		}
	}
	if questions < 100 {
		t.Errorf("only %d questions asked", questions)
	}
}

func runHadoopCase(t *testing.T, files []txtar.File) int {
	var qs string
	var confs []*Conf
	var fs *CS
	var refused error
	for _, f := range files {
		base := path.Base(f.Name)
		if base == "questions" {
			qs = string(f.Data)
			continue
		}
		if IsAllocationFile(f.Data) {
			tree, err := ReadFS(f.Name, f.Data)
			if err != nil {
				refused = err
				continue
			}
			fs = tree
			continue
		}
		c, err := ReadConf(f.Name, f.Data)
		if err != nil {
			refused = err
			continue
		}
		confs = append(confs, c)
	}
	if qs == "" {
		t.Fatal("no questions")
	}
	var s *Setup
	if refused == nil {
		if fs != nil {
			s = NewFSSetup(fs, confs)
		} else {
			s = NewSetup(confs)
		}
	}
	n := 0
	for i, line := range strings.Split(qs, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		where := "questions:" + strconv.Itoa(i+1) + ": " + line
		f := strings.Fields(line)
		if f[0] == "refused" {
			var fe *FileError
			var fse *FSError
			if refused == nil || !(errors.As(refused, &fse) || errors.As(refused, &fe) && fe.Refused) {
				t.Errorf("%s: the file is not refused (%v)", where, refused)
			}
			continue
		}
		if refused != nil {
			t.Fatalf("%s: the files are refused: %v", where, refused)
		}
		switch f[0] {
		case "raw":
			p, ok := s.Conf.Get(f[1])
			if f[2] == "unset" {
				if ok {
					t.Errorf("%s: set to %q", where, p.Value)
				}
				continue
			}
			want, err := strconv.Unquote(strings.TrimSpace(line[strings.Index(line, "=")+1:]))
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if !ok || p.Value != want {
				t.Errorf("%s: got %q (set %v)", where, valueOf(p), ok)
			}
		case "final", "notfinal":
			if s.Conf.IsFinal(f[1]) != (f[0] == "final") {
				t.Errorf("%s: final is %v", where, s.Conf.IsFinal(f[1]))
			}
		case "acl":
			q := findQueue(t, s, f[1], where)
			want, err := strconv.Unquote(strings.TrimSpace(line[strings.Index(line, "=")+1:]))
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if got := q.ACL[action(t, f[2], where)]; !sameACL(got, ParseACL(want)) {
				t.Errorf("%s: got %q", where, got.String())
			}
		case "hasaccess":
			q := findQueue(t, s, f[1], where)
			a := action(t, f[2], where)
			user, groups := userGroups(f[3])
			d := s.CS.Decide(q.Path, user, groups, a)
			got := d.Allowed && d.Action == a // a submit granted by an administer ACL is RMAppManager's, not hasAccess
			if strconv.FormatBool(got) != f[4] {
				t.Errorf("%s: got %v (%+v)", where, got, d)
			}
		case "submit", "admin":
			q := findQueue(t, s, f[1], where)
			user, groups := userGroups(f[2])
			ans := s.Check(q, user, groups, action(t, f[0], where))
			got := "denied"
			switch {
			case !ans.Known:
				got = "unknown"
			case ans.Allowed:
				got = "allowed"
			}
			if got != f[3] {
				t.Errorf("%s: got %s (%s)", where, got, ans.Why)
			}
		default:
			t.Fatalf("%s: unknown question", where)
		}
	}
	return n
}

func valueOf(p *Property) string {
	if p == nil {
		return ""
	}
	return p.Value
}

func findQueue(t *testing.T, s *Setup, name, where string) *Queue {
	t.Helper()
	q, err := s.FindQueue(name)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	return q
}

func action(t *testing.T, s, where string) Action {
	t.Helper()
	switch s {
	case "submit":
		return Submit
	case "admin":
		return Administer
	}
	t.Fatalf("%s: action %q", where, s)
	return 0
}

func userGroups(s string) (string, []string) {
	user, groups, ok := strings.Cut(s, ":")
	if !ok || groups == "" {
		return user, nil
	}
	return user, strings.Split(groups, ",")
}

// sameACL compares two ACLs as AccessControlList's sets: everyone, or the
// same users and groups in any order.
func sameACL(a, b ACL) bool {
	if a.All || b.All {
		return a.All == b.All
	}
	eq := func(x, y []string) bool {
		x, y = append([]string(nil), x...), append([]string(nil), y...)
		sort.Strings(x)
		sort.Strings(y)
		return strings.Join(x, "\x00") == strings.Join(y, "\x00") && len(x) == len(y)
	}
	return eq(a.UserNames(), b.UserNames()) && eq(a.GroupNames(), b.GroupNames())
}
