// Package replay serves a recording of a running YuniKorn scheduler's REST
// answers (testdata/yunikorn-rest: one file per request), so that why,
// limits --server and drift can be tried and tested without a cluster.
package replay

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Handler answers each /ws/v1/... request with the file recorded for it
// in dir: the path after /ws/v1/ with / as _, then @ and the query when
// there is one (* as %2A); NAME.status, when recorded, is its status
// code. A request with no recording is 418 and is passed to missing.
func Handler(dir string, missing func(*http.Request)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.ReplaceAll(strings.TrimPrefix(r.URL.Path, "/ws/v1/"), "/", "_")
		if r.URL.RawQuery != "" {
			name += "@" + r.URL.RawQuery
		}
		name = strings.ReplaceAll(name, "*", "%2A")
		body, err := os.ReadFile(filepath.Join(dir, filepath.Base(name)))
		if err != nil || !strings.HasPrefix(r.URL.Path, "/ws/v1/") {
			if missing != nil {
				missing(r)
			}
			w.WriteHeader(http.StatusTeapot)
			return
		}
		if name == "config" {
			w.Header().Set("Content-Type", "application/x-yaml; charset=UTF-8")
		} else {
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		}
		if st, err := os.ReadFile(filepath.Join(dir, name+".status")); err == nil {
			code, _ := strconv.Atoi(strings.TrimSpace(string(st)))
			w.WriteHeader(code)
		}
		w.Write(body)
	})
}
