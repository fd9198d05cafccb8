package commands

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/running"
	"github.com/aclint/aclint/internal/systems/yunikorn/why"
)

// whereSet is the config entry that sets a hold's limit, in one config.
type whereSet struct {
	Text     string `json:"entry"`
	Position string `json:"position"`
	// Figure is what the entry sets, in the scheduler's units; differs
	// says it is not the figure the scheduler applies
	Figure  int64 `json:"figure"`
	Differs bool  `json:"differs,omitempty"`
}

// setBy finds the entry of a config that sets h's limit; nil when the
// config sets none there (the scheduler's figure comes from elsewhere).
func setBy(a *limits.Answer, h *why.Hold) *whereSet {
	if a == nil || h.Cluster {
		return nil
	}
	for _, lv := range a.Levels {
		if !strings.EqualFold(lv.Queue, h.Queue) {
			continue
		}
		f := map[string]*limits.Figure{"user": lv.User, "group": lv.Group, "queue": lv.QueueOwn}[h.Who]
		if f == nil {
			return nil
		}
		if h.Limit == "maxapplications" {
			if f.MaxApplications == 0 || f.Source == nil {
				return nil
			}
			at := f.Source.At
			if f.Source.AppsAt != nil {
				at = *f.Source.AppsAt
			}
			return &whereSet{Text: describeField(f.Source, "maxapplications", at), Position: at.String(),
				Figure: int64(f.MaxApplications), Differs: int64(f.MaxApplications) != h.Max}
		}
		v, ok := f.MaxResources[h.Resource]
		src := f.ResourcesFrom()
		if !ok || src == nil {
			return nil
		}
		at := src.At
		if p, ok := src.ResAt[h.Resource]; ok {
			at = p
		}
		return &whereSet{Text: describeField(src, "resources.max", at), Position: at.String(), Figure: v, Differs: v != h.Max}
	}
	return nil
}

// holdText says one hold in a line.
func holdText(h *why.Hold) string {
	name, queue := running.Short(h.Name), running.Short(h.Queue)
	who := fmt.Sprintf("%s %s's", h.Who, name)
	switch {
	case h.Who == "group" && h.Name == "*":
		who = "the wildcard group's"
	case h.Who == "queue":
		who = fmt.Sprintf("queue %s's", queue)
	}
	if h.Cluster {
		return fmt.Sprintf("the cluster's capacity (root: what the nodes offer) of %s: %s allocated of %s, the ask needs %s (%s left)",
			h.Resource, why.Quantity(h.Resource, h.Used), why.Quantity(h.Resource, h.Max), why.Quantity(h.Resource, h.Need), why.Quantity(h.Resource, h.Max-h.Used))
	}
	if h.Limit == "maxapplications" {
		where := " in " + queue
		if h.Who == "queue" {
			where = ""
		}
		return fmt.Sprintf("%s maxapplications%s: %d of %d running%s, no more may start", who, where, h.Used, h.Max, holders(h.Holders))
	}
	where := " in " + queue
	if h.Who == "queue" {
		where = ""
	}
	return fmt.Sprintf("%s %s %s%s: %s used of %s, the ask needs %s (%s left)%s", who, h.Limit, running.Short(h.Resource), where,
		why.Quantity(h.Resource, h.Used), why.Quantity(h.Resource, h.Max), why.Quantity(h.Resource, h.Need), why.Quantity(h.Resource, h.Max-h.Used), holders(h.Holders))
}

func holders(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return " (" + someOf(l) + ")"
}

