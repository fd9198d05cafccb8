package yarn

import (
	"os"
	"path/filepath"

	"github.com/aclint/aclint/pkg/input"
)

// siteInfo is what decides whether the ACLs of a file count at all:
// yarn.acl.enable, from the file itself or the yarn-site.xml next to it.
type siteInfo struct {
	known, enabled bool
	from           *Property // the property that sets it; nil: the default
	file           string    // the yarn-site.xml read ("" when none)
}

// aclEnableFor reads yarn.acl.enable for a file's ACLs: the file's own
// property, else the yarn-site.xml in the same directory (where Hadoop's
// configuration directory keeps it). The neighbour is read only when it is
// a regular file within --max-input-size: never a FIFO, a device or a link.
func aclEnableFor(c *Conf, path string) siteInfo {
	if p, ok := c.Get(ACLEnableKey); ok {
		v, _ := javaBoolean(p.Value)
		return siteInfo{known: true, enabled: v, from: p, file: c.File}
	}
	if SiteFile(c) {
		// the file holds the ResourceManager's settings itself: unset
		// here is the default
		return siteInfo{known: true, file: c.File}
	}
	if path == "" || path == "-" || path == "<stdin>" {
		return siteInfo{}
	}
	site := filepath.Join(filepath.Dir(path), "yarn-site.xml")
	info, err := os.Lstat(site)
	if err != nil || !info.Mode().IsRegular() || info.Size() > input.MaxSize {
		return siteInfo{}
	}
	data, err := input.ReadFile(site)
	if err != nil {
		return siteInfo{}
	}
	sc, err := ReadConf(site, data)
	if err != nil || len(sc.Unknown) > 0 {
		return siteInfo{}
	}
	if p, ok := sc.Get(ACLEnableKey); ok {
		v, _ := javaBoolean(p.Value) // neither true nor false: the default, false
		return siteInfo{known: true, enabled: v, from: p, file: site}
	}
	return siteInfo{known: true, file: site} // DEFAULT_YARN_ACL_ENABLE: false
}
