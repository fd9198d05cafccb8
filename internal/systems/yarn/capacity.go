package yarn

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// The Capacity Scheduler refuses to start, and a refresh keeps the old
// queues, when the capacities of the queue tree do not hold together. This
// file follows Hadoop 3.4.1: CapacitySchedulerQueueManager.parseQueue
// builds each queue before its children (AbstractCSQueue reads its capacity
// through CapacitySchedulerConfiguration.getNonLabeledQueueCapacity or
// getNonLabeledQueueWeight, which throw on a value out of range), then
// AbstractParentQueue.setChildQueues checks the children's capacities
// together in legacy queue mode, the default.

// CapacityRefusal is why the Capacity Scheduler would refuse the tree:
// Reason is Hadoop's exception message, At the property it comes from (nil
// when no one property holds it). Unknown is set instead when the tree
// uses what aclint does not model (absolute resources, capacity vectors,
// non-legacy queue mode, node labels, ${...}): whether Hadoop starts with
// it is then not known.
type CapacityRefusal struct {
	Reason, Unknown string
	At              *Property
	Queue           string
	// Repeated names a child listed more than once under Queue: it counts
	// in the sum each time
	Repeated string
	// Source names the Hadoop code that refuses ("" for the capacity
	// checks: AbstractParentQueue.setChildQueues and
	// CapacitySchedulerConfiguration)
	Source string
}

// source is where in Hadoop the refusal comes from.
func (r *CapacityRefusal) source() string {
	if r.Source != "" {
		return r.Source
	}
	return "AbstractParentQueue.setChildQueues / CapacitySchedulerConfiguration"
}

const (
	capacityKey     = "capacity"
	legacyModeKey   = CSPrefix + "legacy-queue-mode.enabled"
	precision       = float32(0.0005) // AbstractParentQueue.PRECISION
	resourcePattern = `^\[[\w\.,\-_=\ /]+\]$`
)

var absoluteResource = regexp.MustCompile(resourcePattern)

// capacityOf is one queue's capacity as AbstractCSQueue reads it: a
// percentage (of the parent, 0 to 100), or a weight ("2w"), or an
// absolute resource or capacity vector ("[memory=1024,vcores=1]").
// queueKey looks up a key of queue q (CSPrefix + path + "." + suffix)
// without building the string: a lookup with string(key) does not
// allocate, and the walk asks two keys of every queue.
func (s *Setup) queueKey(buf *[]byte, q *Queue, suffix string) (*Property, bool) {
	*buf = append(append(append(append((*buf)[:0], CSPrefix...), q.Path...), '.'), suffix...)
	p, ok := s.Conf.set[string(*buf)]
	return p, ok
}

type capacityOf struct {
	pct      float32 // the capacity as a fraction, as QueueCapacities keeps it
	weight   float32 // -1: not a weight
	absolute bool
	prop     *Property
	// weightErr is the weight's refusal, thrown once maximum-capacity is read
	weightErr *CapacityRefusal
}

// CapacityRefused walks the Capacity Scheduler's tree as parseQueue does
// and returns the first refusal, or nil when the tree starts.
func (s *Setup) CapacityRefused() *CapacityRefusal {
	if s.FS || s.CS == nil {
		return nil
	}
	legacyDeep, r := s.legacyMode()
	if r != nil {
		return r
	}
	for _, p := range s.Conf.Props {
		if strings.HasPrefix(p.Name, CSPrefix) && strings.Contains(p.Name, ".accessible-node-labels.") && strings.HasSuffix(p.Name, "capacity") {
			return &CapacityRefusal{At: p, Unknown: p.Name + " sets a node label's capacity: the Capacity Scheduler checks each label's capacities too, which aclint does not model"}
		}
	}
	var walk func(q *Queue) (capacityOf, *CapacityRefusal)
	walk = func(q *Queue) (capacityOf, *CapacityRefusal) {
		if r := s.beforeCapacity(q); r != nil {
			return capacityOf{}, r
		}
		self, r := s.capacity(q)
		if r != nil {
			return self, r
		}
		if r := s.maximumCapacity(q); r != nil {
			return self, r
		}
		if self.weightErr != nil {
			return self, self.weightErr
		}
		if r := q.stateRefusal(); r != nil {
			return self, r
		}
		var kids []*Queue
		var caps []capacityOf
		seen := map[string]capacityOf{}
		for _, c := range q.Children {
			// a name listed again is built again (parseQueue makes one
			// queue per name as listed, and CSQueueStore.add checks no
			// repeat): it counts again in its parent's sum
			if cc, again := seen[c.Path]; again && c.Repeat {
				kids, caps = append(kids, c), append(caps, cc)
				continue
			}
			cc, r := walk(c)
			if r != nil {
				return self, r
			}
			seen[c.Path] = cc
			kids, caps = append(kids, c), append(caps, cc)
		}
		if len(kids) == 0 {
			return self, nil
		}
		if legacyDeep != nil {
			return self, legacyDeep // setChildQueues reads the mode first
		}
		r = s.setChildQueues(q, self, kids, caps)
		if r != nil {
			for _, c := range kids {
				if c.Repeat {
					r.Repeated = c.Name
					break
				}
			}
		}
		return self, r
	}
	_, r = walk(s.CS.Root)
	if r == nil && s.CS.Truncated {
		// no limit may hide a refusal: what was read is checked above, and
		// what lies past the limit is not known
		return &CapacityRefusal{Unknown: fmt.Sprintf("the queue tree is deeper than %d levels or has more than %d queues, past what aclint reads", maxDepth, maxQueues)}
	}
	return r
}

