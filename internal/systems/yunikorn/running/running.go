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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// Options say how to reach the scheduler.
type Options struct {
	// Timeout bounds each request, connection to last byte.
	Timeout time.Duration
	// MaxSize bounds an answer's body (aclint's --max-input-size).
	MaxSize int64
	// CAFile is a PEM file of the certificate authorities that sign the
	// server's certificate (an https URL), added to the system's.
	CAFile string
	// Headers are sent with every request ("Name: value"), for the
	// proxies people put in front of the scheduler (a bearer token).
	Headers []string
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
// the route already (…/ws/v1/config) is taken as it is.
func endpoint(base, route string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--server %q: give the scheduler's address, as in http://yunikorn-service.yunikorn:9080 or https://yunikorn.example.com", base)
	}
	p := strings.TrimSuffix(u.Path, "/")
	for _, r := range []string{ConfigPath, ValidatePath} {
		p = strings.TrimSuffix(p, r)
	}
	u.Path = p + route
	u.RawQuery, u.Fragment = "", ""
	return u.String(), nil
}

func (o Options) client() (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyFromEnvironment
	if o.CAFile != "" {
		pem, err := input.ReadFile(o.CAFile, o.MaxSize) // /dev/zero ends at the input limit
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
		// a redirect is followed to the same host only: a header may carry a token
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 || req.URL.Host != via[0].URL.Host {
				return errors.New("redirected elsewhere: not followed (the headers may carry a token)")
			}
			return nil
		}}, nil
}

func (o Options) do(ctx context.Context, method, target string, body []byte, accept string) (*http.Response, []byte, error) {
	c, err := o.client()
	if err != nil {
		return nil, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", "aclint")
	for _, h := range o.Headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, nil, fmt.Errorf("--server-header %q: write it as Name: value", h)
		}
		req.Header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	resp, err := c.Do(req)
	if err != nil {
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
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
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
func Config(ctx context.Context, server string, o Options) ([]byte, string, error) {
	target, err := endpoint(server, ConfigPath)
	if err != nil {
		return nil, "", err
	}
	resp, data, err := o.do(ctx, http.MethodGet, target, nil, "application/x-yaml")
	if err != nil {
		return nil, target, &Error{target, err}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, target, &Error{target, fmt.Errorf("answered %s%s: is this a YuniKorn scheduler's REST address (port 9080)?", resp.Status, short(data))}
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/x-yaml", "application/yaml", "text/yaml", "application/json", "text/plain", "":
	default:
		return nil, target, &Error{target, fmt.Errorf("answered %s, not YAML or JSON: not a YuniKorn scheduler's config", mt)}
	}
	if !IsConfig(data) {
		return nil, target, &Error{target, fmt.Errorf("answered something that is not a YuniKorn scheduler's config (no partitions and none of checksum, extra or the deadlock settings)%s", short(data))}
	}
	return data, target, nil
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
func Validate(ctx context.Context, server string, text []byte, o Options) (Verdict, error) {
	target, err := endpoint(server, ValidatePath)
	if err != nil {
		return Verdict{}, err
	}
	resp, data, err := o.do(ctx, http.MethodPost, target, text, "application/json")
	if err != nil {
		return Verdict{}, &Error{target, err}
	}
	if resp.StatusCode != http.StatusOK {
		return Verdict{}, &Error{target, fmt.Errorf("answered %s%s", resp.Status, short(data))}
	}
	var raw map[string]json.RawMessage
	var v Verdict
	if json.Unmarshal(data, &raw) != nil || raw["allowed"] == nil || json.Unmarshal(data, &v) != nil {
		return Verdict{}, &Error{target, fmt.Errorf("answered something that is not validate-conf's {\"allowed\": ...}%s", short(data))}
	}
	return v, nil
}

func short(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return fmt.Sprintf(" (%q)", strings.ToValidUTF8(s, "?"))
}
