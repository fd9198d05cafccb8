package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// A running scheduler's dump says what it runs twice: the checksum of the
// text it was given, and that config re-marshalled. The checksum alone
// proves nothing (a dump can carry any checksum beside any partitions), so
// drift holds the dump's partitions against the file's too, field by
// field, as yunikorn-core's structs hold them (configs.SchedulerConfig):
// what the dump cannot show (an empty list beside a missing one, both
// omitted) is not compared, and what validation changes in the running
// copy (root inserted, root's parent flag, root given the partition's
// limits) is read the same on both sides. Held to yunikorn-core's own dumps of
// the conformance configs by TestRunningDiffersAgainstCore.

// coreConfig mirrors yunikorn-core's configs.SchedulerConfig: the keys
// yaml.v3 derives from its field names are the dump's and the file's.
// Its checksum is read past by the comparison; it is there so that a
// strict decode into it takes what the core's takes (oracle_test.go).
type coreConfig struct {
	Partitions []corePartition
	Checksum   string
}

type corePartition struct {
	Name           string
	Queues         []coreQueue
	PlacementRules []coreRule
	Limits         []coreLimit
	Preemption     struct{ Enabled, QuotaPreemptionEnabled *bool }
	NodeSortPolicy struct {
		Type            string
		ResourceWeights map[string]float64
	}
	UserGroupResolver struct {
		Type string `yaml:"type"`
	}
}

type coreQueue struct {
	Name            string
	Parent          bool
	Resources       coreResources
	MaxApplications uint64
	Properties      map[string]string
	AdminACL        string
	SubmitACL       string
	ChildTemplate   struct {
		MaxApplications uint64
		Properties      map[string]string
		Resources       coreResources
	}
	Queues []coreQueue
	Limits []coreLimit
}

type coreResources struct{ Guaranteed, Max map[string]string }

type coreRule struct {
	Name   string
	Create bool
	Filter struct {
		Type          string
		Users, Groups []string
	}
	Parent *coreRule
	Value  string
}

type coreLimit struct {
	Limit           string
	Users, Groups   []string
	MaxResources    map[string]string
	MaxApplications uint64
}

// RunningDiffers says where the config of a running scheduler's dump and a
// document differ, as yunikorn-core's structs hold them: each difference
// a line naming the field and both values, at most max of them (and a
// last line counting the rest). Nil when they configure the same.
func RunningDiffers(doc, dump *Document, max int) []string {
	a, errA := flatConfig(doc)
	b, errB := flatConfig(dump)
	switch {
	case errA != nil:
		return []string{fmt.Sprintf("%s cannot be read as YuniKorn's config: %v", doc.Describe(), errA)}
	case errB != nil:
		return []string{fmt.Sprintf("the scheduler's config cannot be read as YuniKorn's: %v", errB)}
	}
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []string
	n := 0
	for _, k := range keys {
		va, inA := a[k]
		vb, inB := b[k]
		if inA && inB && va == vb {
			continue
		}
		n++
		if len(out) >= max {
			continue
		}
		switch {
		case !inA:
			out = append(out, fmt.Sprintf("%s: the scheduler has %s, this file does not set it", k, vb))
		case !inB:
			out = append(out, fmt.Sprintf("%s: this file has %s, the scheduler does not set it", k, va))
		default:
			out = append(out, fmt.Sprintf("%s: this file has %s, the scheduler %s", k, va, vb))
		}
	}
	if n > len(out) {
		out = append(out, fmt.Sprintf("and %d more", n-len(out)))
	}
	return out
}

