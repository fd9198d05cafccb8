package mesos

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// The rules' names. Decoding reports the first group itself (as Issues);
// the checks below report the rest.
const (
	ruleJSONSyntax        = "mesos-json-syntax"
	ruleTrailing          = "mesos-trailing-garbage"
	ruleWrongType         = "mesos-wrong-type"
	ruleEnumNumber        = "mesos-enum-number"
	ruleMissingField      = "mesos-missing-field"
	ruleObjectAnyOnly     = "mesos-object-any-or-none"
	ruleEndpointPath      = "mesos-endpoint-path"
	ruleUnknownKey        = "mesos-unknown-key"
	ruleDuplicateKey      = "mesos-duplicate-key"
	ruleTypeIgnored       = "mesos-type-ignored"
	ruleMatchesNothing    = "mesos-matches-nothing"
	ruleValuesIgnored     = "mesos-values-ignored"
	ruleUnreachable       = "mesos-unreachable-entry"
	ruleAgentsNeverMatch  = "mesos-agents-never-match"
	ruleRecursiveNotRole  = "mesos-recursive-not-role"
	rulePermissiveDefault = "mesos-permissive-default"
	ruleRecursiveSelf     = "mesos-recursive-excludes-role"
	rulePermissiveString  = "mesos-permissive-string"
)

// System is the system name Mesos' rules carry.
const System = "mesos"

// sourceDecode says where the findings of rules without a check come from.
const sourceDecode = "Decode: reading the --acls JSON as Mesos does (stout over picojson, then the protobuf conversion and LocalAuthorizer::validate), before any check runs"

// state is what Mesos' rules read.
type state struct {
	doc *Document
	a   *ACLs
}

// Rules are Mesos' rules, in the order they are documented: one list,
// built for whoever asks (the system, a lint run), never kept in a
// package variable.
func Rules() *engine.RuleList {
	return engine.NewRuleList(
		ruleMesosJSONSyntax(),
		ruleMesosTrailingGarbage(),
		ruleMesosWrongType(),
		ruleMesosEnumNumber(),
		ruleMesosMissingField(),
		ruleMesosObjectAnyOrNone(),
		ruleMesosEndpointPath(),
		ruleMesosUnknownKey(),
		ruleMesosDuplicateKey(),
		ruleMesosTypeIgnored(),
		ruleMesosMatchesNothing(),
		ruleMesosValuesIgnored(),
		ruleMesosUnreachableEntry(),
		ruleMesosAgentsNeverMatch(),
		ruleMesosRecursiveNotRole(),
		ruleMesosPermissiveDefault(),
		ruleMesosRecursiveExcludesRole(),
		ruleMesosPermissiveString(),
	)
}

// register makes a rule of Mesos: its check runs over the decoded ACLs;
// without one, Decode reports its findings.
func register(r *engine.Rule, check func(a *ACLs, report func(off int, msg, hint string))) *engine.Rule {
	r.System = System
	if check == nil {
		r.Source = sourceDecode
	} else {
		r.Check = engine.Typed(func(s *state, report func(engine.Finding)) {
			if s.doc.Root == nil || s.doc.Root.Kind != JSONObject {
				return
			}
			check(s.a, func(off int, msg, hint string) {
				report(engine.Finding{Rule: r.Name, Severity: r.Severity, Pos: s.doc.Pos(off), Message: msg, Hint: hint})
			})
		})
	}
	return r
}

// Lint checks one ACL file: every reason Mesos refuses to start with it,
// and everything it reads differently than written.
func Lint(d *Document) []engine.Finding {
	out, _ := lint(d)
	return out
}

// lint is Lint, and the ACLs it read (for the editor).
func lint(d *Document) ([]engine.Finding, *ACLs) {
	rules := Rules()
	a := Decode(d)
	var out []engine.Finding
	for _, is := range a.Issues {
		out = append(out, engine.Finding{Rule: is.Rule, Severity: rules.Lookup(is.Rule).Severity, Pos: d.Pos(is.Off), Message: is.Msg, Hint: is.Hint})
	}
	return engine.Run(rules.All(), &state{doc: d, a: a}, out...), a
}

