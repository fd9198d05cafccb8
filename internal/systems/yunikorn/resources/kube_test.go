package resources

import "testing"

// Values from Kubernetes' resource.Quantity: Value rounds up to a whole
// unit, MilliValue to a thousandth.
func TestParseKube(t *testing.T) {
	for _, c := range []struct {
		in           string
		value, milli int64
	}{
		{"1", 1, 1000}, {"500m", 1, 500}, {"1.5", 2, 1500}, {"1Gi", 1 << 30, 1000 << 30}, {"256M", 256e6, 256e9},
		{"2e3", 2000, 2e6}, {"1E", 1e18, 0}, {".5", 1, 500}, {"1n", 1, 1}, {"-1.5", -1, -1500},
	} {
		v, m, err := ParseKube(c.in)
		if c.in == "1E" {
			if err == nil {
				t.Errorf("%s: milli value overflows int64, want an error", c.in)
			}
			continue
		}
		if err != nil || v != c.value || m != c.milli {
			t.Errorf("ParseKube(%q) = %d, %d, %v; want %d, %d", c.in, v, m, err, c.value, c.milli)
		}
	}
	for _, bad := range []string{"", "1 G", "1g", "G", "1.2.3", "e3"} {
		if _, _, err := ParseKube(bad); err == nil {
			t.Errorf("ParseKube(%q) accepted", bad)
		}
	}
}