// flatConfig reads a document's config as yunikorn-core's structs hold
// it, flattened to one quoted value per field path.
func flatConfig(d *Document) (map[string]string, error) {
	var c coreConfig
	if d.Root != nil {
		if err := d.Root.Decode(&c); err != nil {
			return nil, err
		}
	} else if len(d.Text) > 0 {
		if err := yaml.Unmarshal(d.Text, &c); err != nil {
			return nil, err
		}
	}
	out := map[string]string{}
	put := func(path, v string) {
		if v != "" && v != `""` && v != "0" && v != "false" {
			out[path] = v
		}
	}
	for _, p := range c.Partitions {
		pp := "partition " + CanonicalPartition(p.Name)
		out[pp] = "it"
		// validation writes back what it changes (configs.Validate): a
		// root inserted above the top queues, root a parent, and root
		// given the partition's limits when it has none
		// (checkLimitsStructure); the scheduler runs and dumps that
		queues := p.Queues
		if len(queues) != 1 || strings.ToLower(queues[0].Name) != "root" {
			queues = []coreQueue{{Name: "root", Queues: queues}}
		}
		if len(queues[0].Limits) == 0 && len(p.Limits) > 0 {
			queues[0].Limits = p.Limits
		}
		queues[0].Parent = true
		flatQueue(pp+" queue ", queues[0], put)
		for i, r := range p.PlacementRules {
			flatRule(fmt.Sprintf("%s placement rule %d", pp, i+1), &r, put)
		}
		for i, l := range p.Limits {
			flatLimit(fmt.Sprintf("%s limit %d", pp, i+1), l, put)
		}
		put(pp+" preemption.enabled", boolPtr(p.Preemption.Enabled))
		put(pp+" preemption.quotapreemptionenabled", boolPtr(p.Preemption.QuotaPreemptionEnabled))
		put(pp+" nodesortpolicy.type", strconv.Quote(p.NodeSortPolicy.Type))
		for k, w := range p.NodeSortPolicy.ResourceWeights {
			put(pp+" nodesortpolicy.resourceweights."+k, strconv.FormatFloat(w, 'g', -1, 64))
		}
		put(pp+" usergroupresolver.type", strconv.Quote(p.UserGroupResolver.Type))
	}
	return out, nil
}

func boolPtr(b *bool) string {
	if b == nil {
		return ""
	}
	return strconv.FormatBool(*b) + " (written)"
}

func flatQueue(prefix string, q coreQueue, put func(string, string)) {
	path := prefix + q.Name
	put(path, "it")
	put(path+" parent", strconv.FormatBool(q.Parent || len(q.Queues) > 0))
	flatMap(path+" resources.guaranteed", q.Resources.Guaranteed, put)
	flatMap(path+" resources.max", q.Resources.Max, put)
	put(path+" maxapplications", strconv.FormatUint(q.MaxApplications, 10))
	flatMap(path+" properties", q.Properties, put)
	put(path+" adminacl", strconv.Quote(q.AdminACL))
	put(path+" submitacl", strconv.Quote(q.SubmitACL))
	t := q.ChildTemplate
	put(path+" childtemplate.maxapplications", strconv.FormatUint(t.MaxApplications, 10))
	flatMap(path+" childtemplate.properties", t.Properties, put)
	flatMap(path+" childtemplate.resources.guaranteed", t.Resources.Guaranteed, put)
	flatMap(path+" childtemplate.resources.max", t.Resources.Max, put)
	for i, l := range q.Limits {
		flatLimit(fmt.Sprintf("%s limit %d", path, i+1), l, put)
	}
	for _, c := range q.Queues {
		flatQueue(path+".", c, put)
	}
}

func flatMap(path string, m map[string]string, put func(string, string)) {
	for k, v := range m {
		put(path+"."+k, strconv.Quote(v))
	}
}

func flatLimit(path string, l coreLimit, put func(string, string)) {
	put(path+" limit", strconv.Quote(l.Limit))
	put(path+" users", quoteList(l.Users))
	put(path+" groups", quoteList(l.Groups))
	flatMap(path+" maxresources", l.MaxResources, put)
	put(path+" maxapplications", strconv.FormatUint(l.MaxApplications, 10))
}

func flatRule(path string, r *coreRule, put func(string, string)) {
	put(path+" name", strconv.Quote(r.Name))
	put(path+" create", strconv.FormatBool(r.Create))
	put(path+" value", strconv.Quote(r.Value))
	put(path+" filter.type", strconv.Quote(r.Filter.Type))
	put(path+" filter.users", quoteList(r.Filter.Users))
	put(path+" filter.groups", quoteList(r.Filter.Groups))
	if r.Parent != nil {
		flatRule(path+" parent", r.Parent, put)
	}
}

func quoteList(l []string) string {
	if len(l) == 0 {
		return ""
	}
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
