// Package resources reads resource quantities and compares resources the
// way YuniKorn's pkg/common/resources does, for the config checks that
// depend on them.
package resources

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// CPU is the resource read in millicores ("vcore").
const CPU = "vcore"

var legal = regexp.MustCompile(`^([0-9]+)\s*(([mkKMGTPE]i?)?)$`)

var multipliers = map[string]int64{
	"": 1, "m": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18,
	"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50, "Ei": 1 << 60,
}

// Parse reads one quantity of resource name as YuniKorn's ParseQuantity
// (or ParseVCore for vcore, in millicores) does.
func Parse(name, value string) (int64, error) {
	milli := name == CPU
	value = strings.TrimSpace(value)
	parts := legal.FindStringSubmatch(value)
	if parts == nil {
		return 0, errors.New("invalid quantity")
	}
	n, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return 0, errors.New("invalid quantity: overflow")
	}
	scale, ok := multipliers[parts[2]]
	if !ok || (parts[2] == "m" && !milli) {
		return 0, errors.New("invalid suffix")
	}
	r := new(big.Int).Mul(big.NewInt(n), big.NewInt(scale))
	if milli && parts[2] != "m" {
		r.Mul(r, big.NewInt(1000))
	}
	if !r.IsInt64() {
		return 0, errors.New("invalid quantity: overflow")
	}
	return r.Int64(), nil
}

// Resource is a set of named quantities; nil is YuniKorn's nil resource.
type Resource map[string]int64

// FitInMaxUndef is YuniKorn's check that small fits in r, where a type r
// does not define is unlimited and negative values of r count as 0.
func (r Resource) FitInMaxUndef(small Resource) bool {
	for k, v := range small {
		big, ok := r[k]
		if !ok {
			continue
		}
		if v > max(0, big) {
			return false
		}
	}
	return true
}

// Add adds o to r (AddTo).
func (r Resource) Add(o Resource) {
	for k, v := range o {
		r[k] += v
	}
}

// Min is ComponentWiseMin: the smaller of each quantity; a type defined in
// only one side is taken from that side; nil and nil give nil.
func Min(a, b Resource) Resource {
	if a == nil && b == nil {
		return nil
	}
	out := Resource{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if cur, ok := out[k]; !ok || v < cur {
			out[k] = v
		}
	}
	return out
}

// IsZero reports whether every quantity is 0 (nil is zero).
func (r Resource) IsZero() bool {
	for _, v := range r {
		if v != 0 {
			return false
		}
	}
	return true
}

// StrictlyPositive is StrictlyGreaterThanZero: no negative value and at
// least one positive.
func (r Resource) StrictlyPositive() bool {
	pos := false
	for _, v := range r {
		if v < 0 {
			return false
		}
		pos = pos || v > 0
	}
	return pos
}

// String shows the resource in a stable order, like YuniKorn's map print.
func (r Resource) String() string {
	if r == nil {
		return "nil resource"
	}
	keys := r.Names()
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s:%d", k, r[k])
	}
	return "map[" + strings.Join(parts, " ") + "]"
}

// Names lists the resource's names in order.
func (r Resource) Names() []string {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// FromConf reads a resources map as written in a queue config
// (NewResourceFromConf): nil for an empty map, and the names of the
// quantities YuniKorn cannot read, in order.
func FromConf(entries map[string]string) (Resource, []string) {
	if len(entries) == 0 {
		return nil, nil
	}
	out := Resource{}
	var bad []string
	for k, v := range entries {
		q, err := Parse(k, v)
		if err != nil {
			bad = append(bad, k)
			continue
		}
		out[k] = q
	}
	sort.Strings(bad)
	return out, bad
}

// Quantity writes a value of resource name back in queues.yaml's syntax,
// the shortest exact spelling: memory (and every other type) with the
// largest binary suffix that divides it (10737418240 is 10Gi), else the
// largest decimal one (1500000000 is 1500M); vcore in whole cores when it
// can (2000 millicores is 2), else in millicores (500m). Parse reads it
// back to the same value.
func Quantity(name string, v int64) string {
	if name == CPU {
		if v%1000 == 0 {
			return quantity(v / 1000)
		}
		return strconv.FormatInt(v, 10) + "m"
	}
	return quantity(v)
}

func quantity(v int64) string {
	if v == 0 {
		return "0"
	}
	for _, s := range []string{"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"} {
		if m := multipliers[s]; v%m == 0 {
			return strconv.FormatInt(v/m, 10) + s
		}
	}
	for _, s := range []string{"E", "P", "T", "G", "M", "k"} {
		if m := multipliers[s]; v%m == 0 {
			return strconv.FormatInt(v/m, 10) + s
		}
	}
	return strconv.FormatInt(v, 10)
}

// Describe says a value of resource name as queues.yaml writes it, next to
// YuniKorn's internal figure when they differ: "10Gi (10737418240 bytes)",
// "2 (2000 millicores)", "500m (500 millicores)"; a plain count alone.
func Describe(name string, v int64) string {
	q := Quantity(name, v)
	switch name {
	case CPU:
		return fmt.Sprintf("%s (%d millicores)", q, v)
	case "memory", "ephemeral-storage":
		if q == strconv.FormatInt(v, 10) {
			return fmt.Sprintf("%d bytes", v)
		}
		return fmt.Sprintf("%s (%d bytes)", q, v)
	}
	if q == strconv.FormatInt(v, 10) {
		return q
	}
	return fmt.Sprintf("%s (%d)", q, v)
}

// DescribeAll says every type of r as Describe does, in name order:
// "memory 128Gi (137438953472 bytes), vcore 32 (32000 millicores)".
func (r Resource) DescribeAll() string {
	parts := make([]string, 0, len(r))
	for _, n := range r.Names() {
		parts = append(parts, n+" "+Describe(n, r[n]))
	}
	return strings.Join(parts, ", ")
}
