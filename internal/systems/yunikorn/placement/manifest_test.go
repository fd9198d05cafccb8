package placement

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestManifestDocuments: --pod reads the one pod or workload of a file,
// passing over other kinds and taking a Namespace document for the
// namespace; two pods, a List, a duplicate key and an empty file are
// errors that say so.
func TestManifestDocuments(t *testing.T) {
	pod := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: team-a\n  labels: {queue: root.a}\nspec: {schedulerName: yunikorn}\n"
	ns := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  annotations: {yunikorn.apache.org/parentqueue: root.teams}\n"
	svc := "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"
	app, d, err := FromPod([]byte(svc+"---\n"+ns+"---\n"+pod), nil)
	if err != nil {
		t.Fatal(err)
	}
	if app.Queue != "root.a" || app.Tags["namespace.parentqueue"] != "root.teams" {
		t.Errorf("app %+v", app)
	}
	notes := strings.Join(d.Notes, "\n")
	for _, w := range []string{"passed over the Service s at line 1", "the namespace team-a is read from the same file"} {
		if !strings.Contains(notes, w) {
			t.Errorf("no note %q in\n%s", w, notes)
		}
	}
	for _, tc := range []struct{ file, want string }{
		{pod + "---\n" + pod, "the file holds two pods or workloads (Pod p at line 1, Pod p at line 9)"},
		{"apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(pod, "\n", "\n  "), "found kind List: give one item"},
		{`{"apiVersion": "v1", "items": [{"kind": "Pod", "metadata": {"name": "p", "labels": {"kind": "x"}}}], "kind": "PodList"}`, "found kind PodList"},
		{"kind: Pod\nmetadata:\n  annotations:\n    a: x\n    a: y\n", "line 5: mapping key \"a\" already defined in metadata.annotations"},
		{"kind: Pod\nkind: Pod\n", "mapping key \"kind\" already defined"},
		{"kind: Pod\nmetadata:\n  labels: [a]\n", "line 3: metadata.labels must be a mapping"},
		{"", "the file holds no pod: it is empty"},
		{ns, "the file holds a Namespace but no pod or workload"},
		{svc, "found kind Service"},
	} {
		if _, _, err := FromPod([]byte(tc.file), nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.60q: %v, want %q", tc.file, err, tc.want)
		}
	}
}

// TestListRefusedBeforeParsing: a kind: List of 200,000 items is refused
// from a scan of its lines, before a tree is built (1M items took 1.4 GB
// only to say it found a List).
func TestListRefusedBeforeParsing(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&b, "- {kind: Pod, metadata: {name: p%d}}\n", i)
	}
	b.WriteString("kind: List\n")
	data := []byte(b.String())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := FromPod(data, nil)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "found kind List") {
		t.Fatalf("%v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("refusing a List of %d MB allocated %d MB", len(data)>>20, alloc>>20)
	}
}

// FuzzReadManifest: any bytes given to --pod end in an application or an
// error, never a panic; a manifest that yaml.v3 reads into the old structs
// without error reads here to the same kind, queue label and namespace.
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte("kind: Pod\nmetadata: {name: p, namespace: a, labels: {queue: root.a}, annotations: {x: y}}\nspec: {schedulerName: yunikorn}\n"))
	f.Add([]byte("kind: Deployment\nmetadata: {name: d}\nspec: {template: {metadata: {labels: {queue: q}}, spec: {schedulerName: yunikorn}}}\n---\nkind: Namespace\nmetadata: {name: default}\n"))
	f.Add([]byte("kind: CronJob\nspec: {jobTemplate: {spec: {template: {metadata: {annotations: &a {k: v}}}}}}\nmetadata: {annotations: *a}\n"))
	f.Add([]byte(`{"kind": "List", "items": []}`))
	f.Add([]byte("kind: Pod\nmetadata:\n  labels:\n    a: 1\n    a: 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		app, _, err := FromPod(data, nil)
		if err != nil || bytes.Contains(data, []byte("*")) {
			return // yaml.v3's struct decoder expands aliases: an alias bomb stalls the comparison
		}
		var old object
		if yaml.Unmarshal(data, &old) != nil || old.Kind != "Pod" && old.Kind != "" {
			return
		}
		if m, _, err := old.podMeta(); err == nil && m.Labels[LabelQueueCanonical] == "" && m.Annotations[AnnotationQueue] == "" && app.Queue != m.Labels[LabelQueue] {
			t.Errorf("queue %q, yaml.v3 reads label %q", app.Queue, m.Labels[LabelQueue])
		}
	})
}