// someOf names the first ten of l, each shortened, and counts the rest.
func someOf(l []string) string {
	var b strings.Builder
	for i, s := range l {
		if i == 10 {
			fmt.Fprintf(&b, " and %d more", len(l)-10)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(running.Short(s))
	}
	return b.String()
}

// frees says what would free a hold.
func frees(h *why.Hold) string {
	ending := "one of its running applications ending"
	switch n := len(h.Holders); {
	case n == 1:
		ending = running.Short(h.Holders[0]) + " ending"
	case n > 1 && n <= 10:
		ending = "one of " + someOf(h.Holders) + " ending"
	}
	switch {
	case h.Cluster:
		return fmt.Sprintf("%s of %s freed by any application on the nodes, or nodes added", why.Quantity(h.Resource, h.Need-(h.Max-h.Used)), h.Resource)
	case h.Limit == "maxapplications":
		return fmt.Sprintf("%s, or the limit raised above %d", ending, h.Max)
	}
	name, queue := running.Short(h.Name), running.Short(h.Queue)
	by := fmt.Sprintf("%s's applications in %s", name, queue)
	switch {
	case h.Who == "group" && h.Name == "*":
		by = fmt.Sprintf("the applications the wildcard group counts in %s", queue)
	case h.Who == "group":
		by = fmt.Sprintf("group %s's applications in %s", name, queue)
	case h.Who == "queue":
		by = fmt.Sprintf("the applications in %s", queue)
	}
	return fmt.Sprintf("%s of %s freed by %s, or the limit raised to at least %s",
		why.Quantity(h.Resource, h.Need-(h.Max-h.Used)), h.Resource, by, why.Quantity(h.Resource, h.Used+h.Need))
}

// headline is the answer in one sentence.
func (r *whyRun) headline() string {
	a := r.ans
	app := a.App
	where := fmt.Sprintf("%s (user %s, groups [%s]) in %s, partition %s", running.Short(app.ID), running.Short(app.User), someOf(app.Groups), orNone(running.Short(app.Queue)), running.Short(app.Partition))
	switch a.State {
	case "running":
		return "running: " + where
	case "completed":
		return "completed: " + where + " ran and ended"
	case "runnable":
		return "runnable now: " + where + " is " + app.State + ", and no limit holds it: it waits for room on the nodes or its turn"
	case "rejected":
		return fmt.Sprintf("rejected: %s: the scheduler said %q", where, running.Short(app.RejectedMessage))
	case "failed":
		return "failed: " + where + " is " + app.State
	case "new":
		return "waiting: " + where + " is New"
	}
	n := len(a.Holds)
	return fmt.Sprintf("waiting: %s is %s, held by %d %s", where, app.State, n, clikit.Plural(n, "limit", "limits"))
}

func orNone(s string) string {
	if s == "" {
		return "no queue"
	}
	return s
}

// detail is every line under the headline, for text and markdown.
func (r *whyRun) detail() []string {
	var out []string
	switch r.tracked {
	case "":
	case "*":
		out = append(out, fmt.Sprintf("tracked under the wildcard group * (the scheduler's usage of %s says so): one tracker for every group it catches, so the applications of other users and groups count against its limits too", running.Short(r.ans.App.User)))
	default:
		out = append(out, fmt.Sprintf("tracked under group %s (the scheduler's usage of %s says so)", running.Short(r.tracked), running.Short(r.ans.App.User)))
	}
	for _, h := range r.ans.Holds {
		prefix := "held by "
		if r.ans.State == "running" {
			prefix = "its pending asks are held by "
		}
		out = append(out, prefix+holdText(h))
		if w := setBy(r.running, h); w != nil {
			line := "  set by " + w.Text + " in the config it runs"
			if w.Differs {
				line += fmt.Sprintf(" (which says %s: the scheduler applies %s)", why.Quantity(h.Resource, w.Figure), why.Quantity(h.Resource, h.Max))
			}
			out = append(out, line)
		}
		if w := setBy(r.file, h); w != nil {
			line := "  in your file: " + w.Text
			if w.Differs {
				line += fmt.Sprintf(", which sets %s where the scheduler applies %s: the file is not what runs (aclint drift)", why.Quantity(h.Resource, w.Figure), why.Quantity(h.Resource, h.Max))
			}
			out = append(out, line)
		}
		out = append(out, "  frees when: "+frees(h))
	}
	if e := r.ans.Event; e != nil {
		agree := "it agrees"
		if ok := r.ans.Agrees(); ok != nil && !*ok {
			agree = "it does not agree with the numbers above, which are newer than any event: events only confirm"
		}
		out = append(out, fmt.Sprintf("the scheduler's last event on it: %s at %s; %s", why.EventName(e.Detail), time.Unix(0, e.Time).UTC().Format(time.RFC3339), agree))
	}
	for _, n := range r.ans.Notes {
		out = append(out, "note: "+n)
	}
	return out
}

func writeWhy(w io.Writer, format string, r *whyRun) error {
	switch format {
	case "json":
		return clikit.WriteJSON(w, whyJSON(r))
	case "markdown":
		if _, err := engine.Fprintf(w, "**%s**\n\n", clikit.MDText(r.headline())); err != nil {
			return err
		}
		for _, l := range r.detail() {
			indent := ""
			if strings.HasPrefix(l, "  ") {
				indent = "  "
			}
			if _, err := engine.Fprintf(w, "%s- %s\n", indent, clikit.MDText(strings.TrimSpace(l))); err != nil {
				return err
			}
		}
		_, err := engine.Fprintf(w, "\nasked of %s\n", clikit.MDText(r.source))
		return err
	}
	if _, err := engine.Fprintf(w, "%s\n", r.headline()); err != nil {
		return err
	}
	for _, l := range r.detail() {
		if _, err := engine.Fprintf(w, "  %s\n", l); err != nil {
			return err
		}
	}
	return nil
}

// whyJSON is the answer as JSON: the same facts as the text.
func whyJSON(r *whyRun) any {
	a := r.ans
	app := a.App
	holds := []any{}
	for _, h := range a.Holds {
		o := clikit.Object{{Key: "who", Value: h.Who}, {Key: "name", Value: h.Name}, {Key: "queue", Value: h.Queue},
			{Key: "limit", Value: h.Limit}, {Key: "resource", Value: h.Resource}, {Key: "used", Value: h.Used},
			{Key: "max", Value: h.Max}, {Key: "need", Value: h.Need}, {Key: "holders", Value: nonNil(h.Holders)},
			{Key: "cluster", Value: h.Cluster}, {Key: "setBy", Value: setBy(r.running, h)}, {Key: "inFile", Value: setBy(r.file, h)},
			{Key: "frees", Value: frees(h)}}
		holds = append(holds, o)
	}
	var event any
	if e := a.Event; e != nil {
		event = map[string]any{"detail": e.Detail, "name": why.EventName(e.Detail), "time": time.Unix(0, e.Time).UTC().Format(time.RFC3339Nano), "agrees": a.Agrees()}
	}
	return clikit.Object{
		{Key: "answer", Value: a.State},
		{Key: "application", Value: map[string]any{"id": app.ID, "partition": app.Partition, "queue": app.Queue, "state": app.State,
			"user": app.User, "groups": nonNil(app.Groups), "trackedGroup": r.tracked, "rejectedMessage": app.RejectedMessage}},
		{Key: "holds", Value: holds},
		{Key: "event", Value: event},
		{Key: "notes", Value: nonNil(a.Notes)},
		{Key: "source", Value: r.source},
	}
}
