package commands

import (
	"fmt"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/resources"
)

// writeLimitsText writes the figures, the level that binds each, every
// level root first and the notes.
func writeLimitsText(w io.Writer, a *limits.Answer) error {
	var b strings.Builder
	if a.SubmitAllowed != nil && !*a.SubmitAllowed {
		// first: whatever the figures say, none of them ever applies
		engine.Fprintf(&b, "denied: %s may not submit to %s, so YuniKorn rejects the application and none of these limits ever applies (aclint check %s %s%s says why)\n",
			engine.Printable(a.User), a.Queue, a.Queue, engine.Printable(a.User), engine.Printable(acl.AskPartition(a.Partition)))
	}
	engine.Fprintf(&b, "%s in %s (partition %s)\n", engine.Printable(a.User), a.Queue, engine.Printable(a.Partition))
	engine.Fprintf(&b, "  groups: %s", limitsList(a.Groups))
	if a.GroupsSource != "" {
		engine.Fprintf(&b, " (%s)", engine.Printable(a.GroupsSource))
	}
	b.WriteString("\n")
	writeLimitsFigures(&b, a, "  ")
	b.WriteString("\nby level, root first:\n")
	for _, lv := range a.Levels {
		engine.Fprintf(&b, "  %s", lv.Queue)
		if lv.Dynamic {
			b.WriteString(" (created by placement)")
		}
		b.WriteString("\n")
		any := false
		for _, x := range []struct {
			who string
			f   *limits.Figure
		}{{"user", lv.User}, {"group", lv.Group}, {"queue", lv.QueueOwn}} {
			if x.f == nil {
				continue
			}
			any = true
			engine.Fprintf(&b, "    %-5s  %s: %s\n", x.who, figureText(x.f), describeSource(x.f.Source, x.f.Source.At))
			if x.f.ResSource != nil {
				engine.Fprintf(&b, "    %-5s  resources from %s\n", "", describeSource(x.f.ResSource, x.f.ResSource.At))
			}
		}
		if !any {
			b.WriteString("    no limit\n")
		}
	}
	audit.WriteNotes(&b, a.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeLimitsFigures writes the tracked group and the two figures with the
// entry that sets each: the head of limits' answer, and what place and
// check -v add.
func writeLimitsFigures(b *strings.Builder, a *limits.Answer, indent string) {
	switch {
	case a.TrackedGroup == "*":
		engine.Fprintf(b, indent+"tracked group: * (the wildcard group limit of %s)\n", a.TrackedAt)
	case a.Tracked:
		engine.Fprintf(b, indent+"tracked group: %s (matched on %s)\n", engine.Printable(a.TrackedGroup), a.TrackedAt)
	default:
		b.WriteString(indent + "tracked group: none\n")
	}
	if a.MaxApplications == 0 {
		b.WriteString(indent + "max applications: no limit\n")
	} else {
		f := a.AppsBound.Figure
		engine.Fprintf(b, indent+"max applications: %d, set by %s\n", a.MaxApplications, describeField(f.Source, "maxapplications", appsAt(f.Source)))
	}
	if a.MaxResources == nil {
		b.WriteString(indent + "max resources: no limit\n")
	} else {
		for i, k := range a.MaxResources.Names() {
			label := indent + "max resources:"
			if i > 0 {
				label = strings.Repeat(" ", len(label))
			}
			src := a.ResBound[k].Figure.ResourcesFrom()
			engine.Fprintf(b, "%s %s, set by %s\n", label, quantity(k, a.MaxResources[k]), describeField(src, "resources.max", resAt(src, k)))
		}
	}
}

func figureText(f *limits.Figure) string {
	var parts []string
	if f.MaxApplications != 0 {
		parts = append(parts, fmt.Sprintf("%d %s", f.MaxApplications, pluralWord(int(f.MaxApplications), "application", "applications")))
	}
	for _, k := range f.MaxResources.Names() {
		parts = append(parts, quantity(k, f.MaxResources[k]))
	}
	return strings.Join(parts, ", ")
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// quantity says a resource as queues.yaml writes it, next to YuniKorn's
// internal figure (10Gi (10737418240 bytes)).
func quantity(name string, v int64) string {
	return engine.Printable(name) + " " + resources.Describe(name, v)
}

// describeSource says which config entry sets a figure, and where.
func describeSource(s *limits.Source, at engine.Position) string {
	var what string
	switch s.Kind {
	case limits.KindUser:
		what = fmt.Sprintf("limit %s for user %s on %s", engine.Quote(s.Limit), engine.Printable(s.Name), engine.Printable(s.Queue))
	case limits.KindUserWildcard:
		what = fmt.Sprintf("limit %s for users * on %s", engine.Quote(s.Limit), engine.Printable(s.Queue))
	case limits.KindGroup:
		what = fmt.Sprintf("limit %s for group %s on %s", engine.Quote(s.Limit), engine.Printable(s.Name), engine.Printable(s.Queue))
	case limits.KindGroupWildcard:
		what = fmt.Sprintf("limit %s for groups * on %s", engine.Quote(s.Limit), engine.Printable(s.Queue))
	case limits.KindQueue:
		what = fmt.Sprintf("queue %s's own limits", s.Queue)
	case limits.KindTemplate:
		what = fmt.Sprintf("the childtemplate of %s", s.Queue)
	case limits.KindTag:
		return fmt.Sprintf("the request's tag %s", s.Name)
	}
	return fmt.Sprintf("%s (%s)", what, at)
}

// describeField is describeSource for one figure: a queue's own limit is
// its maxapplications or its resources.max.
func describeField(s *limits.Source, field string, at engine.Position) string {
	if s.Kind == limits.KindQueue {
		return fmt.Sprintf("queue %s's %s (%s)", s.Queue, field, at)
	}
	if s.Kind == limits.KindTemplate && field == "resources.max" {
		return fmt.Sprintf("the childtemplate of %s, resources.max (%s)", s.Queue, at)
	}
	return describeSource(s, at)
}

func appsAt(s *limits.Source) engine.Position {
	if s.AppsAt != nil {
		return *s.AppsAt
	}
	return s.At
}

func resAt(s *limits.Source, k string) engine.Position {
	if p, ok := s.ResAt[k]; ok {
		return p
	}
	return s.At
}

func limitsList(s []string) string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = engine.Printable(v)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// limitsJSON is the answer as -o json writes it: the figures with null for
// no limit, the entry that binds each, and every level.
func limitsJSON(a *limits.Answer) any {
	var tracked any
	if a.Tracked {
		tracked = a.TrackedGroup
	}
	var apps, res any
	setBy := clikit.Object{}
	if a.MaxApplications != 0 {
		apps = a.MaxApplications
		setBy = append(setBy, clikit.Field{Key: "maxApplications", Value: boundJSON(a.AppsBound, a.AppsBound.Figure.Source, appsAt(a.AppsBound.Figure.Source))})
	}
	if a.MaxResources != nil {
		res = map[string]int64(a.MaxResources)
		by := clikit.Object{}
		for _, k := range a.MaxResources.Names() {
			src := a.ResBound[k].Figure.ResourcesFrom()
			by = append(by, clikit.Field{Key: k, Value: boundJSON(a.ResBound[k], src, resAt(src, k))})
		}
		setBy = append(setBy, clikit.Field{Key: "maxResources", Value: by})
	}
	levels := make([]any, 0, len(a.Levels))
	for _, lv := range a.Levels {
		var ls []any
		for _, x := range []struct {
			who string
			f   *limits.Figure
		}{{"user", lv.User}, {"group", lv.Group}, {"queue", lv.QueueOwn}} {
			if x.f != nil {
				ls = append(ls, figureJSON(x.who, x.f))
			}
		}
		if ls == nil {
			ls = []any{}
		}
		levels = append(levels, clikit.Fields("queue", lv.Queue, "dynamic", lv.Dynamic, "limits", ls))
	}
	groups := a.Groups
	if groups == nil {
		groups = []string{}
	}
	notes := a.Notes
	if notes == nil {
		notes = []string{}
	}
	var submit any // null: not known
	if a.SubmitAllowed != nil {
		submit = *a.SubmitAllowed
	}
	return clikit.Fields("partition", a.Partition, "queue", a.Queue, "user", a.User, "submitAllowed", submit, "groups", groups,
		"trackedGroup", tracked, "trackedGroupAt", clikit.NullIfEmpty(a.TrackedAt),
		"maxApplications", apps, "maxResources", res, "setBy", setBy, "levels", levels, "notes", notes)
}

func boundJSON(b *limits.Bound, s *limits.Source, at engine.Position) any {
	return clikit.Fields("level", b.Level, "applies", b.Who, "source", sourceJSON(s, at))
}

func figureJSON(who string, f *limits.Figure) any {
	var apps, res any
	if f.MaxApplications != 0 {
		apps = f.MaxApplications
	}
	if f.MaxResources != nil {
		res = map[string]int64(f.MaxResources)
	}
	o := clikit.Fields("applies", who, "maxApplications", apps, "maxResources", res, "source", sourceJSON(f.Source, f.Source.At))
	if f.ResSource != nil {
		o = append(o, clikit.Field{Key: "resourcesSource", Value: sourceJSON(f.ResSource, f.ResSource.At)})
	}
	return o
}

func sourceJSON(s *limits.Source, at engine.Position) any {
	o := clikit.Fields("kind", string(s.Kind), "partition", s.Partition)
	if s.Kind == limits.KindTag {
		return append(o, clikit.Field{Key: "tag", Value: s.Name})
	}
	o = append(o, clikit.Field{Key: "queue", Value: s.Queue})
	if s.Limit != "" || s.Kind != limits.KindQueue && s.Kind != limits.KindTemplate {
		o = append(o, clikit.Fields("limit", s.Limit, "name", s.Name)...)
	}
	return append(o, clikit.Field{Key: "position", Value: at.String()})
}