// entities calls fn for every principals and object entity of every entry.
func (a *ACLs) entities(fn func(e *Entry, field string, en *Entity)) {
	for _, k := range Kinds {
		for _, e := range a.Lists[k.Key] {
			if e.Subject != nil {
				fn(e, Subject, e.Subject)
			}
			if e.Object != nil {
				fn(e, k.Object, e.Object)
			}
		}
	}
}

// ruleMesosJSONSyntax is the rule mesos-json-syntax.
func ruleMesosJSONSyntax() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleJSONSyntax,
		Severity: engine.Error,
		Summary:  "a file Mesos cannot read as JSON: a syntax error, nesting deeper than 200, a number out of range, or a top level that is not an object",
		Doc: "Mesos reads `--acls` with stout's JSON parser (picojson) and refuses to start when it fails: " +
			"`Failed to load flag 'acls': ...`. The parser takes standard JSON with a few differences: strings may hold any " +
			"byte except control characters, numbers may have leading zeros, keys may repeat (see " +
			"[mesos-duplicate-key](#mesos-duplicate-key)), and arrays and objects nest at most 200 deep. The message " +
			"quotes Mesos' own error, whose line is counted the way picojson counts it.",
		Bad:  "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}},\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ]\n}\n",
	}, nil)
}

// ruleMesosTrailingGarbage is the rule mesos-trailing-garbage.
func ruleMesosTrailingGarbage() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleTrailing,
		Severity: engine.Error,
		Summary:  "text after the JSON object",
		Doc: "The parser reads one value and stops; stout then requires that only blanks follow it, and Mesos refuses " +
			"to start with `Parsed JSON included non-whitespace trailing characters`. A stray closing brace after an " +
			"edit, or two objects pasted into one file, cause it.",
		Bad:  "{\n  \"permissive\": false,\n  \"view_flags\": [{\"principals\": {\"values\": [\"ops\"]}, \"flags\": {\"type\": \"ANY\"}}]\n}\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"view_flags\": [{\"principals\": {\"values\": [\"ops\"]}, \"flags\": {\"type\": \"ANY\"}}]\n}\n",
	}, nil)
}

// ruleMesosWrongType is the rule mesos-wrong-type.
func ruleMesosWrongType() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleWrongType,
		Severity: engine.Error,
		Summary:  "a value of a JSON type its field does not take: an entity that is a string, values that are numbers, permissive as a number or as a string that is not a boolean",
		Doc: "stout converts the JSON into Mesos' ACLs protobuf field by field and refuses a value of the wrong type " +
			"(`Not expecting a JSON string for field 'principals'`). Some mismatches pass: a single object where a list " +
			"of entries is expected, a single string for `values`, and `\"permissive\": \"false\"` (see " +
			"[mesos-permissive-string](#mesos-permissive-string)); those are not reported here.",
		Bad:  "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": \"ANY\", \"users\": {\"values\": [\"nobody\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"type\": \"ANY\"}, \"users\": {\"values\": [\"nobody\"]}}\n  ]\n}\n",
	}, nil)
}

// ruleMesosEnumNumber is the rule mesos-enum-number.
func ruleMesosEnumNumber() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleEnumNumber,
		Severity: engine.Error,
		Summary:  "an entity type written as a number",
		Doc: "The protobuf enum has numbers (SOME = 0, ANY = 1, NONE = 2), but the JSON parser takes only the names " +
			"and refuses to start on a number: `Not expecting a JSON number for field 'type'`.",
		Bad:  "{\n  \"permissive\": false,\n  \"get_endpoints\": [\n    {\"principals\": {\"values\": [\"ops\"]}, \"paths\": {\"type\": 1}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"get_endpoints\": [\n    {\"principals\": {\"values\": [\"ops\"]}, \"paths\": {\"type\": \"ANY\"}}\n  ]\n}\n",
	}, nil)
}

// ruleMesosMissingField is the rule mesos-missing-field.
func ruleMesosMissingField() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleMissingField,
		Severity: engine.Error,
		Summary:  "an entry without `principals` or without its object field (or with either set to null)",
		Doc: "Both fields of every entry are required in the protobuf, and Mesos refuses to start without them: " +
			"`Missing required fields: run_tasks[0].users`. A misspelled field name (`principal`, `user`) is the " +
			"usual cause; it is also reported by [mesos-unknown-key](#mesos-unknown-key). `null` counts as not set.",
		Bad:  "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"user\": {\"values\": [\"etl\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ]\n}\n",
	}, nil)
}

