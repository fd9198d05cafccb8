package rbac

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestGenerateCases writes the generated cases for the harness to answer
// (RBAC_GENERATE=FILE go test -run TestGenerateCases); see
// testdata/harness/README.md.
func TestGenerateCases(t *testing.T) {
	path := os.Getenv("RBAC_GENERATE")
	if path == "" {
		t.Skip("set RBAC_GENERATE=FILE to write the cases the harness answers")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	g := gen{rand.New(rand.NewSource(56))}
	for i := 0; i < 3000; i++ {
		b, _ := json.Marshal(g.genCase())
		w.Write(append(b, '\n'))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestHarnessVectors holds the reader, the validation, the aggregation
// and the authorizer to Kubernetes' own answers (testdata/vectors.jsonl.gz,
// written by the harness from k8s.io/kubernetes v1.37.2): which objects
// the API server refuses, and each question's answer.
func TestHarnessVectors(t *testing.T) {
	f, err := os.Open("testdata/vectors.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	cases, questions, allowed, unknown := 0, 0, 0, 0
	for sc.Scan() {
		var c hCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases++
		set := NewSet()
		set.Complete = true // the harness's cluster holds these objects and no other
		if c.Bootstrap {
			if err := set.AddBootstrap(); err != nil || len(set.Findings) > 0 {
				t.Fatalf("the bootstrap policy: %v %v", err, set.Findings)
			}
		}
		for i, o := range c.Objects {
			if err := Read(set, fmt.Sprintf("obj%d", i), o); err != nil {
				t.Fatalf("case %d: %v", cases, err)
			}
		}
		for i, y := range c.YAML {
			if err := Read(set, fmt.Sprintf("obj%d", len(c.Objects)+i), []byte(y)); err != nil {
				t.Fatalf("case %d: %v", cases, err)
			}
		}
		var want, got []string
		for _, r := range c.Refused {
			want = append(want, fmt.Sprintf("obj%d", r.Index))
		}
		for _, f := range set.Findings {
			if f.Severity == 2 && !slices.Contains(got, f.Pos.File) {
				got = append(got, f.Pos.File)
			}
		}
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("case %d: refused %v, Kubernetes refuses %v (%v; ours %v)\n%s", cases, got, want, c.Refused, set.Findings, sc.Text())
			continue
		}
		for i, q := range c.Questions {
			questions++
			a := set.Authorize(q.user(), Request{Verb: q.Verb, APIGroup: q.APIGroup, Resource: q.Resource, Subresource: q.Subresource, Namespace: q.Namespace, Name: q.Name})
			if len(a.Unknown) > 0 && !a.Allowed {
				// not known is only right where the controller's order
				// decides: a ring of aggregated ClusterRoles
				if !strings.Contains(strings.Join(a.Unknown, ";"), "aggregate each other") {
					t.Errorf("case %d question %d: not known: %v", cases, i, a.Unknown)
				}
				unknown++
				continue
			}
			if a.Allowed != c.Answers[i] {
				t.Errorf("case %d question %d %+v: allowed %v, Kubernetes %v (unknown %v)\n%s", cases, i, q, a.Allowed, c.Answers[i], a.Unknown, sc.Text())
			}
			if c.Answers[i] {
				allowed++
			}
		}
	}
	if cases < 3000 {
		t.Fatalf("only %d cases", cases)
	}
	if unknown > questions/100 {
		t.Errorf("%d of %d questions not known", unknown, questions)
	}
	t.Logf("%d cases, %d questions (%d allowed, %d not known: a ring of aggregated ClusterRoles) agree with Kubernetes", cases, questions, allowed, unknown)
}

func (q hQuestion) user() User {
	if ns, name, ok := strings.Cut(q.ServiceAccount, "/"); ok {
		return ServiceAccountUser(ns, name)
	}
	return Authenticated(User{Name: q.User, Groups: q.Groups})
}
