package config

// The shape of YuniKorn's queues.yaml, as one table: the decoder takes its
// key sets from it (so an accepted key is a key of this table and nothing
// else) and `aclint schema` turns it into a JSON Schema for editors. The
// table follows yunikorn-core's pkg/common/configs/config.go: yaml.v3 matches
// the Go field names lower-cased, and YuniKorn decodes with KnownFields(true).

// Kind is how the decoder reads a field's value, which fixes the YAML values
// yaml.v3 accepts there.
type Kind int

const (
	// KindString is a Go string: yaml.v3 takes any scalar's text.
	KindString Kind = iota
	// KindBool is a Go bool: true/false (any case yaml.v3 resolves), null,
	// or one of YAML 1.1's y/yes/on/n/no/off spellings.
	KindBool
	// KindUint is a Go uint64: a number yaml.v3 can convert, or null.
	KindUint
	// KindStringMap is a map[string]string: names to scalars.
	KindStringMap
	// KindFloatMap is a map[string]float64: names to numbers.
	KindFloatMap
	// KindStringList is a []string.
	KindStringList
	// KindObject is a struct (Field.Struct names it); null is the empty struct.
	KindObject
	// KindList is a list of structs (Field.Struct names them).
	KindList
)

// Field is one key of a config struct.
type Field struct {
	Key    string
	Kind   Kind
	Struct string // KindObject, KindList: the Struct it holds
	Doc    string
	// Default is what YuniKorn uses when the key is absent (nil: nothing to say).
	Default any
	// Enum lists the only values YuniKorn accepts (it refuses the config
	// for any other); Pattern is the same as an ECMA-262 regular expression.
	// Both are set only where YuniKorn refuses every other value, so that a
	// schema built from them never flags a config YuniKorn accepts.
	Enum    []string
	Pattern string
	// Examples are values offered for completion, not a constraint.
	Examples []string
	// Required: YuniKorn refuses the config when the key is missing.
	Required bool
	// Known names of a KindStringMap (queue properties): documented,
	// any other name is accepted too.
	Known []Field
}

// Struct is one of YuniKorn's config structs.
type Struct struct {
	Name   string // the schema definition's name
	GoType string // the type YuniKorn's decoder names in its errors
	Doc    string
	Fields []Field
}

// Keys returns the keys the decoder accepts in this struct, in table order.
func (s *Struct) Keys() []string {
	keys := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		keys[i] = f.Key
	}
	return keys
}

