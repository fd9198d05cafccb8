// Package audit holds the questions every system may answer, in neutral
// types: a system loads its inputs into a model (Loader) and answers
// who-can (WhoCanner) and check (Checker) over it; the command line renders
// each answer once, whatever the system. A system implements the
// capabilities its question fits; the engine's System is the only one it
// must.
package audit

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// Model is a system's inputs loaded for questions, in the system's own
// types: only the system that loaded it reads it.
type Model any

// Loader is a System whose inputs can be loaded for questions. Load gets
// every input of the question (already read, each once) and returns the
// model, or a *Refused when the real system would not run them, or an
// error that says why the inputs answer nothing (exit 2).
type Loader interface {
	Load(inputs []*engine.Input, opts engine.Options) (Model, error)
}

// Refused is inputs the real system refuses (or cannot use): they answer
// no question. The command line prints the errors and exits 2.
type Refused struct {
	File     string
	Why      string // "Mesos refuses to start with these ACLs, so they answer no question"
	Command  string // the command that lists every finding: "aclint lint acls.json"
	Findings []engine.Finding
	Sources  map[string][]string
	// By names the system in sentences ("YuniKorn"); OnReload says what
	// the running system does when told to take these inputs in place of
	// the ones it runs ("YuniKorn keeps running the old config"), for a
	// diff whose NEW is refused; "" when not known.
	By, OnReload string
}

func (r *Refused) Error() string { return fmt.Sprintf("%s: %s", r.File, r.Why) }

// Question is what was asked: the words after the flags, and the flags
// every audit shares.
type Question struct {
	Words  []string
	Action string   // --action; "" when not given
	Groups []string // --groups: the groups the subject is in, when given
	// Queue is place's --queue: the queue the application asks for; ""
	// when it names none.
	Queue string
}

// Usage describes a question's words for one system: for help texts and
// the message of a question asked with the wrong number of words.
type Usage struct {
	Words   string // "ACTION OBJECT"
	Example string // "register_frameworks analytics"
	// Files are the -f flags of a typical question, for the help's
	// example: "-f acls.json"
	Files string
}

// WhoCanner is a Loader that lists who has access to one object.
type WhoCanner interface {
	Loader
	WhoCanUsage() Usage
	WhoCan(m Model, q Question) (*WhoCan, error)
}

// Grant is one subject's access and where it comes from.
type Grant struct {
	Kind string // "everyone", "user", "group", "principal", "anonymous"
	Name string // "*" for everyone
	// Object is what holds the rule that decides: a queue, a Cypress node,
	// an ACL list; Rule is the rule there: "submitacl",
	// "register_frameworks[2]", "ACE 1".
	Object, Rule string
	Inherited    bool // decided on an ancestor of the object asked about
	// Default is set when no written rule decides (a default, a
	// permissive authorizer); Pos is then empty.
	Default bool
	Pos     engine.Position
	// Note says where a grant with no position comes from: "root's
	// default, acl_submit_applications not set".
	Note string
	// Entry is the entry of the rule that decides as the system writes it
	// (YuniKorn: `user "deployer"`), for text; Kind and Name say it in JSON
	Entry string
}

// Dropped is a rule entry on the way that the system reads past.
type Dropped struct {
	Object, Rule, Kind, Name, Reason string
	Pos                              engine.Position
}

// WhoCan is who-can's answer, for every system.
type WhoCan struct {
	System string // the system's name, as --system names it
	Action string
	Object string
	// Title heads the text answer ("submit on root.a in partition
	// default"); How says how a grant that is not inherited applies ("on
	// the queue", "first match"); By names the system in sentences
	// ("YuniKorn"). UsersTitle and GroupsTitle head the text's lists
	// ("principals"; default users and groups); a GroupsTitle of "-" is a
	// system without groups.
	Title, How, By          string
	UsersTitle, GroupsTitle string
	// Everyone lists the rules that let everyone (or every subject not
	// named elsewhere) in; Users and Groups the named ones; Denied the
	// named subjects that are refused where everyone else is let in.
	Everyone, Users, Groups, Denied []Grant
	Dropped                         []Dropped
	// Preamble are lines the text output says before the lists (how a
	// queue that does not exist yet comes to be); Instead, when set, is
	// said in place of the lists (the lists still hold the grants, for
	// JSON and CSV).
	Preamble []string
	Instead  string
	// Incomplete says why the lists are not the whole answer: aclint
	// prints what it knows and exits 2.
	Incomplete string
	Notes      []string
	// Detail is the system's own part of the JSON answer, as key and value
	// pairs in order; nil when it has none.
	Detail []Field
}

// Field is one key and value of a JSON object, kept in order.
type Field struct {
	Key   string
	Value any
}

// Checker is a Loader that answers one access question with a verdict.
type Checker interface {
	Loader
	CheckUsage() Usage
	Check(m Model, q Question) (*Verdict, error)
}

// Verdict is check's answer, for every system.
type Verdict struct {
	System  string
	Allowed bool
	// Answer is the verdict's word: "allowed", "denied".
	Answer string
	// By is the rule that decided; nil when none did (a default).
	By *Grant
	// Why says in one sentence how the verdict came about.
	Why string
	// Unknown, when set, says why aclint cannot know the answer: Answer
	// is then "unknown" and the command exits 2.
	Unknown string
	Notes   []string
	Detail  []Field
	// Context are lines that say how the system read the question (the
	// request it built, where the groups came from), under the verdict.
	Context []string
	// Consulted are the rules read on the way, in order, when they say
	// why (a denial); ConsultedTitle heads them ("consulted, from the
	// queue up to root").
	Consulted      []Consulted
	ConsultedTitle string
	// Sections are further answers a flag asked for (YuniKorn's -v
	// limits), each a title and its lines; their JSON is in Detail.
	Sections []Section
}

