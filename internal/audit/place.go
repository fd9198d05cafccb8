package audit

import "github.com/aclint/aclint/internal/engine"

// Placer is a Loader that answers where the system places an application:
// the queue its placement rules choose (and whether it is created), or why
// the application is rejected, and the submit check on that queue.
// Question.Words are the system's (a user; YuniKorn's partition and
// user), Question.Queue the queue the application asks for and
// Question.Groups the user's groups, the first the primary group.
type Placer interface {
	Loader
	PlaceUsage() Usage
	Place(m Model, q Question) (*Placement, error)
}

// Placement is place's answer, for every system.
type Placement struct {
	System string
	// Answer is the answer's word: "placed", "rejected", or what stops
	// the application before placement ("not scheduled by YuniKorn");
	// "unknown" when Unknown is set.
	Answer string
	Placed bool
	// Queue is the queue's full path when placed; Created says the
	// scheduler creates it, under CreatedUnder.
	Queue        string
	Created      bool
	CreatedUnder string
	// User and Groups are the application's, as the system's placement
	// sees them; GroupsFrom says where the groups come from ("--groups,
	// in order: the first is the primary group").
	User       string
	Groups     []string
	GroupsFrom string
	// Requested is the queue the application asks for; "" when none.
	Requested string
	// Request are further parts of the application, said after its queue
	// ("tags namespace=a", "in partition default").
	Request []string
	// Context are lines said under the application (where a pod's
	// identity comes from); Before lines before the rules ("no rules:
	// ..."), After lines after them ("fallback: ...").
	Context, Before, After []string
	// Steps are the placement rules in the order they ran.
	Steps []PlaceStep
	// Rule is the index in Steps of the rule that chose the queue; -1
	// when none did (the queue asked for, a fallback).
	Rule int
	// Submit is the submit check on the queue, as check gives it; nil
	// when none is made. A denial that rejects the application is also
	// listed under the reason.
	Submit *Verdict
	// Reason says why the application is rejected.
	Reason string
	// Unknown says why aclint cannot know the answer: exit 2.
	Unknown string
	// Sections are further answers (the limits on the queue).
	Sections []Section
	Notes    []string
	// Detail is the system's own part of the JSON answer.
	Detail []Field
}

// PlaceStep is what one placement rule did with the application.
type PlaceStep struct {
	Index int    // from 1
	Rule  string // as the system names it: "provided", "u:%user:%user"
	Pos   engine.Position
	// Result is what the rule did: "placed", "no match", "next rule",
	// "rejected", "skipped".
	Result string
	Queue  string
	Reason string
	// Filter is the rule's filter, when it has one and Reason does not
	// say it.
	Filter string
	// Denied is the submit check that sent the application on to the
	// next rule, when one did.
	Denied *Verdict
}

// Code is the exit code of a placement: 0 placed, 1 rejected, 2 not
// known.
func (p *Placement) Code() int {
	switch {
	case p.Unknown != "":
		return 2
	case p.Placed:
		return 0
	}
	return 1
}