// ruleMesosObjectAnyOrNone is the rule mesos-object-any-or-none.
func ruleMesosObjectAnyOrNone() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleObjectAnyOnly,
		Severity: engine.Error,
		Summary:  "an object of type SOME, or with no type, in a kind whose object Mesos takes only as ANY or NONE",
		Doc: "For 21 kinds Mesos never builds a request object (logs, flags, log level, agents, maintenance " +
			"machines, standalone containers, resource providers, images): every request is about ANY object. " +
			"LocalAuthorizer::validate refuses a SOME object in these kinds (`ACL.ViewFlags type must be either NONE or " +
			"ANY`), and SOME is also what an object without `type`, or with a type Mesos does not know, is. " +
			"`mark_agents_gone` is the exception: it is not validated, see [mesos-agents-never-match](#mesos-agents-never-match).",
		Bad:  "{\n  \"permissive\": false,\n  \"view_flags\": [\n    {\"principals\": {\"values\": [\"ops\"]}, \"flags\": {\"values\": [\"--acls\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"view_flags\": [\n    {\"principals\": {\"values\": [\"ops\"]}, \"flags\": {\"type\": \"ANY\"}}\n  ]\n}\n",
	}, nil)
}

// ruleMesosEndpointPath is the rule mesos-endpoint-path.
func ruleMesosEndpointPath() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleEndpointPath,
		Severity: engine.Error,
		Summary:  "a `get_endpoints` path that Mesos cannot authorize",
		Doc: "`get_endpoints` covers six endpoints: " + strings.Join(AuthorizableEndpoints, ", ") + ". A SOME `paths` " +
			"entity naming anything else stops Mesos at start-up (`Path: '/state' is not an authorizable path`). " +
			"Mesos' documentation lists `/slave(id)/containers` and similar forms; the code refuses them.",
		Bad:  "{\n  \"permissive\": false,\n  \"get_endpoints\": [\n    {\"principals\": {\"values\": [\"ops\"]}, \"paths\": {\"values\": [\"/metrics/snapshot\", \"/slave(1)/monitor/statistics\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"get_endpoints\": [\n    {\"principals\": {\"values\": [\"ops\"]}, \"paths\": {\"values\": [\"/metrics/snapshot\", \"/monitor/statistics\"]}}\n  ]\n}\n",
	}, nil)
}

// ruleMesosUnknownKey is the rule mesos-unknown-key.
func ruleMesosUnknownKey() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleUnknownKey,
		Severity: engine.Warning,
		Summary:  "a key Mesos does not read, at any level: a misspelled kind or field, or an obsolete kind such as `get_weights`",
		Doc: "The JSON-to-protobuf conversion skips keys it does not know, silently, with everything under them; " +
			"Mesos' own code calls this out as a possible security issue. A misspelled kind leaves its entries out, " +
			"so permissive decides those requests instead. Keys of earlier Mesos versions are named with what " +
			"replaced them: `get_weights` (now `view_roles`), `shutdown_frameworks` (`teardown_frameworks`), " +
			"`set_quotas` and `remove_quotas` (`update_quotas`), `launch_standalone_container` and its siblings " +
			"(now plural) and `agent` in `register_agents` entries (`agents`). The nearest valid key is suggested.",
		Bad:  "{\n  \"permissive\": false,\n  \"run_task\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ],\n  \"run_tasks\": [\n    {\"principals\": {\"type\": \"ANY\"}, \"users\": {\"values\": [\"nobody\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}},\n    {\"principals\": {\"type\": \"ANY\"}, \"users\": {\"values\": [\"nobody\"]}}\n  ]\n}\n",
	}, nil)
}

// ruleMesosDuplicateKey is the rule mesos-duplicate-key.
func ruleMesosDuplicateKey() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleDuplicateKey,
		Severity: engine.Warning,
		Summary:  "a key written twice in one object: Mesos keeps only the last",
		Doc: "stout's JSON objects are maps: a repeated key replaces the earlier value without a word. Two " +
			"`run_tasks` lists are not merged; only the last one counts.",
		Bad:  "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ],\n  \"run_tasks\": [\n    {\"principals\": {\"type\": \"ANY\"}, \"users\": {\"values\": [\"nobody\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}},\n    {\"principals\": {\"type\": \"ANY\"}, \"users\": {\"values\": [\"nobody\"]}}\n  ]\n}\n",
	}, nil)
}