// beforeCapacity is the first value parseQueue throws on before it reads
// a queue's capacity: its children (getQueues), the flags it reads before
// building the queue, then the ACLs (AbstractCSQueue.setupQueueConfigs:
// getAcls, submit then administer); nil when none does.
func (s *Setup) beforeCapacity(q *Queue) *CapacityRefusal {
	if p := q.QueuesTooDeep; p != nil {
		return &CapacityRefusal{At: p, Queue: q.Path, Reason: tooDeepMessage(p.Value)}
	}
	if r := s.flagsTooDeep(q); r != nil {
		return r
	}
	for _, a := range []Action{Submit, Administer} {
		if p := q.From[a]; p != nil {
			if deep, msg := s.Conf.SubstitutionTooDeep(p.Value); deep {
				return &CapacityRefusal{At: p, Queue: q.Path, Reason: msg}
			}
		}
	}
	return nil
}

// legacyMode reads legacy-queue-mode.enabled as setChildQueues does for
// each parent once its children are built (getBoolean, default true):
// deep is the refusal its ${...} chain throws there; r says the mode is
// not legacy, or not known, before any queue is checked.
func (s *Setup) legacyMode() (deep, r *CapacityRefusal) {
	p, ok := s.Conf.Get(legacyModeKey)
	if !ok || !p.HasValue {
		return nil, nil
	}
	v, e := s.Conf.Expand(p.Value)
	switch e {
	case TooDeep:
		return &CapacityRefusal{At: p, Reason: tooDeepMessage(p.Value)}, nil
	case NotKnown:
		return nil, &CapacityRefusal{At: p, Unknown: legacyModeKey + " uses ${...}, which Configuration substitutes from settings aclint does not have: whether capacities are checked the legacy way is not known"}
	}
	if v, known := javaBoolean(v); known && !v {
		return nil, &CapacityRefusal{At: p, Unknown: legacyModeKey + " is false: the Capacity Scheduler then checks capacities its non-legacy way, which aclint does not model"}
	}
	return nil, nil
}

