package config

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// Config is a decoded YuniKorn queue config. Every value keeps the yaml.Node
// it came from, so rules can point at it.
type Config struct {
	Doc        *Document
	Partitions []*Partition
	Checksum   Str
	// Problems found while decoding: unknown keys, wrong types, duplicate keys.
	Problems []Problem
	// NumQueues counts the queues of all partitions, inserted roots included.
	NumQueues int
	// Default is set when the document was empty and YuniKorn's built-in
	// default config stands in for it.
	Default bool
}

// Str is a string field with the node it was read from. Node is nil when the
// key is absent.
type Str struct {
	Value string
	Node  *yaml.Node // the value node
	Key   *yaml.Node // the key node
}

// Set reports whether the key was written.
func (s Str) Set() bool { return s.Key != nil }

// StrMap is a map[string]string field (resources, properties). Nil Entries
// with a non-nil Node means the key was written with a null value.
type StrMap struct {
	Entries map[string]string
	Nodes   map[string]*yaml.Node // value node of each entry
	Node    *yaml.Node
	Key     *yaml.Node
}

// NonNil reports whether YuniKorn would see a non-nil map: any mapping,
// even an empty one.
func (m StrMap) NonNil() bool { return m.Entries != nil }

// Partition is one entry of partitions.
type Partition struct {
	Name      Str
	Node      *yaml.Node
	Queues    []*Queue // as written at the top level
	QueuesSet bool     // the queues key holds a list (possibly empty)
	Root      *Queue   // the root queue, inserted when YuniKorn would insert it
	// RootInserted is true when YuniKorn adds a root above the top-level
	// queues (several of them, or one not named root in any case).
	RootInserted   bool
	PlacementRules []*PlacementRule
	Limits         []*Limit
	LimitsKey      *yaml.Node
	Resolver       Str // usergroupresolver.type
	ResolverNode   *yaml.Node
	NodeSortPolicy Str
	// ResourceWeights of the node sort policy, with the node of each value.
	ResourceWeights     map[string]float64
	ResourceWeightNodes map[string]*yaml.Node
	Preemption          *yaml.Node
}

// CanonicalName is the partition name as YuniKorn uses it: "" and any case of
// "default" become "default".
func (p *Partition) CanonicalName() string {
	return CanonicalPartition(p.Name.Value)
}

// CanonicalPartition normalises a config's partition name the way YuniKorn's
// validator does: "" and any case of "default" become "default", other names
// are kept as written.
func CanonicalPartition(name string) string {
	if name == "" || strings.ToLower(name) == "default" {
		return "default"
	}
	return name
}

// Queue is a configured queue.
type Queue struct {
	Name     Str
	Node     *yaml.Node
	Parent   *Queue
	Children []*Queue
	// Index numbers the queues of a Config from 0 to Config.NumQueues-1, so
	// callers can keep per-queue data in a slice. An int32, sharing a word
	// with the two flags: 2^31 queues would take terabytes, far past
	// aclint's memory limit.
	Index int32
	// ParentFlag is the parent: key; a queue with children is a parent anyway.
	ParentFlag bool
	// Synthetic marks the root queue YuniKorn inserts.
	Synthetic bool
	SubmitACL Str
	AdminACL  Str
	// Extra holds the keys most queues do not write, the childtemplate
	// among them; it is never nil (a queue without them shares one empty
	// Extra), so its fields read as the queue's own.
	*Extra

	path string // set by Decode; the lower-case name is its last part
	// kids indexes the children of a queue with many by their lower-case
	// names (set by Decode; nil for most queues, found by a scan): a
	// lookup among 16,000 siblings is then one map access, not a scan
	kids map[string]*Queue
}

// wide is how many children make a queue worth an index.
const wide = 16

// indexChildren builds kids for a queue with many children, the first of
// two that lower-case alike first, as Child's scan finds it.
func (q *Queue) indexChildren() {
	if len(q.Children) <= wide {
		return
	}
	q.kids = make(map[string]*Queue, len(q.Children))
	for _, c := range q.Children {
		name := strings.ToLower(c.Name.Value)
		if _, dup := q.kids[name]; !dup {
			q.kids[name] = c
		}
	}
}

// Extra is what a queue writes besides its name, ACLs and children:
// resources, properties, max applications, limits, the parent key and the
// childtemplate. A Queue is decoded for each of a config's queues, and most
// write none of this: apart, it takes 168 bytes off each Queue (17 MB of a
// 100,000-queue config, which a check pays for in CPU as much as in
// memory).
type Extra struct {
	ParentNode      *yaml.Node
	Guaranteed      StrMap
	Max             StrMap
	ResourcesNode   *yaml.Node
	MaxApplications uint64
	MaxAppsNode     *yaml.Node
	Properties      StrMap
	Limits          []*Limit
	LimitsKey       *yaml.Node
	// Template is the childtemplate, nil when none is written.
	*Template
}

// noExtra is the Extra of every queue that writes none of it. Only the
// decoder writes an Extra, and it gives a queue its own before the first
// write (decoder.extra).
var noExtra Extra