// ruleMesosTypeIgnored is the rule mesos-type-ignored.
func ruleMesosTypeIgnored() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleTypeIgnored,
		Severity: engine.Warning,
		Summary:  "an entity `type` that is not exactly `ANY`, `NONE` or `SOME`: Mesos drops it and the entity is SOME",
		Doc: "`type` is an optional enum, and the parser discards a name it does not know instead of failing. The " +
			"entity keeps the default, SOME, with whatever `values` it has; without values it matches no request " +
			"and its entry never applies. Names are case-sensitive, so `\"any\"` is dropped too. Mesos' own " +
			"documentation has `{\"type\": \"admin\"}` in an example meant to let only `admin` tear down frameworks.",
		Bad:  "{\n  \"permissive\": false,\n  \"teardown_frameworks\": [\n    {\"principals\": {\"type\": \"admin\"}, \"framework_principals\": {\"type\": \"ANY\"}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"teardown_frameworks\": [\n    {\"principals\": {\"values\": [\"admin\"]}, \"framework_principals\": {\"type\": \"ANY\"}}\n  ]\n}\n",
	}, func(a *ACLs, report func(int, string, string)) {
		a.entities(func(e *Entry, field string, en *Entity) {
			if en.Ignored == "" || (field != Subject && e.Kind.Rule == AnyOnly) {
				return // AnyOnly objects stop Mesos: mesos-object-any-or-none says why
			}
			msg := fmt.Sprintf("type %s is not a type Mesos knows (ANY, NONE, SOME): it is dropped, and %s of %s is SOME", quote(en.Ignored), field, e.Name())
			if len(en.Values) == 0 {
				msg += " with no values, which matches no request: the entry never applies"
			} else {
				msg += " with the values given"
			}
			hint := fmt.Sprintf(`write ANY, NONE or SOME; to name a principal, write {"values": [%s]}`, quote(en.Ignored))
			for _, t := range []string{"ANY", "NONE", "SOME"} {
				if strings.EqualFold(strings.TrimSpace(en.Ignored), t) {
					hint = fmt.Sprintf(`write "type": %s, in capitals`, quote(t))
				}
			}
			report(en.TypeNode.Off, msg, hint)
		})
	})
}

// ruleMesosMatchesNothing is the rule mesos-matches-nothing.
func ruleMesosMatchesNothing() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleMatchesNothing,
		Severity: engine.Warning,
		Summary:  "an entity of type SOME with no values: its entry matches no request",
		Doc: "A SOME entity matches a request whose value is among its values. A request always carries a value " +
			"(or is ANY, which SOME never matches), so an empty SOME entity, `{}` or `{\"values\": []}`, matches " +
			"nothing and the entry never decides. For role kinds Mesos even drops such an entry when it builds " +
			"its list.",
		Bad:  "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {}},\n    {\"principals\": {\"type\": \"ANY\"}, \"users\": {\"values\": [\"nobody\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"type\": \"ANY\"}},\n    {\"principals\": {\"type\": \"ANY\"}, \"users\": {\"values\": [\"nobody\"]}}\n  ]\n}\n",
	}, func(a *ACLs, report func(int, string, string)) {
		a.entities(func(e *Entry, field string, en *Entity) {
			if !en.MatchesNothing() || en.Ignored != "" || en.BadType || field != Subject && e.Kind.ImplicitObject() {
				return // bad and dropped types, and implicit objects, have their own rules
			}
			report(en.Node.Off, fmt.Sprintf("%s of %s is SOME with no values: it matches no request, so the entry never applies", field, e.Name()),
				`give it values, or {"type": "ANY"} for everyone`)
		})
	})
}

