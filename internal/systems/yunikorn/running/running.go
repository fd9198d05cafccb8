// Package running asks a running YuniKorn scheduler, over its REST API,
// what it runs: GET /ws/v1/config (the config it loaded, with the settings
// the shim passed), and POST /ws/v1/validate-conf (whether it would take a
// config). It depends on the answers' documented form only: status 200, a
// YAML or JSON body, the keys of yunikorn-core's dao.ConfigDAOInfo and
// dao.ValidateConfResponse. A scheduler that cannot be reached, that
// answers something else, or too much, is an error that says which, never
// an answer.
package running

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// Options say how to reach the scheduler.
type Options struct {
	// Timeout bounds each request, connection to last byte.
	Timeout time.Duration
	// Deadline bounds every request of one run together
	// (--server-deadline): a scheduler that answers each request just in
	// time, or makes aclint ask many, cannot hold a run longer. Begin
	// starts it.
	Deadline time.Duration
	// MaxSize bounds an answer's body (aclint's --max-input-size).
	MaxSize int64
	// CAFile is a PEM file of the certificate authorities that sign the
	// server's certificate (an https URL), added to the system's.
	CAFile string
	// Headers are sent with every request ("Name: value"), for the
	// proxies people put in front of the scheduler (a bearer token).
	Headers []string
	// Seen is the run's files read, where CAFile is remembered.
	Seen *engine.ReadSet
}

// Error is a failure to get an answer: where it was asked and why.
type Error struct {
	URL string
	Err error
}

func (e *Error) Error() string { return e.URL + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ConfigPath and ValidatePath are yunikorn-core's routes
// (webservice/routes.go).
const (
	ConfigPath   = "/ws/v1/config"
	ValidatePath = "/ws/v1/validate-conf"
)

// endpoint joins the scheduler's base URL and a route: a URL given with
// the route already (…/ws/v1/config) is taken as it is. A query (a proxy's
// ?token=) goes with every request; the label is the URL to print, with
// its password and query values hidden.
func endpoint(base, route string) (target, label string, err error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", fmt.Errorf("--server %s: give the scheduler's address, as in http://yunikorn-service.yunikorn:9080 or https://yunikorn.example.com", Label(base))
	}
	// the route is escaped already (a user or queue name in it is one
	// path segment); the base keeps its own escaping
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	for _, r := range []string{ConfigPath, ValidatePath} {
		p = strings.TrimSuffix(p, r)
	}
	route, query, _ := strings.Cut(route, "?")
	u.RawPath = p + route
	if u.Path, err = url.PathUnescape(u.RawPath); err != nil {
		return "", "", fmt.Errorf("--server %s: its path is not a URL path: %v", Label(base), err)
	}
	if query != "" {
		if u.RawQuery != "" {
			query = u.RawQuery + "&" + query
		}
		u.RawQuery = query
	}
	u.Fragment = ""
	return u.String(), redact(u), nil
}

// Label is how aclint prints a --server URL: its user information (a
// token is often passed as the user part alone, https://TOKEN@host) is
// left out whole, and the values of its query (a ?token=) are hidden, as
// anything aclint writes may end in a CI log or a pull request comment.
func Label(server string) string {
	u, err := url.Parse(strings.TrimSpace(server))
	if err != nil {
		// unparseable: show its scheme and nothing that may be a secret
		if i := strings.Index(server, "://"); i > 0 && i < 10 {
			return server[:i+3] + "..."
		}
		return "(an address that is not a URL)"
	}
	return redact(u)
}

func redact(u *url.URL) string {
	c := *u
	if c.RawQuery != "" {
		q := c.Query()
		for k := range q {
			q[k] = []string{"xxxxx"}
		}
		c.RawQuery = q.Encode()
	}
	c.User = nil
	return c.String()
}

// Begin starts the run's deadline: every request made with the context
// it returns ends by then.
func (o Options) Begin(parent context.Context) (context.Context, context.CancelFunc) {
	if o.Deadline <= 0 {
		return context.WithCancel(parent)
	}
	return context.WithTimeout(parent, o.Deadline)
}

func (o Options) client() (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyFromEnvironment
	if o.CAFile != "" {
		pem, err := input.ReadFile(o.CAFile, o.MaxSize, o.Seen) // /dev/zero ends at the input limit
		if err != nil {
			return nil, fmt.Errorf("--server-ca-file: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--server-ca-file %s: no PEM certificate in it", o.CAFile)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: tr, Timeout: o.Timeout,
		// a redirect is followed to the same scheme and host only: a header
		// may carry a token, which must neither leave for another host nor
		// go out in clear text after an https:// request
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			switch first := via[0].URL; {
			case req.URL.Scheme != first.Scheme:
				return fmt.Errorf("redirected from %s to %s: not followed (the headers may carry a token, and would go out in clear text)", first.Scheme, req.URL.Scheme)
			case req.URL.Host != first.Host:
				return errors.New("redirected to another host: not followed (the headers may carry a token)")
			case len(via) >= 5:
				return fmt.Errorf("redirected %d times: a redirect loop, not followed further", len(via))
			}
			return nil
		}}, nil
}

