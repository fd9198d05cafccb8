package convert

import (
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/safewrite"
)

// convert's -o is as lint's: FORMAT for standard output, FORMAT=PATH for
// a file, repeatable. yaml is the converted queues.yaml; json the whole
// answer for scripts: the config, every difference and what is not
// converted. A value that names no format and has no "=" is a path for
// the yaml (what -o meant before issue 55), kept for the scripts that use
// it.

// outputFormats are convert's -o formats.
var outputFormats = []string{"yaml", "json"}

// target is one -o: a format and its file ("" for standard output).
type target struct{ format, path string }

// parseTargets reads the -o values; with none, the yaml goes to standard
// output.
func parseTargets(values []string) ([]target, error) {
	var out []target
	stdout := 0
	for _, v := range values {
		format, path, hasPath := strings.Cut(v, "=")
		known := format == "yaml" || format == "json"
		switch {
		case !known && !hasPath:
			out = append(out, target{"yaml", v}) // a path, as -o was once
			continue
		case !known:
			return nil, clikit.Usage("invalid -o %q: formats are %s, optionally FORMAT=PATH", v, strings.Join(outputFormats, ", "))
		case hasPath && path == "":
			return nil, clikit.Usage("invalid -o %q: give the file after =", v)
		case !hasPath:
			if stdout++; stdout > 1 {
				return nil, clikit.Usage("-o gives standard output one format only: write the others with FORMAT=PATH")
			}
		}
		out = append(out, target{format, path})
	}
	if len(out) == 0 {
		out = []target{{"yaml", ""}}
	}
	return out, nil
}

// write writes the result to each target.
func (t target) write(env clikit.Env, res *Result) error {
	body := func(w io.Writer) error {
		if t.format == "json" {
			return clikit.WriteJSON(w, resultJSON(res))
		}
		_, err := w.Write(res.YAML)
		return err
	}
	if t.path == "" || t.path == "-" {
		if err := body(env.Out()); err != nil {
			return clikit.Usage("writing output: %w", err)
		}
		return nil
	}
	if err := safewrite.Output(t.path, env.Seen(), body); err != nil {
		return clikit.Usage("writing %s: %w", t.path, err)
	}
	return nil
}

// resultJSON is convert's JSON answer (schema/convert.schema.json).
func resultJSON(res *Result) clikit.Object {
	type access struct {
		Queue     string `json:"queue"`
		Action    string `json:"action"`
		Principal string `json:"principal"`
		YARN      bool   `json:"yarn"`
		YuniKorn  bool   `json:"yunikorn"`
		Why       string `json:"why"`
	}
	type place struct {
		User      string   `json:"user"`
		Groups    []string `json:"groups"`
		Requested string   `json:"requested"`
		YARN      string   `json:"yarn"`
		YuniKorn  string   `json:"yunikorn"`
		Like      int      `json:"like"`
	}
	acc := []access{}
	for _, d := range res.Differences {
		acc = append(acc, access{d.Queue, d.Action.String(), d.Principal, d.YARN, d.YuniKorn, strings.TrimPrefix(d.Why, " ")})
	}
	pl := []place{}
	for _, d := range res.Placement {
		pl = append(pl, place{d.User, clikit.NonNil(d.Groups), d.Requested, d.YARN, d.YuniKorn, d.Like})
	}
	return clikit.Object{
		{Key: "same", Value: len(res.Differences) == 0 && len(res.Placement) == 0},
		{Key: "config", Value: string(res.YAML)},
		{Key: "access", Value: acc},
		{Key: "placement", Value: pl},
		{Key: "placementAsked", Value: res.PlaceAsked},
		{Key: "notConverted", Value: clikit.NonNil(res.NotConverted)},
		{Key: "notes", Value: clikit.NonNil(res.Notes)},
	}
}

// report is the text report on standard error.
func report(w io.Writer, res *Result) error {
	var b strings.Builder
	for _, n := range res.Notes {
		engine.Fprintf(&b, "note: %s\n", n)
	}
	for _, n := range res.NotConverted {
		engine.Fprintf(&b, "not converted: %s\n", n)
	}
	for _, d := range res.Differences {
		engine.Fprintf(&b, "differs: %s\n", d)
	}
	for _, d := range res.Placement {
		engine.Fprintf(&b, "differs: placement: %s\n", d)
	}
	if len(res.Differences) == 0 {
		b.WriteString("access is the same in YARN and in the YuniKorn config, for every queue, action, user and group the ACLs name, and everyone else\n")
	} else {
		fmt.Fprintf(&b, "%d access answer(s) differ\n", len(res.Differences))
	}
	if len(res.Placement) == 0 {
		fmt.Fprintf(&b, "placement is the same in YARN and in the YuniKorn config, for all %d applications that can tell them apart (every user, group list and requested queue the rules, ACLs and queues name)\n", res.PlaceAsked)
	} else {
		n := 0
		for _, d := range res.Placement {
			n += d.Like
		}
		fmt.Fprintf(&b, "%d of %d applications asked are placed differently, in %d %s\n", n, res.PlaceAsked, len(res.Placement), plural(len(res.Placement), "way", "ways"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