// ruleMesosValuesIgnored is the rule mesos-values-ignored.
func ruleMesosValuesIgnored() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleValuesIgnored,
		Severity: engine.Warning,
		Summary:  "`values` given with type ANY or NONE: Mesos ignores them",
		Doc: "An ANY entity matches everyone and a NONE entity matches everyone and refuses; the values beside " +
			"them do not narrow anything. For role kinds there is one more surprise: an ANY or NONE `roles` " +
			"entity with exactly one value ending in `/%` is taken as a recursive entry, which applies only to " +
			"roles under that value and allows them, even when the type is NONE.",
		Bad:  "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"type\": \"ANY\", \"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ]\n}\n",
	}, func(a *ACLs, report func(int, string, string)) {
		a.entities(func(e *Entry, field string, en *Entity) {
			if en.Type == SOME || len(en.Values) == 0 {
				return
			}
			msg := fmt.Sprintf("%s of %s is %s: its values are ignored and it matches every %s", field, e.Name(), en.Type, strings.TrimSuffix(field, "s"))
			if en.Type == NONE {
				msg += ", then refuses"
			}
			if field != Subject && recursiveValue(e.Kind, en) != "" {
				msg = fmt.Sprintf("%s of %s is %s with the single value %s: Mesos takes the entry as recursive, so it applies only to roles under %s and allows them, whatever the type",
					field, e.Name(), en.Type, quote(en.Values[0]), quote(strings.TrimSuffix(en.Values[0], "%")))
			}
			report(en.ValueNodes[0].Off, msg, fmt.Sprintf(`drop "type" to match only these values, or drop "values" to match every %s`, strings.TrimSuffix(field, "s")))
		})
	})
}

// ruleMesosUnreachableEntry is the rule mesos-unreachable-entry.
func ruleMesosUnreachableEntry() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleUnreachable,
		Severity: engine.Warning,
		Summary:  "an entry that can never decide: earlier entries of the same kind match every request it matches",
		Doc: "The local authorizer takes the first entry whose principals and object both match the request, and " +
			"that entry alone decides. An entry all of whose requests are matched by earlier entries never decides " +
			"anything. Mesos' documentation has the classic case: a NONE entry placed before the entry meant to " +
			"let one principal through. aclint decides this exactly, also when several earlier entries share the " +
			"cover, and for roles nested under `/%`.",
		Bad:  "{\n  \"permissive\": false,\n  \"teardown_frameworks\": [\n    {\"principals\": {\"type\": \"NONE\"}, \"framework_principals\": {\"type\": \"ANY\"}},\n    {\"principals\": {\"values\": [\"admin\"]}, \"framework_principals\": {\"type\": \"ANY\"}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"teardown_frameworks\": [\n    {\"principals\": {\"values\": [\"admin\"]}, \"framework_principals\": {\"type\": \"ANY\"}},\n    {\"principals\": {\"type\": \"NONE\"}, \"framework_principals\": {\"type\": \"ANY\"}}\n  ]\n}\n",
	}, func(a *ACLs, report func(int, string, string)) {
		all := a.unreachableAll()
		for _, k := range Kinds {
			for _, u := range all[k.Key] {
				names := make([]string, len(u.By))
				for i, b := range u.By {
					names[i] = fmt.Sprintf("%s (line %d)", b.Name(), a.Doc.Line(b.Node.Off))
				}
				by := strings.Join(names, " and ")
				what := "every request it matches is matched first by " + by
				report(u.Entry.Node.Off, fmt.Sprintf("%s can never decide: %s", u.Entry.Name(), what),
					fmt.Sprintf("move it before %s, or remove it", u.By[0].Name()))
			}
		}
	})
}

// ruleMesosAgentsNeverMatch is the rule mesos-agents-never-match.
func ruleMesosAgentsNeverMatch() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleAgentsNeverMatch,
		Severity: engine.Warning,
		Summary:  "a `mark_agents_gone` entry whose agents are SOME: it can never match",
		Doc: "Mesos asks about ANY agent for `mark_agents_gone`, whatever agent is marked gone, and ANY is never " +
			"matched by a SOME entity. Unlike the other kinds with this rule, start-up validation does not catch it, " +
			"so the entry is silently dead and permissive decides instead.",
		Bad:  "{\n  \"permissive\": false,\n  \"mark_agents_gone\": [\n    {\"principals\": {\"values\": [\"ops\"]}, \"agents\": {\"values\": [\"agent-7\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"mark_agents_gone\": [\n    {\"principals\": {\"values\": [\"ops\"]}, \"agents\": {\"type\": \"ANY\"}}\n  ]\n}\n",
	}, func(a *ACLs, report func(int, string, string)) {
		for _, e := range a.Lists["mark_agents_gone"] {
			if o := e.Object; o != nil && o.Type == SOME {
				report(o.Node.Off, fmt.Sprintf("agents of %s is SOME, but Mesos always asks about ANY agent for mark_agents_gone: the entry never applies", e.Name()),
					`use {"type": "ANY"}: the ACL cannot tell agents apart`)
			}
		}
	})
}