// Consulted is one rule a check read on the way to its verdict.
type Consulted struct {
	// Object holds the rule, Rule names it there, Value is what it says
	// (Set false: not written, the system's default applies).
	Object, Rule, Value string
	Set                 bool
	// Pos is where the rule is written; for a rule not written, where
	// its Holder ("queue") is
	Pos    engine.Position
	Holder string
	// Result is what the rule did with the request.
	Result string
}

// Section is a titled block of text lines.
type Section struct {
	Title string
	Lines []string
}

// WordsChecker is a capability that tells a question's words are wrong
// before its inputs are loaded (loading may take long, or say things of
// its own): command is the shared command, words the words given.
type WordsChecker interface {
	CheckWords(command string, words []string) error
}

// Completer is a Loader that says what may come next in a question's
// words, for shell completion: the queues, principals, kinds, users,
// permissions or paths of the files named with -f. command is the shared
// command ("check", "who-can", "access"), words the words already given.
type Completer interface {
	Loader
	Complete(m Model, command string, words []string) []string
}

// ACLReader is how a system reads an ACL string, for another system's rule
// that compares two readings of the same value (YARN's
// yarn-acl-yunikorn-differs asks YuniKorn), so that neither system imports
// the other: the registry hands one to the other.
type ACLReader interface {
	ReadACL(value string) ACLReading
}

// ACLReading is one system's reading of an ACL string.
type ACLReading struct {
	// Refused says why the system refuses the value; FailsToLoad why it
	// accepts it and then fails to load the config.
	Refused, FailsToLoad string
	// Everyone: the value lets everyone in.
	Everyone bool
	Entries  []ACLEntry
}

// ACLEntry is one name of an ACL as a system reads it.
type ACLEntry struct {
	Group bool
	Name  string
	// Dropped says why the system drops the name; "" when it keeps it.
	Dropped string
}

// UsageError is a question whose words the system cannot read (a word
// too many, an action it does not have): the command line says how the
// system's question reads and exits 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef is a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}

// Hoverer is a System that explains what is under the cursor in the
// editor, from what its Lint parsed (engine.Report.Parsed): the language
// server asks it for every hover over its documents.
type Hoverer interface {
	// Hover explains the place at (its 1-based line and character
	// column); ok is false when there is nothing to say there.
	Hover(parsed any, at engine.Position) (h Hover, ok bool)
}

// Hover is Markdown about a span of a document: From to To, To just past
// its end.
type Hover struct {
	Markdown string
	From, To engine.Position
}

// Span is a stretch of a document: From to To, To just past its end
// (lines and character columns from 1).
type Span struct{ From, To engine.Position }

// SymbolKind says what a symbol is, in the editor's outline.
type SymbolKind int

// The kinds the systems use (the Language Server Protocol's numbers).
const (
	SymbolNamespace SymbolKind = 3
	SymbolPackage   SymbolKind = 4
	SymbolClass     SymbolKind = 5
	SymbolProperty  SymbolKind = 7
	SymbolField     SymbolKind = 8
	SymbolKey       SymbolKind = 20
)

// Symbol is one entry of a document's outline: a partition, a queue.
type Symbol struct {
	Name, Detail string
	Kind         SymbolKind
	// Range is all of it; Selection the part to show (its name).
	Range, Selection Span
	Children         []Symbol
}

// Navigator is a Hoverer that also outlines a document (the editor folds
// what spans more than a line) and goes from a reference to what it names.
type Navigator interface {
	Hoverer
	Symbols(parsed any, file string) []Symbol
	Definition(parsed any, at engine.Position) []Span
}

// WriteNotes ends a text answer with its notes, as every command's: a
// "notes:" line, then one "  - " line per note, made printable.
func WriteNotes(b *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	b.WriteString("notes:\n")
	for _, n := range notes {
		fmt.Fprintf(b, "  - %s\n", engine.Printable(n))
	}
}

// Gated is a question whose request never reaches the system's decision:
// something in front of it stops the request (YuniKorn's admission
// controller refuses a pod, or hands it to another scheduler). A listing
// (who-can, access) returns it as its error, and the command line says it
// in place of the listing; check and place say it as their own answer.
type Gated struct {
	// Answer is its word: "rejected", "not scheduled by YuniKorn".
	Answer string
	// Said is the reason as text says it; Reason the gate's own message,
	// as JSON gives it; Why what led there, when known.
	Said, Reason, Why string
	// Rejected: the request is refused (exit 1); otherwise what becomes
	// of it is not aclint's to know (exit 2).
	Rejected bool
	// WhoCan and Access, when set, are the head of the command's answer
	// the request was asked in: its JSON is that command's shape, with the
	// gate under detail (Fields).
	WhoCan *WhoCan
	Access *AccessHead
}

// Fields are the gate as a JSON answer's detail: admission (its word),
// reason and, when known, why.
func (g *Gated) Fields() []Field {
	fs := []Field{{Key: "admission", Value: g.Answer}, {Key: "reason", Value: g.Reason}}
	if g.Why != "" {
		fs = append(fs, Field{Key: "why", Value: g.Why})
	}
	return fs
}

func (g *Gated) Error() string { return g.Answer + ": " + g.Said }