// capacity reads a queue's capacity as getNonLabeledQueueCapacity and
// getNonLabeledQueueWeight do, and the refusals they throw.
func (s *Setup) capacity(q *Queue) (capacityOf, *CapacityRefusal) {
	out := capacityOf{weight: -1}
	p, ok := s.queueKey(&s.keyBuf, q, capacityKey)
	if q.Path == "root" {
		out.pct = 1
		if !ok {
			return out, nil
		}
	}
	if !ok {
		return out, nil
	}
	out.prop = p
	v, e := s.Conf.Expand(p.Value)
	switch e {
	case NotKnown:
		return out, &CapacityRefusal{At: p, Queue: q.Path, Unknown: p.Name + " uses ${...}, which Configuration substitutes from settings aclint does not have"}
	case TooDeep:
		return out, &CapacityRefusal{At: p, Queue: q.Path, Reason: tooDeepMessage(p.Value)}
	}
	if absoluteResource.MatchString(v) || absoluteResource.MatchString(strings.ReplaceAll(v, " ", "")) {
		out.absolute = true
		return out, &CapacityRefusal{At: p, Queue: q.Path, Unknown: p.Name + " is an absolute resource (" + v + "): whether the Capacity Scheduler starts depends on the cluster's resources, which aclint does not have"}
	}
	if strings.HasSuffix(v, "w") {
		// the weight is read after maximum-capacity
		// (loadCapacitiesByLabelsFromConf), so its refusal waits for it
		w, err := javaParseFloat(v[:strings.Index(v, "w")])
		if err != nil {
			out.weightErr = &CapacityRefusal{At: p, Queue: q.Path, Reason: err.Error()}
			return out, nil
		}
		if w < -1e-6 && math.Abs(float64(w)+1) > 1e-6 || w > 10000 {
			out.weightErr = &CapacityRefusal{At: p, Queue: q.Path, Reason: fmt.Sprintf("Illegal weight=%s for queue=%slabel=. Acceptable values: [0, 10000], -1 is same as not set", javaFloat(w), q.Path)}
			return out, nil
		}
		out.weight = w
		if q.Path != "root" {
			out.pct = 0
		}
		return out, nil
	}
	if q.Path == "root" {
		return out, nil // root's capacity is 100 whatever is written
	}
	c, err := javaParseFloat(v)
	if err != nil {
		return out, &CapacityRefusal{At: p, Queue: q.Path, Reason: err.Error()}
	}
	if c < 0 || c > 100 {
		return out, &CapacityRefusal{At: p, Queue: q.Path, Reason: fmt.Sprintf("Illegal capacity of %s for queue %s", javaFloat(c), q.Path)}
	}
	out.pct = c / 100
	return out, nil
}

// maximumCapacity reads a queue's maximum-capacity as
// getNonLabeledQueueMaximumCapacity does, right after its capacity: an
// absolute resource or a vector is taken as is, anything else must be a
// number for Float.parseFloat, or the queue is not built.
func (s *Setup) maximumCapacity(q *Queue) *CapacityRefusal {
	p, ok := s.queueKey(&s.keyBuf, q, "maximum-capacity")
	if !ok {
		return nil
	}
	v, e := s.Conf.Expand(p.Value)
	switch e {
	case NotKnown:
		return nil
	case TooDeep:
		return &CapacityRefusal{At: p, Queue: q.Path, Reason: tooDeepMessage(p.Value)}
	}
	if absoluteResource.MatchString(v) || absoluteResource.MatchString(strings.ReplaceAll(v, " ", "")) {
		return nil
	}
	if _, err := javaParseFloat(v); err != nil {
		return &CapacityRefusal{At: p, Queue: q.Path, Reason: err.Error()}
	}
	return nil
}

// setChildQueues is AbstractParentQueue.setChildQueues in legacy queue
// mode, for the default node label: the children's capacity type
// (getCapacityConfigurationTypeForQueues, which also refuses mixed types),
// then, for percentages, their sum.
func (s *Setup) setChildQueues(q *Queue, self capacityOf, kids []*Queue, caps []capacityOf) *CapacityRefusal {
	at := kids[0].ListedAt
	percent, weight := false, false
	var diag strings.Builder
	for i, c := range caps {
		if c.pct > 0 {
			percent = true
		}
		if c.weight >= 0 {
			weight = true
			fmt.Fprintf(&diag, "{Queue=%s, label= uses weight mode}. ", kids[i].Path)
		}
		if percent {
			fmt.Fprintf(&diag, "{Queue=%s, label= uses percentage mode}. ", kids[i].Path)
		}
	}
	if percent && weight {
		return &CapacityRefusal{At: at, Queue: q.Path, Reason: fmt.Sprintf("Parent queue '%s' have children queue used mixed of  weight mode, percentage and absolute mode, it is not allowed, please double check, details:%s", q.Path, diag.String())}
	}
	if weight {
		return nil // weights: no sum to check
	}
	parentPercent := self.weight < 0 // the parent's own type: a weight, or a percentage
	allowZero, zeroUnknown, r := s.allowZeroSum(q)
	if r != nil {
		return r
	}
	var sum float32
	for _, c := range caps {
		sum += c.pct
	}
	name := q.Name
	var refusal string
	if float32(math.Abs(float64(1-sum))) > precision {
		if float32(math.Abs(float64(sum))) > precision {
			return &CapacityRefusal{At: at, Queue: q.Path, Reason: fmt.Sprintf("Illegal capacity sum of %s for children of queue %s for label=. It should be either 0 or 1.0", javaFloat(sum), name)}
		}
		if parentPercent && float32(math.Abs(float64(self.pct))) > precision {
			refusal = fmt.Sprintf("Illegal capacity sum of %s for children of queue %s for label=. It is set to 0, but parent percent != 0, and doesn't allow children capacity to set to 0", javaFloat(sum), name)
		}
	} else if parentPercent && float32(math.Abs(float64(self.pct))) <= 0 {
		refusal = fmt.Sprintf("Illegal capacity sum of %s for children of queue %s for label=. queue=%s has zero capacity, but childqueues have positive capacities", javaFloat(sum), name, name)
	}
	switch {
	case refusal == "" || allowZero:
		return nil
	case zeroUnknown != nil:
		return zeroUnknown // the answer turns on a value aclint cannot read
	}
	return &CapacityRefusal{At: at, Queue: q.Path, Reason: refusal}
}