// ruleMesosRecursiveNotRole is the rule mesos-recursive-not-role.
func ruleMesosRecursiveNotRole() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleRecursiveNotRole,
		Severity: engine.Warning,
		Summary:  "a value ending in `/%` where it is not a role: it is a literal name there",
		Doc: "Only the `roles` of role kinds (register_frameworks, reserve_resources, create_volumes, quotas, " +
			"weights, view_roles, the disk kinds) read `x/%` as \"every role under x/\". In principals, users, paths " +
			"and the other objects it is compared as the exact string `x/%`, which no real request carries.",
		Bad:  "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl/%\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ]\n}\n",
	}, func(a *ACLs, report func(int, string, string)) {
		a.entities(func(e *Entry, field string, en *Entity) {
			if field != Subject && e.Kind.Rule == Role {
				return
			}
			for i, v := range en.Values {
				if strings.HasSuffix(v, "/%") {
					report(en.ValueNodes[i].Off, fmt.Sprintf("%s in %s of %s is the literal name %s: only roles read \"/%%\" as everything under a role", quote(v), field, e.Name(), quote(v)),
						"name each value, or use ANY")
				}
			}
		})
	})
}

// ruleMesosPermissiveDefault is the rule mesos-permissive-default.
func ruleMesosPermissiveDefault() *engine.Rule {
	return register(&engine.Rule{
		Name:     rulePermissiveDefault,
		Severity: engine.Info,
		Summary:  "`permissive` is true while a kind's entries restrict someone: every request no entry matches is still allowed",
		Doc: "`permissive` (true unless set) decides every request that no entry of its kind matches. Entries that " +
			"name who may do something therefore do not stop anyone else: `{\"principals\": {\"values\": [\"foo\"]}, ...}` " +
			"alone leaves every other principal allowed, as are unauthenticated requests. The finding names one " +
			"such request. End the list with an entry that refuses the rest, or set `\"permissive\": false` (and " +
			"then give every kind you use an entry, as Mesos' `acls_template.json` does).",
		Bad:  "{\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ]\n}\n",
		Good: "{\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}},\n    {\"principals\": {\"type\": \"ANY\"}, \"users\": {\"type\": \"NONE\"}}\n  ]\n}\n",
	}, func(a *ACLs, report func(int, string, string)) {
		if !a.Permissive {
			return
		}
		how := "permissive is true (the default)"
		if a.PermissiveNode != nil {
			how = fmt.Sprintf("permissive is true (line %d)", a.Doc.Line(a.PermissiveNode.Off))
		}
		for _, k := range Kinds {
			if !restricts(a.Lists[k.Key]) {
				continue
			}
			s, o, ok := a.fallThrough(k)
			if !ok {
				continue
			}
			report(a.KindKeys[k.Key].KeyOff, fmt.Sprintf("%s names who may, but %s: a request no entry matches is allowed, e.g. %s",
				k.Key, how, describeRequest(k, s, o)),
				fmt.Sprintf(`end the list with {"principals": {"type": "ANY"}, "%s": {"type": "NONE"}} to refuse the rest, or set "permissive": false`, k.Object))
		}
	})
}

