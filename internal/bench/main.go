// Command bench is `make bench`: it measures aclint as a user runs it,
// whole processes, against a yardstick process that only decodes the same
// files (internal/bench/floor), and fails when a ratio is above its target.
// Time is CPU time (user and system) from wait4's rusage, the median of
// several runs; memory is the peak resident set.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/aclint/aclint/internal/gen"
	"github.com/aclint/aclint/internal/systems/mesos"
	mesosgen "github.com/aclint/aclint/internal/systems/mesos/gen"
	yarngen "github.com/aclint/aclint/internal/systems/yarn/gen"
	ytgen "github.com/aclint/aclint/internal/systems/ytsaurus/gen"
)

// run runs a command once and returns its CPU time and peak RSS.
func run(stdout io.Writer, name string, args ...string) (time.Duration, int64, error) {
	cmd := exec.Command(name, args...)
	cmd.Stdout = stdout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() == 2 {
			msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
			if len(msg) > 300 {
				msg = msg[:300] + "..."
			}
			return 0, 0, fmt.Errorf("%s %v: %v: %s", filepath.Base(name), args, err, msg)
		}
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss * 1024, nil
}

// pair runs the floor and the command alternately, runs times each, so
// that both see the same load on a busy machine, and returns the median
// CPU time and the largest peak RSS of each.
func pair(runs int, out io.Writer, floor []string, cmd []string) (fc, cc time.Duration, fm, cm int64, err error) {
	var fcs, ccs []time.Duration
	for i := 0; i < runs; i++ {
		c, m, err := run(io.Discard, floor[0], floor[1:]...)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		fcs, fm = append(fcs, c), max(fm, m)
		c, m, err = run(out, cmd[0], cmd[1:]...)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		ccs, cm = append(ccs, c), max(cm, m)
	}
	return median(fcs), median(ccs), fm, cm, nil
}

func median(d []time.Duration) time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}

type row struct {
	name              string
	floor, cmd        []string
	cpuTarget, memTgt float64
	stdout            bool // the command's output goes to a file, not discarded
	// lintFloor: the floor is aclint itself linting the same file (a
	// command measured against lint, as convert is)
	lintFloor bool
}