// do makes one request with c and reads its answer, bounded in size by
// MaxSize, in time by Timeout and by ctx's deadline.
func (o Options) do(ctx context.Context, c *http.Client, method, target string, body []byte, accept string) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", "aclint")
	for i, h := range o.Headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			// never echo it: it is most likely a token
			return nil, nil, fmt.Errorf("--server-header (the %s one) has no 'Name:' in front: write it as 'Name: value', as in 'Authorization: Bearer TOKEN' (its text is not shown, as it may be a secret)", ordinal(i+1))
		}
		req.Header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	resp, err := c.Do(req)
	if err != nil {
		if e := o.late(ctx); e != nil {
			return nil, nil, e
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, nil, fmt.Errorf("no answer within %s (--server-timeout)", o.Timeout)
		}
		return nil, nil, describeDial(err)
	}
	defer resp.Body.Close()
	max := o.MaxSize
	if max <= 0 {
		max = 64 << 20
	}
	if resp.ContentLength > max {
		// refused before a byte of it is read
		return nil, nil, fmt.Errorf("the answer is %d bytes, larger than %d, aclint's limit (--max-input-size)", resp.ContentLength, max)
	}
	data, err := readBody(resp.Body, resp.ContentLength, max)
	if err != nil {
		if e := o.late(ctx); e != nil {
			return nil, nil, e
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, nil, fmt.Errorf("the answer did not end within %s (--server-timeout)", o.Timeout)
		}
		return nil, nil, fmt.Errorf("reading the answer: %w", err)
	}
	if int64(len(data)) > max {
		return nil, nil, fmt.Errorf("the answer is larger than %d bytes, aclint's limit (--max-input-size)", max)
	}
	return resp, data, nil
}

// late is the error of a run whose deadline passed, nil while it holds.
func (o Options) late(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("the scheduler did not answer everything aclint asks within %s, the limit of the whole run (--server-deadline)", o.Deadline)
	}
	return nil
}

