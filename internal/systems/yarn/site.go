package yarn

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
)

// The ResourceManager's own configuration and the Capacity Scheduler's are
// two objects. The ResourceManager builds a YarnConfiguration (its
// resources: core-site.xml, yarn-site.xml) and hands it to
// QueueACLsManager and RMAppManager, which read yarn.acl.enable from it,
// and to AdminACLsManager (yarn.admin.acl). The Capacity Scheduler copies
// that configuration and adds capacity-scheduler.xml
// (CapacityScheduler.loadCapacitySchedulerConfiguration): the copy sees
// yarn-site.xml's yarn.scheduler.capacity.* keys, but the
// ResourceManager never sees capacity-scheduler.xml's keys. So
// yarn.acl.enable counts in yarn-site.xml and nowhere else.

// Names of Hadoop's configuration files, which say a file's part.
const (
	siteName = "yarn-site.xml"
	csName   = "capacity-scheduler.xml"
	coreName = "core-site.xml"
	fsName   = "fair-scheduler.xml"
)

// SiteFile reports whether a file is read as the ResourceManager's own
// configuration (yarn-site.xml), the only file yarn.acl.enable and
// yarn.admin.acl count in. Hadoop knows a file's part by its name, and so
// does aclint for yarn-site.xml, core-site.xml (loaded before it) and
// capacity-scheduler.xml; a file named otherwise is a yarn-site.xml when it
// sets a yarn. key that is not the Capacity Scheduler's.
func SiteFile(c *Conf) bool {
	switch filepath.Base(c.File) {
	case siteName, coreName:
		return true
	case csName:
		return false
	}
	for _, p := range c.Props {
		if strings.HasPrefix(p.Name, "yarn.") && !strings.HasPrefix(p.Name, CSPrefix) {
			return true
		}
	}
	return false
}

// rmOnlyKeys are read from the ResourceManager's configuration alone: set
// in capacity-scheduler.xml, they change nothing.
var rmOnlyKeys = []string{ACLEnableKey, AdminACLKey}

// siteInfo is what decides whether the ACLs of a file count at all:
// yarn.acl.enable, from the yarn-site.xml that goes with the file.
type siteInfo struct {
	known, enabled bool
	from           *Property // the property that sets it; nil: the default
	file           string    // the yarn-site.xml read ("" when none)
	why            string    // when not known and there was a reason beyond "none given"
	// conf is the yarn-site.xml read, when there is one: the Capacity
	// Scheduler's configuration starts from it, so its queue keys count
	conf *Conf
	// dir is the ResourceManager's configuration read with the file
	// (rmDir): core-site.xml, yarn-site.xml, capacity-scheduler.xml
	dir []*Conf
}

// aclEnableFor reads yarn.acl.enable for a file's ACLs: the file's own
// when it is the ResourceManager's configuration; else the yarn-site.xml
// linted with it (related: the run's other YARN inputs; the one in the
// same directory, or the only one); else the yarn-site.xml in the same
// directory, where Hadoop's configuration directory keeps it. That
// neighbour is read only when it is a regular file within --max-input-size:
// never a FIFO, a device or a link.
func aclEnableFor(c *Conf, path string, related []*engine.Input, opts engine.Options) siteInfo {
	if SiteFile(c) {
		if filepath.Base(c.File) == coreName {
			// core-site.xml: the yarn-site.xml read after it has the
			// last word on yarn.acl.enable
			if ys, _ := yarnSite(path, related, opts); ys != nil {
				si := siteOf(NewSetup([]*Conf{c, ys}).Conf)
				si.conf = c
				return si
			}
		}
		return siteOf(c)
	}
	sc, why := yarnSite(path, related, opts)
	if sc == nil {
		return siteInfo{why: why}
	}
	return siteOf(sc)
}

// yarnSite is the yarn-site.xml read with a file (configFile).
func yarnSite(path string, related []*engine.Input, opts engine.Options) (*Conf, string) {
	return configFile(path, siteName, related, opts)
}

// rmDir is the ResourceManager's configuration as it reads it with the
// file c: core-site.xml, yarn-site.xml and capacity-scheduler.xml, each c
// itself when c is that file, else the one read with it (configFile). A
// file that cannot be read as Hadoop reads it is left out.
func rmDir(c *Conf, path string, related []*engine.Input, opts engine.Options) []*Conf {
	self := filepath.Base(c.File)
	switch {
	case self == coreName || self == siteName || self == csName:
	case SiteFile(c):
		self = siteName
	default:
		self = csName
	}
	var dir []*Conf
	for _, name := range [...]string{coreName, siteName, csName} {
		if name == self {
			dir = append(dir, c)
		} else if f, _ := configFile(path, name, related, opts); f != nil {
			dir = append(dir, f)
		}
	}
	return dir
}