// StructNamed returns the struct of the table with this name, or nil.
func StructNamed(name string) *Struct {
	for _, s := range Structs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func keysOf(name string) []string { return StructNamed(name).Keys() }

const aclDoc = "An ACL: users, then one space, then groups, each a comma-separated list (\"alice,bob admins\"); " +
	"`*` alone lets everyone in, and must be quoted in YAML. A leading space means groups only (\" admins\"). " +
	"YuniKorn splits on the first space only: a second space rejects the config at load, and names that fail " +
	"its user or group pattern are dropped silently. Empty (the default) gives no access at this level; " +
	"access still comes from ancestors. `aclint lint` checks every one of these."

var resourceDoc = "Resource names to quantities, as Kubernetes writes them (`memory: 2Gi`, `vcore: 500m`, `nvidia.com/gpu: 1`). " +
	"Quote values that YAML would read as numbers with a unit suffix only when needed; any scalar is read as its text."

// queueProperties are the properties Queue.UpdateQueueProperties reads.
// YuniKorn accepts any name here and logs unknown values, falling back to the
// default, so the schema documents them without constraining them.
var queueProperties = []Field{
	{Key: "application.sort.policy", Doc: "How applications in this leaf queue are ordered: `fifo` (default) or `fair`; `stateaware` is deprecated and read as `fifo`.", Default: "fifo", Examples: []string{"fifo", "fair"}},
	{Key: "application.sort.priority", Doc: "Whether application priority is used when sorting: `enabled` (default) or `disabled`.", Default: "enabled", Examples: []string{"enabled", "disabled"}},
	{Key: "priority.policy", Doc: "`default`, or `fence` to keep this queue's priorities from propagating above it.", Default: "default", Examples: []string{"default", "fence"}},
	{Key: "priority.offset", Doc: "A whole number added to the priority of applications in this queue when it is compared with other queues.", Default: "0"},
	{Key: "preemption.policy", Doc: "`default`, `fence` (no preemption of tasks outside this queue) or `disabled`.", Default: "default", Examples: []string{"default", "fence", "disabled"}},
	{Key: "preemption.delay", Doc: "How long an ask waits before it may trigger preemption, as a Go duration.", Default: "30s"},
	{Key: "application.unschedasks.backoff", Doc: "A whole number: after this many of an application's asks could not be scheduled in one pass, the application waits for the backoff delay; 0 (default) never waits.", Default: "0"},
	{Key: "application.unschedasks.backoff.delay", Doc: "How long an ask that could not be scheduled is backed off, as a Go duration.", Default: "30s"},
	{Key: "quota.preemption.delay", Doc: "How long a queue may stay above a lowered max before quota preemption starts, as a Go duration; 0 (default) is never.", Default: "0"},
}

// Structs is the config model: the decoder's key sets and the JSON Schema
// both come from it. The first entry is the document itself.
var Structs = []*Struct{
	{Name: "scheduler", GoType: tSchedulerConfig, Doc: "A YuniKorn queue configuration (the `queues.yaml` value of the yunikorn-configs ConfigMap). An empty document is YuniKorn's built-in default: one partition `default` whose root queue lets everyone submit.",
		Fields: []Field{
			{Key: "partitions", Kind: KindList, Struct: "partition", Doc: "The partitions, each with its own queue tree, placement rules and limits. Partition names are unique regardless of case; an empty name is `default`."},
			{Key: "checksum", Doc: "Set by YuniKorn on the config it loaded; ignored when written here."},
		}},
	{Name: "partition", GoType: tPartition, Doc: "A partition: a queue tree with its placement rules, limits and policies.",
		Fields: []Field{
			{Key: "name", Doc: "The partition's name; empty or any case of `default` means `default`. Unique regardless of case.", Default: "default"},
			{Key: "queues", Kind: KindList, Struct: "queue", Required: true, Doc: "The queue tree: one queue named `root` (any case), or several top-level queues under which YuniKorn inserts `root`. Without it YuniKorn refuses the config (`queue config is not set`)."},
			{Key: "placementrules", Kind: KindList, Struct: "rule", Doc: "Placement rules, tried in order; the first that places the application decides its queue. Without rules, applications must name an existing leaf queue."},
			{Key: "limits", Kind: KindList, Struct: "limit", Doc: "User and group limits for the whole partition (root queue). YuniKorn's user and group manager is one for the whole scheduler: only the last partition's limits take effect."},
			{Key: "preemption", Kind: KindObject, Struct: "preemption", Doc: "Preemption switches of this partition."},
			{Key: "nodesortpolicy", Kind: KindObject, Struct: "nodesortpolicy", Doc: "How nodes are sorted when allocating."},
			{Key: "usergroupresolver", Kind: KindObject, Struct: "usergroupresolver", Doc: "Where the groups of a user come from when a request carries none. YuniKorn uses the first partition's resolver for all of them."},
		}},
	{Name: "queue", GoType: tQueue, Doc: "A queue. Submit access comes from submitacl or adminacl of the queue or any ancestor; admin access from adminacl of the queue or any ancestor.",
		Fields: []Field{
			{Key: "name", Required: true, Pattern: `^[a-zA-Z0-9_:#/@-]{1,64}$`, Doc: "The queue's name: 1 to 64 of the letters, digits and `_ : # / @ -` (no dots: a dot separates the levels of a queue path). Unique among siblings regardless of case."},
			{Key: "parent", Kind: KindBool, Default: false, Doc: "`true` makes a queue without children a parent queue, under which placement rules may create queues."},
			{Key: "resources", Kind: KindObject, Struct: "resources", Doc: "Guaranteed and maximum resources of the queue."},
			{Key: "maxapplications", Kind: KindUint, Default: 0, Doc: "The most applications that may run in this queue and below at once; 0 (default) is no limit. A whole number of 0 or more; when the parent queue sets one, every child must set one no larger."},
			{Key: "properties", Kind: KindStringMap, Known: queueProperties, Doc: "Queue properties, names to values (sorting, priority, preemption). Children inherit some of them."},
			{Key: "adminacl", Doc: "Who may administer this queue and the queues below it, and submit to them. " + aclDoc, Default: ""},
			{Key: "submitacl", Doc: "Who may submit applications to this queue and the queues below it. " + aclDoc, Default: ""},
			{Key: "childtemplate", Kind: KindObject, Struct: "childtemplate", Doc: "Settings for the queues placement rules create directly below this parent queue."},
			{Key: "queues", Kind: KindList, Struct: "queue", Doc: "Child queues. A queue with children is a parent queue; applications run only in leaf queues."},
			{Key: "limits", Kind: KindList, Struct: "limit", Doc: "User and group limits on this queue."},
		}},
	{Name: "resources", GoType: tResources, Doc: "Guaranteed and maximum resources.",
		Fields: []Field{
			{Key: "guaranteed", Kind: KindStringMap, Doc: "Resources this queue is guaranteed. " + resourceDoc},
			{Key: "max", Kind: KindStringMap, Doc: "The most resources this queue and its children may use. " + resourceDoc},
		}},
	{Name: "childtemplate", GoType: tTemplate, Doc: "What a queue created by placement directly below this parent gets.",
		Fields: []Field{
			{Key: "maxapplications", Kind: KindUint, Default: 0, Doc: "maxapplications of each created queue; 0 (default) is no limit."},
			{Key: "properties", Kind: KindStringMap, Known: queueProperties, Doc: "Properties of each created queue."},
			{Key: "resources", Kind: KindObject, Struct: "resources", Doc: "Resources of each created queue."},
		}},
	{Name: "rule", GoType: tRule, Doc: "A placement rule.",
		Fields: []Field{
			{Key: "name", Required: true, Pattern: `^[_a-zA-Z][a-zA-Z0-9_]*$`,
				Examples: []string{"provided", "user", "tag", "fixed"},
				Doc:      "The rule: `provided` (the queue the application asks for), `user` (a queue named after the user), `tag` (the value of the application tag named by value), `fixed` (the queue named by value); case does not matter. The name must be a Go identifier or YuniKorn refuses the config; a name it does not know is accepted and the rule does nothing (aclint lint warns)."},
			{Key: "create", Kind: KindBool, Default: false, Doc: "Whether the rule may create the queue when it does not exist (under a parent queue)."},
			{Key: "filter", Kind: KindObject, Struct: "filter", Doc: "Which users and groups the rule applies to."},
			{Key: "parent", Kind: KindObject, Struct: "rule", Doc: "A rule that gives the parent queue under which this rule's queue is found or created."},
			{Key: "value", Doc: "For `fixed`, the queue (a name, or a path from root); for `tag`, the tag's name (for example `namespace`)."},
		}},
	{Name: "filter", GoType: tFilter, Doc: "A placement rule's user and group filter.",
		Fields: []Field{
			{Key: "type", Pattern: `^([aA][lL][lL][oO][wW]|[dD][eE][nN][yY])?$`, Examples: []string{"allow", "deny"}, Default: "allow", Doc: "`allow` (default, also when empty) applies the rule to the users and groups listed; `deny` to everyone else. Case does not matter."},
			{Key: "users", Kind: KindStringList, Doc: "User names; a list of exactly one entry is a regular expression."},
			{Key: "groups", Kind: KindStringList, Doc: "Group names; a list of exactly one entry is a regular expression."},
		}},
	{Name: "limit", GoType: tLimit, Doc: "A user and group limit: the most applications and resources each listed user, or the tracked group of an application, may use in this queue and below.",
		Fields: []Field{
			{Key: "limit", Doc: "A description; not used by the scheduler."},
			{Key: "users", Kind: KindStringList, Doc: "User names, or `*` for every user without a named limit on this queue."},
			{Key: "groups", Kind: KindStringList, Doc: "Group names, or `*` for applications whose user is in no named group limited on this queue (only with a named group limit on the same queue). An application is tracked under one group: the first match from its queue up to root."},
			{Key: "maxresources", Kind: KindStringMap, Doc: "The most resources per user (or group). " + resourceDoc},
			{Key: "maxapplications", Kind: KindUint, Default: 0, Doc: "The most running applications per user (or group); 0 is no limit on applications (then maxresources must be set)."},
		}},
	{Name: "usergroupresolver", GoType: tResolver, Doc: "The user group resolver.",
		Fields: []Field{
			{Key: "type", Examples: []string{"os", "ldap"}, Default: "", Doc: "`os` (the host's users and groups), `ldap` (the directory configured in the scheduler's LDAP settings), or empty. Any other value, including other cases, silently means no resolver: a user's only group is one named like the user."},
		}},
	{Name: "preemption", GoType: tPreemption, Doc: "Preemption switches.",
		Fields: []Field{
			{Key: "enabled", Kind: KindBool, Default: true, Doc: "Whether preemption is enabled in this partition (default true)."},
			{Key: "quotapreemptionenabled", Kind: KindBool, Default: false, Doc: "Whether quota preemption is enabled: after a queue's max is lowered below what it uses, allocations above the new max are preempted once the queue's quota.preemption.delay has passed (default false)."},
		}},
	{Name: "nodesortpolicy", GoType: tNodeSort, Doc: "The node sorting policy.",
		Fields: []Field{
			{Key: "type", Enum: []string{"", "fair", "binpacking"}, Default: "fair", Doc: "`fair` (default, also when empty) spreads allocations over nodes; `binpacking` fills nodes first. Exactly these, in lower case: anything else rejects the config."},
			{Key: "resourceweights", Kind: KindFloatMap, Doc: "Weights of resource types when nodes are compared (types not listed weigh 1.0)."},
		}},
}
