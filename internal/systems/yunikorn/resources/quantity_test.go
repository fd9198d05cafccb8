package resources

import (
	"math/rand"
	"testing"
)

// TestQuantityRoundTrips: every quantity written back reads as the same
// value, and the everyday ones are spelled as people write them.
func TestQuantityRoundTrips(t *testing.T) {
	for _, c := range []struct {
		name string
		v    int64
		want string
	}{
		{"memory", 10737418240, "10Gi"}, {"memory", 1500000000, "1500M"}, {"memory", 1000, "1k"}, {"memory", 1023, "1023"},
		{"memory", 0, "0"}, {CPU, 2000, "2"}, {CPU, 500, "500m"}, {CPU, 1024000, "1Ki"}, {"nvidia.com/gpu", 2, "2"},
	} {
		if got := Quantity(c.name, c.v); got != c.want {
			t.Errorf("%s %d: %q, want %q", c.name, c.v, got, c.want)
		}
	}
	rnd := rand.New(rand.NewSource(1))
	for i := 0; i < 100000; i++ {
		v := rnd.Int63() >> uint(rnd.Intn(63))
		for _, name := range []string{"memory", CPU} {
			q := Quantity(name, v)
			back, err := Parse(name, q)
			if err != nil || back != v {
				t.Fatalf("%s %d written %q reads back %d (%v)", name, v, q, back, err)
			}
		}
	}
}