// ruleMesosRecursiveExcludesRole is the rule mesos-recursive-excludes-role.
func ruleMesosRecursiveExcludesRole() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleRecursiveSelf,
		Severity: engine.Info,
		Summary:  "a role `x/%` without `x`: the role itself is not covered",
		Doc: "`x/%` covers the roles nested under `x` (`x/a`, `x/a/b`), not `x`. When the same principals are meant " +
			"to have `x` as well, list both.",
		Bad:  "{\n  \"permissive\": false,\n  \"reserve_resources\": [\n    {\"principals\": {\"values\": [\"ops\"]}, \"roles\": {\"values\": [\"eng/%\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"reserve_resources\": [\n    {\"principals\": {\"values\": [\"ops\"]}, \"roles\": {\"values\": [\"eng\", \"eng/%\"]}}\n  ]\n}\n",
	}, func(a *ACLs, report func(int, string, string)) {
		for _, k := range Kinds {
			if k.Rule != Role {
				continue
			}
			var covers map[string]*roleCover // built when a "/%" role is met
			for _, e := range a.Lists[k.Key] {
				if e.Object == nil || e.Subject == nil || e.Object.Type != SOME {
					continue
				}
				for i, v := range e.Object.Values {
					base := strings.TrimSuffix(v, "/%")
					if base == v || base == "" {
						continue
					}
					if covers == nil {
						covers = a.rolesBySubject(k)
					}
					if c := covers[e.Subject.key()]; c.all || c.roles[base] {
						continue
					}
					report(e.Object.ValueNodes[i].Off, fmt.Sprintf("%s covers the roles under %s, not %s itself, and no %s entry for the same principals names it", quote(v), quote(base+"/"), quote(base), k.Key),
						fmt.Sprintf("add %s to the roles if it is meant too", quote(base)))
				}
			}
		}
	})
}

// ruleMesosPermissiveString is the rule mesos-permissive-string.
func ruleMesosPermissiveString() *engine.Rule {
	return register(&engine.Rule{
		Name:     rulePermissiveString,
		Severity: engine.Info,
		Summary:  "`permissive` written as a string: Mesos reads `\"false\"` as the boolean",
		Doc: "stout parses a string given for a boolean field as JSON, so `\"permissive\": \"false\"` works in Mesos. " +
			"Other tools reading the file (and people) see a string, and a non-empty string is true in most " +
			"languages. A string that is not a JSON boolean stops Mesos: see [mesos-wrong-type](#mesos-wrong-type).",
		Bad:  "{\n  \"permissive\": \"false\",\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ]\n}\n",
		Good: "{\n  \"permissive\": false,\n  \"run_tasks\": [\n    {\"principals\": {\"values\": [\"etl\"]}, \"users\": {\"values\": [\"etl\"]}}\n  ]\n}\n",
	}, nil)
}

// restricts reports whether a list names who may (SOME principals) or
// refuses someone (a NONE entity): permissive then matters.
func restricts(entries []*Entry) bool {
	for _, e := range entries {
		if e.Subject == nil || e.Object == nil {
			continue
		}
		if e.Subject.Type != ANY || e.Object.Type == NONE {
			return true
		}
	}
	return false
}

// roleCover is what the entries of a kind with the same principals name.
type roleCover struct {
	all   bool // an ANY or NONE roles entity
	roles map[string]bool
}

// rolesBySubject collects, for each principals entity (as written), the
// roles the kind's entries with it name.
func (a *ACLs) rolesBySubject(k *Kind) map[string]*roleCover {
	out := map[string]*roleCover{}
	for _, e := range a.Lists[k.Key] {
		if e.Subject == nil || e.Object == nil {
			continue
		}
		key := e.Subject.key()
		c := out[key]
		if c == nil {
			c = &roleCover{roles: map[string]bool{}}
			out[key] = c
		}
		if e.Object.Type != SOME {
			c.all = true
		}
		for _, v := range e.Object.Values {
			c.roles[v] = true
		}
	}
	return out
}

// describeRequest renders a representative request in words.
func describeRequest(k *Kind, s, o point) string {
	var b strings.Builder
	switch {
	case s.any:
		b.WriteString("an unauthenticated request")
	case s.fresh:
		b.WriteString("a principal named nowhere in the list")
	default:
		b.WriteString("principal " + quote(s.name))
	}
	obj := strings.TrimSuffix(k.Object, "s")
	switch {
	case k.ImplicitObject():
	case o.any:
		b.WriteString(" asking about all " + k.Object)
	case o.fresh && o.name != "":
		fmt.Fprintf(&b, " with a %s under %s that the list does not name", obj, quote(o.name))
	case o.fresh:
		fmt.Fprintf(&b, " with a %s the list does not name", obj)
	default:
		fmt.Fprintf(&b, " with %s %s", obj, quote(o.name))
	}
	return b.String()
}
