package yarn

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// PlaceUsage is how a YARN place question reads (audit.Placer).
func (Sys) PlaceUsage() audit.Usage {
	return audit.Usage{Words: "USER", Example: "alice --groups dev,etl", Files: "-f capacity-scheduler.xml -f yarn-site.xml"}
}

// AppNameValue is the engine.Options key of place's --app-name, which
// YARN's part of place registers: the application's name, which a: mappings
// and %application read.
const AppNameValue = "yarn.app-name"

// Extend is YARN's part of the shared commands: place's --app-name.
func (Sys) Extend(command string, env clikit.Env) *clikit.Extension {
	if command != "place" {
		return nil
	}
	var app string
	var c *cobra.Command
	return &clikit.Extension{
		Flags: func(cmd *cobra.Command) {
			c = cmd
			cmd.Flags().StringVar(&app, "app-name", "", "YARN: the application's name, which a: mappings and %application read")
		},
		Values: func() map[string]string {
			return map[string]string{AppNameValue: app, AppNameValue + "-set": fmt.Sprint(c.Flags().Changed("app-name"))}
		},
		Foreign: func(system string) error {
			if c.Flags().Changed("app-name") {
				return env.Usage("--app-name names a YARN application for its placement rules; a %s question takes none", system)
			}
			return nil
		},
	}
}

// groupsFrom says where a place answer's groups come from.
func groupsFrom(given bool) string {
	if !given {
		return "--groups not given: the answer is for a user in no group; give the groups as Hadoop's group mapping lists them, the primary group first"
	}
	return "--groups, in order, as Hadoop's group mapping would give them: the first is the primary group"
}

// Place answers where the ResourceManager puts an application of the
// user (audit.Placer): the scheduler's placement rules, the queue checks
// and the submit ACLs, with the rule that chose the queue.
func (Sys) Place(m audit.Model, q audit.Question) (*audit.Placement, error) {
	s := m.(*Setup)
	words := q.Words
	if len(words) == 2 && words[0] == "default" {
		words = words[1:] // YuniKorn's partition: YARN has one
	}
	if len(words) != 1 {
		return nil, audit.Usagef("a YARN place names a user (YARN queues have no partitions)")
	}
	req := PlaceRequest{User: words[0], Groups: q.Groups, Queue: q.Queue, App: s.appName, NoApp: !s.appNameGiven}
	if s.FS {
		return s.placeAnswer(nil, req, s.PlaceFS(req), q.Groups != nil), nil
	}
	pl, r := s.StartPlacement()
	if r != nil {
		// Load refuses these files first; kept for a Setup built otherwise
		return nil, fmt.Errorf("the Capacity Scheduler refuses to start with these placement rules: %q", r.Message)
	}
	p := s.PlaceCS(pl, req)
	return s.placeAnswer(pl, req, p, q.Groups != nil), nil
}

// placeAnswer is a Capacity Scheduler placement in the shape every
// system's place has.
func (s *Setup) placeAnswer(pl *CSPlacement, req PlaceRequest, p *Placement, groupsGiven bool) *audit.Placement {
	out := &audit.Placement{System: System, Placed: p.Placed, Queue: p.Queue, Created: p.Created, CreatedUnder: p.CreatedUnder,
		User: req.User, Groups: req.Groups, GroupsFrom: groupsFrom(groupsGiven), Requested: req.Queue, Rule: -1,
		Reason: p.Reason, Unknown: p.Unknown, Notes: p.Notes}
	if req.App != "" {
		out.Request = append(out.Request, "application name "+req.App)
	}
	switch {
	case pl == nil || pl.Unknown != "":
	case len(pl.Rules) == 0:
		out.Before = append(out.Before, "no mapping rules: "+QueueMappingKey+" and the JSON rules are not set")
	case pl.JSON && len(pl.Rules) > 0 && pl.Rules[0].From != nil && pl.Rules[0].From.Name == ruleJSONFileKey:
		out.Before = append(out.Before, "mapping rules: the JSON rules of "+pl.Rules[0].From.File+" ("+ruleFormatKey+" is json, "+ruleJSONFileKey+" names it)")
	case pl.JSON:
		out.Before = append(out.Before, "mapping rules: the JSON rules ("+ruleFormatKey+" is json)")
	}
	for _, st := range p.Steps {
		ps := audit.PlaceStep{Index: st.Index, Rule: st.Rule, Pos: propPos(st.From), Result: st.Result, Queue: st.Queue, Reason: st.Reason}
		out.Steps = append(out.Steps, ps)
	}
	if p.By == "rule" && len(out.Steps) > 0 {
		out.Rule = len(out.Steps) - 1
	}
	if p.Unknown == "" && p.Stage != "mapping" {
		asked := req.Queue
		if asked == "" {
			asked = "default (the client sends it when the application names no queue)"
		}
		if p.By != "rule" && pl != nil {
			out.After = append(out.After, "no rule chose a queue: the queue asked for, "+asked+", is used")
		}
	}
	out.Submit = s.placeSubmit(p, req)
	out.Notes = append(out.Notes, s.tagPlacementNote()...)
	out.Answer = "rejected"
	switch {
	case p.Unknown != "":
		out.Answer = "unknown"
	case p.Placed:
		out.Answer = "placed"
	}
	stage := p.Stage
	if p.Placed || p.Unknown != "" {
		stage = ""
	}
	if pl == nil {
		out.Detail = []audit.Field{{Key: "scheduler", Value: "fair"}, {Key: "stage", Value: stage}}
		return out
	}
	out.Detail = []audit.Field{{Key: "scheduler", Value: "capacity"}, {Key: "applicationName", Value: req.App},
		{Key: "override", Value: pl.Override}, {Key: "jsonRules", Value: pl.JSON}, {Key: "stage", Value: stage},
		{Key: "aclTemplate", Value: p.ACLTemplate}}
	return out
}

