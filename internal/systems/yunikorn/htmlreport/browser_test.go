package htmlreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/gen"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// chromium finds Debian's chromium. Outside CI the browser tests skip
// without it; in CI (.ci/run installs it) they fail.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is missing in CI: .ci/run installs Debian's chromium")
	}
	t.Skip("chromium is not installed (apt-get install chromium, or run .ci/run)")
	return ""
}

// browse loads the page headless, as a user's browser would, and returns
// the DOM after the page's script ran; with shot set it also writes a
// screenshot there.
func browse(t *testing.T, bin, page, hash, shot string) string {
	t.Helper()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--window-size=1400,1000"}
	if shot != "" {
		args = append(args, "--screenshot="+shot, "--hide-scrollbars")
	} else {
		args = append(args, "--dump-dom")
	}
	cmd := exec.Command(bin, append(args, "file://"+page+hash)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errOut.String())
	}
	return out.String()
}

type noGroups struct{}

func (noGroups) Resolve(string) (resolve.Result, error) { return resolve.Result{Source: "none"}, nil }
func (noGroups) Name() string                           { return "" }

func load(t *testing.T, path string) (*config.Config, *acl.Policy) {
	t.Helper()
	docs, err := config.Load(path, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l := yunikorn.Accept(docs, nil)
	if len(l.Errors) > 0 {
		t.Fatalf("%s rejected: %v", path, l.Errors)
	}
	return l.Config, l.Policy
}

func writePage(t *testing.T, cfg *config.Config, p *acl.Policy, name string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, Build(cfg, p, yunikorn.Lint(cfg), "aclint", []string{cfg.Doc.File})); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return page
}

var rowRE = regexp.MustCompile(`<tr data-(queue|principal)="([^"]*)"(?: data-partition="([^"]*)")? data-submit="([^"]*)" data-admin="([^"]*)"(?: data-limits="[^"]*")?>`)

// rows reads the answer rows of #results: key -> "submit|admin".
func rows(t *testing.T, dom string) map[string]string {
	t.Helper()
	i := strings.Index(dom, `id="results"`)
	j := strings.Index(dom, `id="tree"`)
	if i < 0 || j < i {
		t.Fatalf("no results in the DOM:\n%.2000s", dom)
	}
	out := map[string]string{}
	multi := strings.Count(dom, `class="partition"`) > 1
	for _, m := range rowRE.FindAllStringSubmatch(dom[i:j], -1) {
		key := html.UnescapeString(m[2])
		if multi && m[1] == "queue" {
			key = html.UnescapeString(m[3]) + "/" + key
		}
		out[key] = html.UnescapeString(m[4]) + "|" + html.UnescapeString(m[5])
	}
	return out
}

func grantText(d *acl.Decision) string {
	if d == nil || !d.Allowed || d.DecidedBy == nil {
		return ""
	}
	return d.DecidedBy.String()
}

func decide(t *testing.T, p *acl.Policy, part, queue, user string, groups []string, action acl.Action) *acl.Decision {
	t.Helper()
	return decideWith(t, p, part, queue, user, groups, action, noGroups{})
}

