package limits

import "testing"

// getResourceFromTags: anything but an si.Resource above zero is no
// resource; getUint64Tag: anything ParseUint refuses is no limit.
func TestTags(t *testing.T) {
	r := tagResource(map[string]string{"namespace.resourcequota": `{"resources":{"vcore":{"value":1000}}}`}, "namespace.resourcequota")
	if r["vcore"] != 1000 {
		t.Errorf("quota tag: %v", r)
	}
	for _, v := range []string{`{"resources":{"vcore":{}}}`, `not json`, `null`, `{"resources":{"vcore":{"value":-1},"memory":{"value":5}}}`} {
		if r := tagResource(map[string]string{"k": v}, "k"); r != nil {
			t.Errorf("tag %s read as %v, want no resource", v, r)
		}
	}
	for v, want := range map[string]uint64{"3": 3, "-1": 0, "x": 0, "": 0} {
		if n := tagApps(map[string]string{"namespace.resourcemaxapps": v}); n != want {
			t.Errorf("maxapps tag %q = %d, want %d", v, n, want)
		}
	}
}
