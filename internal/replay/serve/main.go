// Command serve serves a recorded YuniKorn scheduler on loopback, for
// trying aclint why, limits --server and drift on a fresh clone
// (docs/live.md):
//
//	go run ./internal/replay/serve testdata/yunikorn-rest/why/users-groups-queue/rest/1
//	aclint why alice-3 --server http://127.0.0.1:9080
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"

	"github.com/aclint/aclint/internal/replay"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9080", "the loopback address to listen on")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/replay/serve [-addr 127.0.0.1:9080] DIR (a recording, e.g. testdata/yunikorn-rest/why/users-groups-queue/rest/1)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := serve(ctx, flag.Arg(0), *addr, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(2)
	}
}

// serve serves the recording in dir on addr, a loopback address only,
// until ctx ends; it says where on out once it listens.
func serve(ctx context.Context, dir, addr string, out io.Writer) error {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("%s is not a recording's directory (testdata/yunikorn-rest/why/SCENARIO/rest/STEP)", dir)
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-addr %s: give a loopback address (127.0.0.1:PORT): a recording is for this machine only", addr)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: replay.Handler(dir, func(r *http.Request) {
		fmt.Fprintf(out, "not recorded: %s %q\n", r.Method, r.URL.String())
	})}
	go func() { <-ctx.Done(); srv.Close() }()
	fmt.Fprintf(out, "serving the recording %s on http://%s (Ctrl-C stops): aclint why APP --server http://%s\n", dir, l.Addr(), l.Addr())
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