// Template is a queue's childtemplate.
type Template struct {
	ChildTemplate *yaml.Node
	// TemplateGuaranteed and TemplateMax are childtemplate.resources.
	TemplateGuaranteed, TemplateMax StrMap
	// TemplateMaxApps and TemplateProperties are the rest of childtemplate.
	TemplateMaxApps     uint64
	TemplateMaxAppsNode *yaml.Node
	TemplateProperties  StrMap
}

// IsLeaf reports whether YuniKorn builds the queue as a leaf: no parent flag
// and no children.
func (q *Queue) IsLeaf() bool { return !q.ParentFlag && len(q.Children) == 0 }

// Path is the queue's full path as YuniKorn stores it: lower case, dot joined.
func (q *Queue) Path() string { return q.path }

// LowerName is the queue's name as YuniKorn keys it: strings.ToLower, the
// form it compares siblings in.
// It is the last part of the path, not a field of its own: a large config
// holds one Queue per queue.
func (q *Queue) LowerName() string {
	switch {
	case q.path == "": // before Decode set the paths
		return strings.ToLower(q.Name.Value)
	case q.Parent == nil:
		return q.path
	}
	return q.path[len(q.Parent.path)+1:]
}

func (q *Queue) setPath() {
	name := strings.ToLower(q.Name.Value)
	if q.Parent == nil {
		q.path = name
	} else {
		q.path = q.Parent.path + "." + name
	}
}

// Child returns the child a path part names, as YuniKorn's lookup finds it:
// both sides go through strings.ToLower and must then be equal. That is not
// strings.EqualFold: the Kelvin sign lower-cases to "k" and finds a queue
// "k", while the long s "ſ" stays itself and finds no queue "s".
func (q *Queue) Child(name string) *Queue {
	lower := strings.ToLower(name)
	if q.kids != nil {
		return q.kids[lower]
	}
	for _, c := range q.Children {
		if c.LowerName() == lower {
			return c
		}
	}
	return nil
}

// TemplateEmpty reports whether YuniKorn treats the queue's childtemplate as
// absent (template.FromConf): no maxapplications, and no entry of its
// properties or resources with both a key and a value. Such a template is
// never parsed, so its values cannot reject the config.
func (q *Queue) TemplateEmpty() bool {
	empty := func(m StrMap) bool {
		for k, v := range m.Entries {
			if k != "" && v != "" {
				return false
			}
		}
		return true
	}
	return q.Template == nil || q.TemplateMaxApps == 0 && empty(q.TemplateProperties) && empty(q.TemplateGuaranteed) && empty(q.TemplateMax)
}

// Walk calls fn for q and every queue below it, parents first.
func (q *Queue) Walk(fn func(*Queue)) {
	fn(q)
	for _, c := range q.Children {
		c.Walk(fn)
	}
}

// PlacementRule is one entry of placementrules.
type PlacementRule struct {
	Name   Str
	Create bool
	Value  Str
	Parent *PlacementRule
	Filter Filter
	Node   *yaml.Node
}

// Filter is a placement rule filter.
type Filter struct {
	Type   Str
	Users  []Str
	Groups []Str
}

// Limit is one entry of a limits list.
type Limit struct {
	Limit           Str
	Users           []Str
	Groups          []Str
	MaxResources    StrMap
	MaxApplications uint64
	MaxAppsNode     *yaml.Node
	Node            *yaml.Node
	// UsersList and GroupsList are set when the key holds a list, even an
	// empty one: YuniKorn compares partition and root limits with
	// reflect.DeepEqual, where an empty list is not a missing one.
	UsersList, GroupsList bool
}

// Partition returns the partition YuniKorn finds for a request naming
// partition name, or nil. Only the config's names are normalised: a request's
// "" means "default", and any other name is looked up exactly, so a request
// for "Default" finds no partition.
func (c *Config) Partition(name string) *Partition {
	if name == "" {
		name = "default"
	}
	for _, p := range c.Partitions {
		if p.CanonicalName() == name {
			return p
		}
	}
	return nil
}

// LimitsOf is a queue's limits as YuniKorn's validator leaves them: the
// root queue without limits of its own takes the partition's
// (checkLimitsStructure).
func (p *Partition) LimitsOf(q *Queue) []*Limit {
	if q == p.Root && len(q.Limits) == 0 {
		return p.Limits
	}
	return q.Limits
}

// HasLimits reports whether the partition writes any user or group limit.
func (p *Partition) HasLimits() bool {
	found := len(p.Limits) > 0
	p.Root.Walk(func(q *Queue) { found = found || len(q.Limits) > 0 })
	return found
}

// WrittenPath is the queue's path from the names as written: the key
// YuniKorn's user and group manager files the queue's limits under, while
// it looks them up with Path, which is lower case.
func (q *Queue) WrittenPath() string {
	if q.Parent == nil {
		return "root" // YuniKorn builds a partition only on a root named exactly so
	}
	return q.Parent.WrittenPath() + "." + q.Name.Value
}