// configFile is the file called name read with a file: the one linted
// with it (in its directory, or the only one given), else the one beside
// it. nil with why when none can be told or read.
func configFile(path, name string, related []*engine.Input, opts engine.Options) (*Conf, string) {
	var given []*engine.Input
	for _, in := range related {
		if filepath.Base(in.Path) == name {
			given = append(given, in)
		}
	}
	dir := filepath.Dir(path)
	var pick *engine.Input
	for _, in := range given {
		if filepath.Dir(in.Path) == dir {
			pick = in
			break
		}
	}
	switch {
	case pick == nil && len(given) == 1:
		pick = given[0]
	case pick == nil && len(given) > 1:
		return nil, fmt.Sprintf("%d %s files are given and none is in its directory, so which one the ResourceManager reads with it is not known", len(given), name)
	}
	if pick != nil {
		sc, _ := pick.Memo("yarn.conf", func() any {
			sc, err := ReadConf(pick.Path, pick.Data)
			if err != nil {
				return (*Conf)(nil)
			}
			return sc
		}).(*Conf)
		if sc == nil || len(sc.Unknown) > 0 {
			return nil, pick.Path + " cannot be read as Hadoop reads it"
		}
		return sc, ""
	}
	return neighbour(path, name, opts)
}

// neighbour reads the file called name in path's directory, as Hadoop's
// configuration directory keeps the files together: only a regular file
// within --max-input-size, never a FIFO, a device or a link. nil with ""
// when there is none; nil with why when there is one aclint skipped.
func neighbour(path, name string, opts engine.Options) (*Conf, string) {
	max := opts.MaxSize
	if max <= 0 {
		max = input.DefaultMaxSize
	}
	if path == "" || path == "-" || path == "<stdin>" {
		return nil, ""
	}
	site := filepath.Join(filepath.Dir(path), name)
	info, err := os.Lstat(site)
	switch {
	case err != nil:
		return nil, ""
	case info.Mode()&os.ModeSymlink != 0:
		return nil, fmt.Sprintf("%s is a link, which aclint does not follow next to a linted file (it may lead out of the repository); it was skipped", site)
	case !info.Mode().IsRegular():
		return nil, fmt.Sprintf("%s is not a regular file (a FIFO, a device or a directory), so it was skipped", site)
	case info.Size() > max:
		return nil, fmt.Sprintf("%s is larger than --max-input-size (%s), so it was skipped", site, input.FormatSize(max))
	}
	data, err := input.ReadFile(site, max, opts.Seen)
	if err != nil {
		return nil, fmt.Sprintf("%s could not be read (%v)", site, err)
	}
	sc, err := ReadConf(site, data)
	if err != nil || len(sc.Unknown) > 0 {
		return nil, site + " cannot be read as Hadoop reads it"
	}
	return sc, ""
}

// csPartner is the capacity-scheduler.xml read with a yarn-site.xml: the
// one linted with it (in its directory, or the only one), else the one
// next to it. The Capacity Scheduler's configuration is the two together,
// so a queue ACL in yarn-site.xml is read for the queues that file lists.
func csPartner(path string, related []*engine.Input, opts engine.Options) *Conf {
	var given []*engine.Input
	for _, in := range related {
		if filepath.Base(in.Path) == csName {
			given = append(given, in)
		}
	}
	var pick *engine.Input
	for _, in := range given {
		if filepath.Dir(in.Path) == filepath.Dir(path) {
			pick = in
		}
	}
	if pick == nil && len(given) == 1 {
		pick = given[0]
	}
	if pick != nil {
		c, err := ReadConf(pick.Path, pick.Data)
		if err != nil || len(c.Unknown) > 0 {
			return nil
		}
		return c
	}
	c, _ := neighbour(path, csName, opts)
	return c
}

// siteOf is yarn.acl.enable as a yarn-site.xml sets it: its value as
// getBoolean reads it (neither true nor false: the default), or the
// default, false, when unset (YarnConfiguration.DEFAULT_YARN_ACL_ENABLE).
func siteOf(sc *Conf) siteInfo {
	p, ok := sc.Get(ACLEnableKey)
	if !ok {
		return siteInfo{known: true, file: sc.File, conf: sc}
	}
	// getBoolean: the value expanded over the ResourceManager's own
	// configuration (a chain too deep stops it: SubstitutionRefused)
	val, e := sc.Expand(p.Value)
	if e != Expanded {
		return siteInfo{file: sc.File, conf: sc, why: fmt.Sprintf("yarn.acl.enable in %s uses ${...}, which Configuration substitutes from settings aclint does not have", sc.File)}
	}
	v, _ := javaBoolean(val)
	return siteInfo{known: true, enabled: v, from: p, file: sc.File, conf: sc}
}