// decideWith asks with a resolver; nil is the partition's own.
func decideWith(t *testing.T, p *acl.Policy, part, queue, user string, groups []string, action acl.Action, r resolve.Resolver) *acl.Decision {
	t.Helper()
	d, err := p.Decide(acl.Query{Partition: part, Queue: queue, User: user, Groups: groups, Action: action, Resolver: r})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestBrowserSearch loads the report in headless chromium and checks every
// search the page answers against aclint's own decision, queue by queue.
func TestBrowserSearch(t *testing.T) {
	bin := chromium(t)
	for _, file := range []string{"testdata/tricky.yaml", "../../../../examples/queues.yaml", "../../../../examples/audits/queues.yaml", "../../../../examples/placement/queues.yaml"} {
		cfg, p := load(t, file)
		page := writePage(t, cfg, p, "report.html")
		type target struct{ part, path string }
		var queues []target
		for _, part := range cfg.Partitions {
			part.Root.Walk(func(q *config.Queue) { queues = append(queues, target{part.CanonicalName(), q.Path()}) })
		}
		checked := 0
		// what a user (with groups) and a group reach: a row exactly for each
		// queue aclint allows, with the entry that decides it
		subjects := [][2]string{}
		for _, pr := range p.NamedPrincipals() {
			if pr.Kind == "user" {
				subjects = append(subjects, [2]string{"user", pr.Name}, [2]string{"user-alone", pr.Name})
			} else {
				subjects = append(subjects, [2]string{"group", pr.Name})
			}
		}
		subjects = append(subjects, [2]string{"user", "nobody-named"})
		for _, sub := range subjects {
			hash, user, groups := "#group="+sub[1], "aclint-nobody", []string{sub[1]}
			var resolver resolve.Resolver = noGroups{}
			switch sub[0] {
			case "user":
				// two groups: the first that an ACL names decides
				hash, user, groups = "#user="+sub[1]+"&groups=zz-unnamed,qa,dev", sub[1], []string{"zz-unnamed", "qa", "dev"}
			case "user-alone":
				// no groups: YuniKorn's own resolution (these configs set none)
				hash, user, groups, resolver = "#user="+sub[1], sub[1], nil, nil
			}
			got := rows(t, browse(t, bin, page, hash, ""))
			for _, q := range queues {
				s := grantText(decideWith(t, p, q.part, q.path, user, groups, acl.Submit, resolver))
				a := grantText(decideWith(t, p, q.part, q.path, user, groups, acl.Admin, resolver))
				want := s + "|" + a
				if s == "" && a == "" {
					want = ""
				}
				key := q.path
				if len(cfg.Partitions) > 1 {
					key = q.part + "/" + q.path
				}
				if got[key] != want {
					t.Errorf("%s %s on %s: the page says %q, aclint says %q", file, hash, key, got[key], want)
				}
				checked++
			}
		}
		// who can reach each queue: a row for everyone and every principal
		// with access, each with the deciding entry
		for _, q := range queues {
			part, path := q.part, q.path
			got := rows(t, browse(t, bin, page, "#queue="+path+"&partition="+part, ""))
			want := map[string]string{}
			for _, pr := range append([]acl.Principal{acl.Everyone}, p.NamedPrincipals()...) {
				user, groups, key := pr.Name, []string(nil), pr.Kind+":"+pr.Name
				switch pr.Kind {
				case "group":
					user, groups = "aclint-nobody", []string{pr.Name}
				case acl.EveryoneKind:
					user, key = "aclint-nobody", "everyone"
				}
				s := grantText(decide(t, p, part, path, user, groups, acl.Submit))
				a := grantText(decide(t, p, part, path, user, groups, acl.Admin))
				if s != "" || a != "" {
					want[key] = s + "|" + a
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s who can reach %s: the page says\n%v\naclint says\n%v", file, path, got, want)
			}
			checked++
		}
		t.Logf("%s: %d answers agree", file, checked)
	}
}

// TestBrowserResolverUnknown: with a resolver the page cannot run, a user
// searched without groups gets no answer, never one for the wrong groups.
func TestBrowserResolverUnknown(t *testing.T) {
	bin := chromium(t)
	path := filepath.Join(t.TempDir(), "queues.yaml")
	os.WriteFile(path, []byte("partitions:\n  - name: default\n    usergroupresolver:\n      type: os\n    queues:\n      - name: root\n        submitacl: \" dev\"\n        queues:\n          - name: a\n"), 0o644)
	cfg, p := load(t, path)
	page := writePage(t, cfg, p, "report.html")
	dom := browse(t, bin, page, "#user=alice", "")
	if len(rows(t, dom)) != 0 || !strings.Contains(dom, "YuniKorn would ask the os resolver for alice") {
		t.Errorf("a user without groups under the os resolver was answered:\n%.2000s", dom[strings.Index(dom, `id="results"`):])
	}
	if got := rows(t, browse(t, bin, page, "#user=alice&groups=dev", "")); got["root.a"] == "" {
		t.Errorf("with groups given the page must answer: %v", got)
	}
}

// TestBrowserLarge: a 10,000-queue config opens with a small DOM (the tree
// opens on demand), and a search still answers.
func TestBrowserLarge(t *testing.T) {
	bin := chromium(t)
	path := filepath.Join(t.TempDir(), "queues.yaml")
	if err := os.WriteFile(path, gen.AuditConfig(10000, 300, false), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, p := load(t, path)
	page := writePage(t, cfg, p, "large.html")
	dom := browse(t, bin, page, "", "")
	// the data script is the page's; count the elements drawn
	if i, j := strings.Index(dom, `<script type="application/json"`), strings.LastIndex(dom, "</script>"); i > 0 && j > i {
		dom = dom[:i] + dom[j:]
	}
	elements := strings.Count(dom, "<") - strings.Count(dom, "</")
	if !strings.Contains(dom, `data-ready="true"`) {
		t.Fatalf("the page's script did not finish:\n%.3000s", dom)
	}
	if elements > 5000 || len(dom) > 1<<20 {
		t.Errorf("10,000 queues open with %d elements (%d bytes of DOM): the tree must open on demand", elements, len(dom))
	}
	t.Logf("10,000 queues: %d elements, %d bytes of DOM at load", elements, len(dom))
	pr := p.NamedPrincipals()[0]
	hash := "#user=" + pr.Name + "&groups=zz-unnamed"
	if pr.Kind == "group" {
		hash = "#group=" + pr.Name
	}
	want := fmt.Sprintf(" of %d queues</p>", cfg.NumQueues)
	if res := browse(t, bin, page, hash, ""); !regexp.MustCompile(`[1-9][0-9]*` + want).MatchString(res) {
		t.Errorf("the search on %d queues gave no count (want %q)", cfg.NumQueues, want)
	}
}

// TestScreenshot takes the screenshot docs/report.md shows; with
// ACLINT_SCREENSHOT set it writes it there (make report-screenshot).
func TestScreenshot(t *testing.T) {
	bin := chromium(t)
	shot := filepath.Join(t.TempDir(), "report.png")
	if out := os.Getenv("ACLINT_SCREENSHOT"); out != "" {
		shot, _ = filepath.Abs(out)
	}
	t.Chdir("../../../..") // the page names the config as a user in a clone would
	cfg, p := load(t, "examples/audits/queues.yaml")
	page := writePage(t, cfg, p, "report.html")
	browse(t, bin, page, "#queue=root.prod.etl", shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	b := img.Bounds()
	if b.Dx() != 1400 || b.Dy() != 1000 {
		t.Errorf("screenshot is %dx%d, want 1400x1000", b.Dx(), b.Dy())
	}
	colors := map[uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	if len(colors) < 20 {
		t.Errorf("the screenshot has %d colours: the page did not render", len(colors))
	}
}

// TestSelfContained: the page loads nothing from anywhere.
func TestSelfContained(t *testing.T) {
	cfg, p := load(t, "../../../../examples/queues.yaml")
	var b bytes.Buffer
	if err := Write(&b, Build(cfg, p, yunikorn.Lint(cfg), "aclint", []string{"x"})); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"http://", "https://", "<link", "src=", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	if !strings.Contains(page, `content="default-src 'none';`) {
		t.Error("no Content-Security-Policy that forbids loading")
	}
}

// TestDataCannotEscape: names from the config cannot end the data script
// or inject markup.
func TestDataCannotEscape(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "q.yaml")
	os.WriteFile(path, []byte("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"</script><script>alert(1)</script> <b>x\"\n"), 0o644)
	cfg, p := load(t, path)
	var b bytes.Buffer
	if err := Write(&b, Build(cfg, p, yunikorn.Lint(cfg), "aclint", []string{"<b>x</b>"})); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Count(page, "</script>") != 2 || strings.Contains(page, "<b>x") || strings.Contains(page, "<script>alert") {
		t.Errorf("config text reached the markup:\n%s", page[:min(len(page), 3000)])
	}
}

// TestHeatMapAxes: the heat map names its axes (queues down, subjects
// across), labels its rows with queue paths in tree order and its columns
// with everyone and then each user and group, and says so to screen readers.
func TestHeatMapAxes(t *testing.T) {
	bin := chromium(t)
	cfg, p := load(t, "../../../../examples/audits/queues.yaml")
	page := writePage(t, cfg, p, "report.html")
	dom := browse(t, bin, page, "", "")
	canvas := regexp.MustCompile(`<canvas id="heat"[^>]*>`).FindString(dom)
	attr := func(name string) string {
		m := regexp.MustCompile(name + `="([^"]*)"`).FindStringSubmatch(canvas)
		if m == nil {
			return ""
		}
		return html.UnescapeString(m[1])
	}
	rows, cols := attr("data-rows"), attr("data-cols")
	var wantRows []string
	for _, part := range cfg.Partitions {
		part.Root.Walk(func(q *config.Queue) { wantRows = append(wantRows, fmt.Sprintf("%q", q.Path())) })
	}
	if rows != "["+strings.Join(wantRows, ",")+"]" {
		t.Errorf("row labels %s, want every queue in tree order %v", rows, wantRows)
	}
	if !strings.HasPrefix(cols, `["everyone (*)","user deployer"`) || !strings.Contains(cols, `"group etl"`) {
		t.Errorf("column labels %s", cols)
	}
	if !strings.Contains(attr("aria-label"), "rows are queues in tree order, columns are everyone and every user and group") {
		t.Errorf("no description of the axes: %s", canvas)
	}
}

var limitsRowRE = regexp.MustCompile(`data-queue="([^"]*)" data-partition="([^"]*)"[^>]*data-limits="([^"]*)"`)

// TestBrowserLimits: the limits the page's user search shows on each leaf
// queue agree with aclint limits, on the limits example and on configs of
// the limits vectors where an earlier partition leaves limits behind.
func TestBrowserLimits(t *testing.T) {
	bin := chromium(t)
	type search struct {
		file, user string
		groups     []string
	}
	searches := []search{
		{"../../../../examples/limits/queues.yaml", "alice", []string{"data-eng", "analysts"}},
		{"../../../../examples/limits/queues.yaml", "etl-bot", []string{"etl-bot"}},
		{"../../../../examples/limits/queues.yaml", "bob", []string{"marketing"}},
	}
	// three configs of the limits vectors whose answers depend on limits an
	// earlier partition left behind
	b, err := os.ReadFile("../../../../testdata/conformance/limits/aclint-limits.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		var v struct {
			Why, Config, User string
			Groups            []string
		}
		if json.Unmarshal([]byte(line), &v) != nil || v.Why != "leftover" {
			continue
		}
		f := filepath.Join(t.TempDir(), "queues.yaml")
		os.WriteFile(f, []byte(v.Config), 0o644)
		searches = append(searches, search{f, v.User, v.Groups})
		if len(searches) == 6 {
			break
		}
	}
	checked := 0
	for _, s := range searches {
		cfg, p := load(t, s.file)
		page := writePage(t, cfg, p, "report.html")
		dom := browse(t, bin, page, "#user="+s.user+"&groups="+strings.Join(s.groups, ","), "")
		got := map[string]string{}
		for _, m := range limitsRowRE.FindAllStringSubmatch(dom, -1) {
			got[m[2]+"/"+html.UnescapeString(m[1])] = html.UnescapeString(m[3])
		}
		md := limits.New(cfg)
		for _, part := range cfg.Partitions {
			part.Root.Walk(func(q *config.Queue) {
				if !q.IsLeaf() {
					return
				}
				d := decide(t, p, part.CanonicalName(), q.Path(), s.user, s.groups, acl.Submit)
				key := part.CanonicalName() + "/" + q.Path()
				if d == nil || !d.Allowed {
					if got[key] != "" {
						t.Errorf("%s: the page shows limits for %s on %s, where it may not submit", s.file, s.user, key)
					}
					return
				}
				a, err := md.Answer(limits.Request{Partition: part, Queue: q.Path(), User: s.user, Groups: s.groups})
				if err != nil {
					t.Fatal(err)
				}
				if want := LimitsText(a); got[key] != want {
					t.Errorf("%s: %s %v on %s: the page says %q, aclint limits says %q", s.file, s.user, s.groups, key, got[key], want)
				}
				checked++
			})
		}
	}
	if checked < 10 {
		t.Fatalf("only %d limits compared", checked)
	}
	t.Logf("%d limits answers agree", checked)
}

// TestBrowserTemplate: a parent's childtemplate shows in its limits table,
// as the figures every queue created under it starts with.
func TestBrowserTemplate(t *testing.T) {
	bin := chromium(t)
	f := filepath.Join(t.TempDir(), "queues.yaml")
	os.WriteFile(f, []byte(`partitions:
  - name: default
    placementrules:
      - name: tag
        value: namespace
        create: true
        parent: {name: fixed, value: root.tenants}
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: tenants
            parent: true
            childtemplate:
              maxapplications: 7
              resources:
                max: {memory: 16Gi, vcore: 4}
`), 0o644)
	cfg, p := load(t, f)
	page := writePage(t, cfg, p, "report.html")
	dom := browse(t, bin, page, "#queue=root.tenants&partition=default", "")
	row := regexp.MustCompile(`<tr class="tpl"><td>the childtemplate <span class="pos">[^<]*queues.yaml:15:15</span></td><td>every queue created under it</td><td>7</td><td>([^<]*)</td></tr>`).FindStringSubmatch(dom)
	if row == nil {
		i := strings.Index(dom, "childtemplate")
		t.Fatalf("no childtemplate row for root.tenants: %s", dom[max(0, i-300):min(len(dom), i+500)])
	}
	if row[1] != "memory 16Gi (17179869184 bytes), vcore 4 (4000 millicores)" {
		t.Errorf("the template's max resources: %q", row[1])
	}
}