// tagPlacementKey lets an application's userid tag choose the user it is
// placed as (RMAppManager.getUserNameForPlacement).
const tagPlacementKey = "yarn.resourcemanager.application-tag-based-placement.enable"

// tagPlacementNote says, when the ResourceManager places by application
// tags, that the answer is for an application without a userid tag.
func (s *Setup) tagPlacementNote() []string {
	conf := s.Conf
	if s.FS {
		conf = s.site
	}
	if conf == nil {
		return nil
	}
	p, ok := conf.Get(tagPlacementKey)
	if !ok || !p.HasValue {
		return nil
	}
	v, e := conf.Expand(p.Value)
	if b, _ := javaBoolean(v); !b && e == Expanded {
		return nil
	}
	return []string{fmt.Sprintf("%s is %q (%s:%d:%d): an application that carries a userid=NAME tag is placed as NAME when its submitter is in the whitelist and may submit to NAME's queue; this answer is for an application without one", tagPlacementKey, p.Value, p.File, p.ValuePos.Line, p.ValuePos.Col)}
}

// placeSubmit is the submit check a placement made, as check gives it;
// nil when none was made.
func (s *Setup) placeSubmit(p *Placement, req PlaceRequest) *audit.Verdict {
	if p.ACL == nil {
		if s.Known && !s.ACLEnable && (p.Placed || p.Stage != "mapping") && p.Unknown == "" {
			q := p.Queue
			if q == "" {
				q = req.Queue
			}
			qu := &Queue{Path: q}
			if e := s.CS.ByPath[q]; e != nil {
				qu = e
			}
			return s.verdict(qu, req.User, req.Groups, Submit, Answer{Queue: qu, ACLsOff: true, Allowed: true, Known: true})
		}
		return nil
	}
	ans := *p.ACL
	q := ans.Queue
	if q == nil {
		// a queue created at submission: checked by its path, against the
		// ACLs above it and its templates
		q = &Queue{Path: p.Queue}
		if q.Path == "" {
			q.Path = req.Queue
		}
		ans.Queue = q
	}
	if p.ACLTemplate != "" {
		v := &audit.Verdict{System: System, Allowed: true, Answer: "allowed",
			Why: fmt.Sprintf("%s may submit to %s, which is created at submission", req.User, q.Path)}
		g := audit.Grant{Kind: "template", Name: p.ACLTemplate, Object: q.Path, Rule: p.ACLTemplate, Entry: "the template ACL of the queue created"}
		if prop, ok := s.Conf.Get(p.ACLTemplate); ok {
			g.Pos = propPos(prop)
		} else {
			g.Default, g.Note = true, "the template's default"
		}
		v.By = &g
		return v
	}
	return s.verdict(q, req.User, req.Groups, Submit, ans)
}

// propPos is where a property's value is written; empty for none.
func propPos(p *Property) engine.Position {
	if p == nil {
		return engine.Position{}
	}
	return engine.Position{File: p.File, Line: p.ValuePos.Line, Col: p.ValuePos.Col}
}
