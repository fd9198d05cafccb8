package htmlreport

import (
	_ "embed"
	"encoding/json"
	"html"
	"io"
	"strconv"
	"strings"
)

//go:embed page.css
var css string

//go:embed page.js
var js string

// Write writes the page: one HTML file with its styles, script and data
// inline. Its Content-Security-Policy allows no network access at all, so
// the page works offline and a config cannot make it load anything.
func Write(w io.Writer, d *Data) error {
	data, err := json.Marshal(d) // escapes <, > and &, so the data cannot end its script element
	if err != nil {
		return err
	}
	title := "aclint access report: " + strings.Join(d.Sources, ", ")
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>`)
	b.WriteString(html.EscapeString(title))
	b.WriteString("</title>\n<style>\n")
	b.WriteString(css)
	b.WriteString("</style>\n</head>\n<body>\n<header><h1>")
	b.WriteString(html.EscapeString(title))
	b.WriteString(`</h1><div class="meta">`)
	b.WriteString(html.EscapeString(summary(d)))
	b.WriteString(`</div></header>
<noscript><p>This report draws the queue tree and answers searches with JavaScript; its data is in the page.</p></noscript>
<main>
<div id="left">
<section id="search"><h2>Search</h2>
<form id="ask">
<select id="kind" aria-label="what to ask"><option value="user">What can this user reach?</option><option value="group">What can this group reach?</option><option value="queue">Who can reach this queue?</option></select>
<input type="text" id="name" aria-label="user, group or queue" placeholder="alice, etl or root.prod.etl">
<input type="text" id="groups" aria-label="the user's groups" placeholder="groups: a,b">
<select id="partition" aria-label="partition" hidden></select>
<button type="submit">Ask</button>
</form>
<div id="results"></div>
</section>
<section id="tree"></section>
</div>
<div id="right">
<section id="queue"></section>
<section><h2>Access matrix</h2>
<div class="legend muted">darker is more access: <span style="background:hsl(214,60%,58%)"></span>submit <span style="background:hsl(214,60%,28%)"></span>admin (which includes submit)</div>
<div id="heatmeta" class="muted"></div>
<canvas id="heat" width="1" height="1"></canvas>
<div id="heattip" class="mono"></div>
</section>
<section id="findings"><h2>Lint findings</h2></section>
</div>
</main>
<script type="application/json" id="data">`)
	b.Write(data)
	b.WriteString("</script>\n<script>\n")
	b.WriteString(js)
	b.WriteString("</script>\n</body>\n</html>\n")
	_, err = io.WriteString(w, b.String())
	return err
}

func summary(d *Data) string {
	var errs, warns int
	for _, f := range d.Findings {
		switch f.Severity {
		case "error":
			errs++
		case "warning":
			warns++
		}
	}
	parts := []string{plural(len(d.Partitions), "partition"), plural(len(d.Queues), "queue"),
		plural(len(d.Principals), "named user or group"), plural(errs, "error"), plural(warns, "warning")}
	if d.Tool != "" {
		parts = append(parts, "written by "+d.Tool)
	}
	return strings.Join(parts, " · ")
}

func plural(n int, one string) string {
	switch {
	case n == 1:
		return "1 " + one
	case strings.HasSuffix(one, "or group"):
		return strconv.Itoa(n) + " named users and groups"
	}
	return strconv.Itoa(n) + " " + one + "s"
}