func main() {
	bin := flag.String("aclint", "bin/aclint", "the aclint binary")
	floorBin := flag.String("floor", "bin/floor", "the yardstick binary")
	runs := flag.Int("runs", 9, "runs of each command, alternating with its floor (the median counts)")
	queues := flag.Int("queues", 100000, "queues of the generated config")
	lspRuns := flag.Int("lsp-runs", 41, "edits measured per config size in the language server's rows")
	lspOnly := flag.Bool("lsp", false, "measure only the language server")
	only := flag.String("only", "", "measure only the rows whose name contains this (no matrix, no language server)")
	profile := flag.String("cpuprofile", "", "with -lsp: write the language server's CPU profile to this file")
	flag.Parse()

	if *lspOnly {
		if *profile != "" {
			f, err := os.Create(*profile)
			if err != nil {
				fail(err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				fail(err)
			}
			defer pprof.StopCPUProfile()
		}
		if benchLSP(*lspRuns) > 0 {
			pprof.StopCPUProfile()
			os.Exit(1)
		}
		return
	}
	dir, err := os.MkdirTemp("", "aclint-bench")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			fail(err)
		}
		return p
	}
	cfg := write("queues.yaml", gen.AuditConfig(*queues, 5000, false))
	cfg2 := write("changed.yaml", gen.AuditConfig(*queues, 5000, true))
	var kinds []mesosgen.KindObject
	for _, k := range mesos.Kinds {
		ko := mesosgen.KindObject{Key: k.Key, Object: k.Object, Role: k.Rule == mesos.Role, AnyOnly: k.ImplicitObject()}
		if k.Rule == mesos.Endpoint {
			ko.Values = mesos.AuthorizableEndpoints
		}
		kinds = append(kinds, ko)
	}
	acls := write("acls.json", mesosgen.MesosACLs(kinds, 1000))
	tree := write("tree.yaml", ytgen.YTTree(20000))
	csXML := write("capacity-scheduler.xml", yarngen.CapacityScheduler(*queues))
	// the shape real configs have (../shared/bench/gen_tree.py): deeper
	// and more varied than the audit config, 70% of queues with ACLs
	shaped := write("tree-shaped.yaml", gen.Tree(*queues))
	// hostile shapes that were quadratic (issue 44): a pod of 100,000
	// annotations and labels, a file of 4,000 ConfigMap documents
	var pod, cms bytes.Buffer
	pod.WriteString("apiVersion: v1\nkind: Pod\nspec: {schedulerName: yunikorn}\nmetadata:\n  name: p\n  labels:\n    queue: root.a\n")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&pod, "    l%d: v%d\n", i, i)
	}
	pod.WriteString("  annotations:\n")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&pod, "    k%d: v%d\n", i, i)
	}
	podFile := write("pod.yaml", pod.Bytes())
	small := write("small.yaml", []byte("partitions: [{name: default, placementrules: [{name: provided, create: true}], queues: [{name: root, submitacl: \"*\"}]}]\n"))
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&cms, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other-%d\ndata:\n  queues.yaml: |\n    partitions:\n      - name: default\n        queues:\n          - name: root\n            submitacl: \"*\"\n", i)
	}
	cmsFile := write("configmaps.yaml", cms.Bytes())
	// convert at real size (issue 43): 1,000 leaves whose submit ACLs list
	// up to 3,000 users and 50 groups each, against lint of the same file
	var big bytes.Buffer
	rnd := rand.New(rand.NewSource(2))
	big.WriteString("<configuration>\n")
	prop := func(k, v string) {
		fmt.Fprintf(&big, "<property><name>yarn.scheduler.capacity.%s</name><value>%s</value></property>\n", k, v)
	}
	prop("root.acl_submit_applications", " ")
	prop("root.acl_administer_queue", " admins")
	var depts []string
	for i := 0; i < 50; i++ {
		depts = append(depts, fmt.Sprintf("d%d", i))
	}
	prop("root.queues", strings.Join(depts, ","))
	for _, d := range depts {
		prop("root."+d+".capacity", "2")
		var leaves []string
		for j := 0; j < 20; j++ {
			leaves = append(leaves, fmt.Sprintf("q%d", j))
		}
		prop("root."+d+".queues", strings.Join(leaves, ","))
		for _, l := range leaves {
			prop("root."+d+"."+l+".capacity", "5")
			var names []string
			for k := rnd.Intn(3000) + 1; k > 0; k-- {
				names = append(names, fmt.Sprintf("u%d", rnd.Intn(20000)))
			}
			var gs []string
			for k := rnd.Intn(50); k > 0; k-- {
				gs = append(gs, fmt.Sprintf("g%d", rnd.Intn(2000)))
			}
			prop("root."+d+"."+l+".acl_submit_applications", strings.Join(names, ",")+" "+strings.Join(gs, ","))
		}
	}
	big.WriteString("</configuration>\n")
	convertDir := filepath.Join(dir, "convert")
	if err := os.Mkdir(convertDir, 0o755); err != nil {
		fail(err)
	}
	convertCS := filepath.Join(convertDir, "capacity-scheduler.xml")
	if err := os.WriteFile(convertCS, big.Bytes(), 0o644); err != nil {
		fail(err)
	}
	convertSite := filepath.Join(convertDir, "yarn-site.xml")
	if err := os.WriteFile(convertSite, []byte("<configuration><property><name>yarn.acl.enable</name><value>true</value></property></configuration>\n"), 0o644); err != nil {
		fail(err)
	}
	info, _ := os.Stat(cfg)
	fmt.Printf("config: %d queues, %.1f MB; CPU time is the median of %d runs, user+sys, whole process\n\n", *queues, float64(info.Size())/1e6, *runs)

	rows := []row{
		{"lint --fail-on error (text)", []string{"yaml", cfg}, []string{"lint", "--color", "never", "--fail-on", "error", cfg}, 1.5, 2.0, false, false},
		{"check", []string{"yaml", cfg}, []string{"check", "-f", cfg, "root.dept3.team5.q1", "u3", "--groups", "g3"}, 1.3, 2.0, false, false},
		{"limits", []string{"yaml", cfg}, []string{"limits", "-f", cfg, "root.dept3.team5.q1", "u3", "--groups", "g3"}, 1.3, 2.0, false, false},
		{"who-can", []string{"yaml", cfg}, []string{"who-can", "-f", cfg, "root.dept3.team5.q1"}, 1.5, 2.0, false, false},
		{"access -o csv", []string{"yaml", cfg}, []string{"access", "-f", cfg, "u3", "--groups", "g3", "-o", "csv"}, 1.5, 2.0, true, false},
		{"diff (vs decoding both files)", []string{"yaml", cfg, cfg2}, []string{"diff", cfg, cfg2}, 2.0, 2.0, false, false},
		{"lint, tree shape (gen_tree.py)", []string{"yaml", shaped}, []string{"lint", "--color", "never", "--fail-on", "error", shaped}, 1.5, 2.0, false, false},
		{"check, tree shape (gen_tree.py)", []string{"yaml", shaped}, []string{"check", "-f", shaped, "root.q1.q2", "user1", "--groups", "group1"}, 1.3, 2.0, false, false},
		{"Mesos lint (vs encoding/json)", []string{"json", acls}, []string{"lint", "--color", "never", acls}, 1.5, 2.0, false, false},
		{"YTsaurus lint (vs yaml.v3)", []string{"yaml", tree}, []string{"lint", "--color", "never", tree}, 1.5, 2.0, false, false},
		{"YARN lint (vs encoding/xml)", []string{"xml", csXML}, []string{"lint", "--color", "never", csXML}, 1.5, 2.0, false, false},
		{"place --pod, 200k labels+annots", []string{"yaml", podFile}, []string{"place", "-f", small, "--pod", podFile, "--without-admission-controller"}, 2.0, 2.0, false, false},
		{"lint, 4,000 ConfigMap documents", []string{"configmaps", cmsFile}, []string{"lint", "--color", "never", "--fail-on", "error", cmsFile}, 4.0, 3.0, false, false},
		{"convert yarn (vs aclint lint)", []string{"lint", "--color", "never", "--fail-on", "none", convertCS}, []string{"convert", "yarn", convertCS, convertSite, "-o", filepath.Join(dir, "converted.yaml")}, 8.0, 3.0, false, true},
	}
	if *only != "" {
		rows = slices.DeleteFunc(rows, func(r row) bool { return !strings.Contains(r.name, *only) })
	}
	failed := 0
	fmt.Printf("%-32s %10s %10s %7s %7s %9s %9s %6s %6s\n", "command", "floor CPU", "aclint", "ratio", "target", "floor RSS", "RSS", "ratio", "target")
	for _, r := range rows {
		out := io.Discard
		if r.stdout {
			f, err := os.Create(filepath.Join(dir, "out"))
			if err != nil {
				fail(err)
			}
			defer f.Close()
			out = f
		}
		floorCmd := append([]string{*floorBin}, r.floor...)
		if r.lintFloor {
			floorCmd = append([]string{*bin}, r.floor...)
		}
		fc, cc, fm, cm, err := pair(*runs, out, floorCmd, append([]string{*bin}, r.cmd...))
		if err != nil {
			// a command that fails is a row that fails, said with why; the
			// other rows are still measured
			fmt.Printf("%-32s FAILED: %v\n", r.name, err)
			failed++
			continue
		}
		cr, mr := float64(cc)/float64(fc), float64(cm)/float64(fm)
		mark := ""
		if cr > r.cpuTarget || mr > r.memTgt {
			mark = "  OVER"
			failed++
		}
		fmt.Printf("%-32s %10s %10s %6.2fx %6.1fx %8.0fM %8.0fM %5.2fx %5.1fx%s\n", r.name, fc.Round(time.Millisecond), cc.Round(time.Millisecond), cr, r.cpuTarget,
			float64(fm)/1e6, float64(cm)/1e6, mr, r.memTgt, mark)
	}
	if *only != "" {
		if failed > 0 {
			os.Exit(1)
		}
		return
	}
	// the matrix is bound by writing its CSV: measured against a process
	// writing the same number of bytes
	mout := filepath.Join(dir, "matrix.csv")
	f, err := os.Create(mout)
	if err != nil {
		fail(err)
	}
	cc, cm, err := run(f, *bin, "matrix", "-f", cfg, "-o", "csv")
	f.Close()
	if err != nil {
		fail(err)
	}
	st, _ := os.Stat(mout)
	wc, _, _, _, err := pair(*runs, io.Discard, []string{*floorBin, "write", fmt.Sprint(st.Size())}, []string{*floorBin, "yaml", cfg})
	if err != nil {
		fail(err)
	}
	_, dc, _, _, _ := pair(1, io.Discard, []string{*floorBin, "write", "0"}, []string{*floorBin, "yaml", cfg})
	fmt.Printf("\nmatrix -o csv: %s CPU, %.0f MB peak, %.0f MB of CSV; writing the same bytes takes %s and decoding the config %s (%.2fx of both)\n",
		cc.Round(time.Millisecond), float64(cm)/1e6, float64(st.Size())/1e6, wc.Round(time.Millisecond), dc.Round(time.Millisecond), float64(cc)/float64(wc+dc))
	failed += benchLSP(*lspRuns)
	if failed > 0 {
		fmt.Printf("\n%d command(s) over target\n", failed)
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(2)
}