// readBody reads at most max+1 bytes. With a Content-Length the buffer is
// that size from the start; without one it grows by a quarter at a time,
// so that the memory a body takes stays near its size (io.ReadAll doubles:
// a 64 MiB answer could hold 128 MiB).
func readBody(r io.Reader, length, max int64) ([]byte, error) {
	size := int64(64 << 10)
	if length >= 0 {
		size = length + 1
	}
	if size > max+1 {
		size = max + 1
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > max {
				return buf, nil
			}
			grow := int64(cap(buf)) / 4
			if grow < 64<<10 {
				grow = 64 << 10
			}
			next := int64(cap(buf)) + grow
			if next > max+1 {
				next = max + 1
			}
			nb := make([]byte, len(buf), next)
			copy(nb, buf)
			buf = nb
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return fmt.Sprintf("%dth", n)
}

func describeDial(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("cannot reach the scheduler: %w", err)
}

// Config fetches GET /ws/v1/config and returns its body, checked to be a
// running scheduler's config: status 200, YAML or JSON, a mapping with
// yunikorn-core's keys.
//
// The second result is the URL asked, as aclint prints it (Label): the
// name the config goes by in every output.
func (c *Client) Config(ctx context.Context) ([]byte, string, error) {
	o := c.Options
	target, label, err := endpoint(c.Server, ConfigPath)
	if err != nil {
		return nil, "", err
	}
	resp, data, err := o.do(ctx, c.http, http.MethodGet, target, nil, "application/x-yaml")
	if err != nil {
		return nil, label, &Error{label, err}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, label, &Error{label, fmt.Errorf("answered %s%s: is this a YuniKorn scheduler's REST address (port 9080)?", resp.Status, o.snippet(data, target))}
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/x-yaml", "application/yaml", "text/yaml", "application/json", "text/plain", "":
	default:
		return nil, label, &Error{label, fmt.Errorf("answered %s, not YAML or JSON: not a YuniKorn scheduler's config", mt)}
	}
	if !IsConfig(data) {
		if config.IsRunningWithoutConfig(data) {
			return nil, label, &Error{label, errors.New("the scheduler runs no config yet: its answer has the deadlock settings and no partitions, as yunikorn-core answers before a resource manager (the Kubernetes shim) has registered with it; ask again once the shim is up")}
		}
		return nil, label, &Error{label, fmt.Errorf("answered something that is not a YuniKorn scheduler's config (it needs partitions, a checksum and the keys only a running scheduler's config has: extra or the deadlock settings)%s", o.snippet(data, target))}
	}
	return data, label, nil
}

// IsConfig reports whether data is a running scheduler's config, as
// internal/systems/yunikorn/config recognises one (config.IsRunning).
func IsConfig(data []byte) bool { return config.IsRunning(data) }

// Verdict is the scheduler's answer to validate-conf.
type Verdict struct {
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason,omitempty"`
}

// Validate asks POST /ws/v1/validate-conf whether the scheduler would load
// text (configs.LoadSchedulerConfigFromByteArray).
func (c *Client) Validate(ctx context.Context, text []byte) (Verdict, error) {
	o := c.Options
	target, label, err := endpoint(c.Server, ValidatePath)
	if err != nil {
		return Verdict{}, err
	}
	resp, data, err := o.do(ctx, c.http, http.MethodPost, target, text, "application/json")
	if err != nil {
		return Verdict{}, &Error{label, err}
	}
	if resp.StatusCode != http.StatusOK {
		return Verdict{}, &Error{label, fmt.Errorf("answered %s%s", resp.Status, o.snippet(data, target))}
	}
	v, ok := parseVerdict(data)
	if !ok {
		return Verdict{}, &Error{label, fmt.Errorf("answered something that is not validate-conf's {\"allowed\": true or false, \"reason\": ...}, which confirms nothing%s", o.snippet(data, target))}
	}
	return v, nil
}

// parseVerdict reads dao.ValidateConfResponse strictly: one object,
// "allowed" exactly once and a boolean, "reason" at most once and a
// string. An answer that bends any of these (null, a key twice, which
// encoding/json would read as the last) is no verdict.
func parseVerdict(data []byte) (Verdict, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return Verdict{}, false
	}
	var v Verdict
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok || seen[key] {
			return Verdict{}, false
		}
		seen[key] = true
		val, err := dec.Token()
		if err != nil {
			return Verdict{}, false
		}
		switch key {
		case "allowed":
			b, ok := val.(bool)
			if !ok {
				return Verdict{}, false
			}
			v.Allowed = b
		case "reason":
			r, ok := val.(string)
			if !ok {
				return Verdict{}, false
			}
			v.Reason = r
		default:
			if d, ok := val.(json.Delim); ok && (d == '{' || d == '[') {
				return Verdict{}, false // validate-conf's answer is flat
			}
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') || !seen["allowed"] {
		return Verdict{}, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return Verdict{}, false
	}
	return v, true
}

// snippet is the start of an answer, quoted, for an error that says what
// the scheduler answered: every secret aclint sent is hidden in it first
// (a proxy or a hostile server may echo the request's headers back), then
// it is cut to a line's length.
func (o Options) snippet(b []byte, target string) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	if len(s) > 64<<10 {
		s = s[:64<<10] // what is hidden is looked for in the start alone: the rest is cut anyway
	}
	s = authEcho().ReplaceAllString(s, "${1}${2}xxxxx")
	for _, secret := range o.secrets(target) {
		s = strings.ReplaceAll(s, secret, "xxxxx")
	}
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return fmt.Sprintf(" (%q)", strings.ToValidUTF8(s, "?"))
}

// authEcho matches a credential header as an echo of the request would
// carry it: its value is hidden whatever it is. (Compiled where an error
// is written, which is rare.)
func authEcho() *regexp.Regexp {
	return regexp.MustCompile(`(?i)((?:proxy-)?authorization|cookie|x-api-key|x-auth-token)(["']?\s*[:=]\s*["']?(?:\[\s*["'])?)(?:(?:basic|bearer|token|negotiate)\s+)?[^\s"',;}\]]+`)
}

// secrets are the values aclint sends that must never be printed: each
// header's value and each of its words, the URL's user, password and
// query values, and the Basic credentials Go sends for a user in the URL.
func (o Options) secrets(target string) []string {
	var out []string
	add := func(v string) {
		if len(v) >= 3 {
			out = append(out, v, url.QueryEscape(v), url.PathEscape(v))
		}
	}
	for _, h := range o.Headers {
		_, v, _ := strings.Cut(h, ":")
		add(strings.TrimSpace(v))
		for _, w := range strings.Fields(v) {
			add(w)
		}
	}
	if u, err := url.Parse(target); err == nil {
		if u.User != nil {
			pw, _ := u.User.Password()
			add(u.User.Username())
			add(pw)
			add(base64.StdEncoding.EncodeToString([]byte(u.User.Username() + ":" + pw)))
		}
		for _, vs := range u.Query() {
			for _, v := range vs {
				add(v)
			}
		}
	}
	// the longest first, so that a value is hidden whole before a word of it
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}
