package commands_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tagVector is one line of testdata/conformance/tags: a config YuniKorn
// accepts and questions whose answers depend on the request's tags, with
// YuniKorn's answers (see DIFFERENTIAL.md). A check asks about a queue,
// existing or not, with the request's tags or without; an access question
// asks where a request that names no queue is created, and whether the
// user may submit to and administer that queue.
type tagVector struct {
	ID      string `json:"id"`
	Config  string `json:"config"`
	Queries []struct {
		Kind          string            `json:"kind"`
		Partition     string            `json:"partition"`
		Queue         string            `json:"queue"`
		User          string            `json:"user"`
		Groups        []string          `json:"groups"`
		Tags          map[string]string `json:"tags"`
		Action        string            `json:"action"`
		Expect        string            `json:"expect"`
		ExpectCreated *string           `json:"expect_created"`
		ExpectSubmit  bool              `json:"expect_submit"`
		ExpectAdmin   bool              `json:"expect_admin"`
	} `json:"queries"`
}

// TestTagConformance holds check --tag and access's created queue to
// YuniKorn's answers, and check and who-can to answering every queue access
// lists as created, with the same access.
func TestTagConformance(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	total := 0
	eachVector(t, "../../../../testdata/conformance/tags/*.jsonl", "ACLINT_TAG_CONFORMANCE", func(file string, n int, v *tagVector) {
		path := filepath.Join(dir, fmt.Sprintf("t%d.yaml", n))
		os.WriteFile(path, []byte(v.Config), 0o644)
		for i, q := range v.Queries {
			var args []string
			if q.Kind == "access" {
				args = []string{"access", "-o", "json", "-f", path, q.User, "--partition", q.Partition}
			} else {
				args = []string{"check", "-q", "-f", path, q.Partition, q.Queue, q.User, "--action", q.Action}
			}
			if len(q.Groups) > 0 {
				args = append(args, "--groups", strings.Join(q.Groups, ","))
			}
			args = append(args, tagArgs(q.Tags)...)
			code, out, errOut := run(args...)
			total++
			where := fmt.Sprintf("%s (%s) query %d: %q", filepath.Base(file), v.ID, i, args[4:])
			if q.Kind != "access" {
				if want := map[string]int{"allow": 0, "deny": 1, "error": 2}[q.Expect]; code != want {
					t.Errorf("%s: exit %d, YuniKorn says %s\n%s", where, code, q.Expect, errOut)
				}
				continue
			}
			var doc struct {
				Sections []struct {
					Objects []struct {
						Object string `json:"object"`
						Kind   string `json:"kind"`
						Access struct {
							Submit *struct{} `json:"submit"`
							Admin  *struct{} `json:"admin"`
						} `json:"access"`
					} `json:"objects"`
				} `json:"sections"`
			}
			if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
				t.Errorf("%s: exit %d\n%s", where, code, errOut)
				continue
			}
			created, submit, admin := "", false, false
			for _, p := range doc.Sections {
				for _, r := range p.Objects {
					if r.Kind == "created" {
						created, submit, admin = r.Object, r.Access.Submit != nil, r.Access.Admin != nil
					}
				}
			}
			want := ""
			if q.ExpectCreated != nil {
				want = *q.ExpectCreated
			}
			if created != want || want != "" && (submit != q.ExpectSubmit || admin != q.ExpectAdmin) {
				t.Errorf("%s: created %q submit %v admin %v; YuniKorn creates %q, submit %v admin %v", where, created, submit, admin, want, q.ExpectSubmit, q.ExpectAdmin)
			}
			if created == "" {
				continue
			}
			// check and who-can answer the queue access lists, the same way
			for action, ok := range map[string]bool{"submit": submit, "admin": admin} {
				cargs := []string{"check", "-q", "-f", path, q.Partition, created, q.User, "--action", action}
				cargs = append(cargs, args[8:]...) // --groups and --tag as access had them
				if code, _, e := run(cargs...); code != map[bool]int{true: 0, false: 1}[ok] {
					t.Errorf("%s: access lists %s with %s %v, check exits %d\n%s", where, created, action, ok, code, e)
				}
				total++
			}
			// who-can answers for the requests the Kubernetes shim can send:
			// a namespace is a DNS label, and for any other it says so
			code, _, e := run("who-can", "-f", path, q.Partition, created)
			if dnsLabel.MatchString(q.Tags["namespace"]) && code != 0 || code != 0 && !strings.Contains(e, "no Kubernetes namespace has that name") {
				t.Errorf("%s: access lists %s, who-can exits %d\n%s", where, created, code, e)
			}
			total++
		}
	})
	if total < 1000 {
		t.Fatalf("only %d tag verdicts", total)
	}
	t.Logf("%d tag verdicts checked", total)
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
