package resources

import "testing"

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name, value string
		want        int64
		ok          bool
	}{
		{"memory", "1G", 1e9, true}, {"memory", "1Gi", 1 << 30, true}, {"memory", " 10 ", 10, true},
		{"memory", "10 Mi", 10 << 20, true}, {"vcore", "10", 10000, true}, {"vcore", "500m", 500, true},
		{"memory", "500m", 0, false}, {"memory", "1.5G", 0, false}, {"memory", "-1", 0, false},
		{"memory", "1g", 0, false}, {"memory", "", 0, false}, {"memory", "9223372036854775807", 9223372036854775807, true},
		{"memory", "9223372036854775808", 0, false}, {"memory", "10E", 0, false}, {"vcore", "9223372036854775807", 0, false},
	} {
		got, err := Parse(c.name, c.value)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("Parse(%s, %q) = %d, %v; want %d ok=%v", c.name, c.value, got, err, c.want, c.ok)
		}
	}
}

func TestFitAndMin(t *testing.T) {
	max := Resource{"memory": 10, "vcore": 5}
	if !max.FitInMaxUndef(Resource{"memory": 10, "gpu": 100}) || max.FitInMaxUndef(Resource{"vcore": 6}) {
		t.Error("FitInMaxUndef")
	}
	if m := Min(Resource{"a": 1, "b": 5}, Resource{"b": 3, "c": 7}); m["a"] != 1 || m["b"] != 3 || m["c"] != 7 {
		t.Errorf("Min = %v", m)
	}
	if Min(nil, nil) != nil || !Resource(nil).IsZero() || (Resource{"a": 0}).StrictlyPositive() {
		t.Error("nil and zero")
	}
}