// allowZeroSum reads a parent's allow-zero-capacity-sum as setChildQueues
// does for percentage children (getBoolean, default false): r is the
// refusal its ${...} chain throws, unknown says aclint cannot follow it.
func (s *Setup) allowZeroSum(q *Queue) (allow bool, unknown, r *CapacityRefusal) {
	p, ok := s.Conf.Get(CSPrefix + q.Path + ".allow-zero-capacity-sum")
	if !ok || !p.HasValue {
		return false, nil, nil
	}
	v, e := s.Conf.Expand(p.Value)
	switch e {
	case TooDeep:
		return false, nil, &CapacityRefusal{At: p, Queue: q.Path, Reason: tooDeepMessage(p.Value)}
	case NotKnown:
		return false, &CapacityRefusal{At: p, Queue: q.Path, Unknown: p.Name + " uses ${...}, which Configuration substitutes from settings aclint does not have"}, nil
	}
	allow, _ = javaBoolean(v)
	return allow, nil, nil
}

// javaFloatSyntax is what Java's Float.parseFloat takes once trimmed
// (FloatingDecimal.readJavaFormatString): a sign, NaN or Infinity, or a
// decimal or hexadecimal number with an optional f/F/d/D suffix.
var javaFloatSyntax = regexp.MustCompile(`^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+)[fFdD]?)$`)

// javaParseFloat is Float.parseFloat: blanks and control characters
// trimmed at both ends (String.trim), Java's syntax, rounded to a float.
// Its error is Java's NumberFormatException message.
func javaParseFloat(s string) (float32, error) {
	t := javaTrim(s)
	if t == "" {
		return 0, fmt.Errorf("empty String")
	}
	if !javaFloatSyntax.MatchString(t) {
		return 0, fmt.Errorf("For input string: \"%s\"", t)
	}
	t = strings.TrimRight(t, "fFdD")
	if strings.HasPrefix(strings.TrimLeft(t, "+-"), "0x") || strings.HasPrefix(strings.TrimLeft(t, "+-"), "0X") {
		v, err := strconv.ParseFloat(t, 32)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return 0, fmt.Errorf("For input string: \"%s\"", javaTrim(s))
		}
		return float32(v), nil
	}
	switch strings.TrimLeft(t, "+-") {
	case "NaN":
		return float32(math.NaN()), nil
	case "Infinity":
		if strings.HasPrefix(t, "-") {
			return float32(math.Inf(-1)), nil
		}
		return float32(math.Inf(1)), nil
	}
	v, err := strconv.ParseFloat(t, 32)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, fmt.Errorf("For input string: \"%s\"", javaTrim(s))
	}
	return float32(v), nil
}

// javaFloat writes a float as Java's Float.toString does: plain between
// 10^-3 and 10^7 with at least one digit after the point, otherwise
// computerized scientific notation ("1.0E-4").
func javaFloat(f float32) string {
	switch {
	case math.IsNaN(float64(f)):
		return "NaN"
	case math.IsInf(float64(f), 1):
		return "Infinity"
	case math.IsInf(float64(f), -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(float64(f)) {
			return "-0.0"
		}
		return "0.0"
	}
	a := math.Abs(float64(f))
	if a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(float64(f), 'f', -1, 32)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(float64(f), 'e', -1, 32)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}
