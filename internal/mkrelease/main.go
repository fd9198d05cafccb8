// Command mkrelease is `make release`: it writes dist/ with the archives,
// SHA256SUMS, the SBOMs and the OCI image layout (internal/release).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/aclint/aclint/internal/release"
)

func main() {
	version := flag.String("version", "", "the version to release, vX.Y.Z")
	commit := flag.String("commit", "", "the commit built (git rev-parse HEAD)")
	epoch := flag.String("epoch", "", "the commit's time in seconds since 1970 (SOURCE_DATE_EPOCH): every timestamp written")
	out := flag.String("out", "dist", "the directory to write (emptied first)")
	flag.Parse()
	secs, err := strconv.ParseInt(*epoch, 10, 64)
	if *epoch == "" {
		secs, err = 0, nil
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "mkrelease: -epoch %q: %v\n", *epoch, err)
		os.Exit(2)
	}
	if *commit == "" {
		*commit = "unknown"
	}
	names, err := release.Run(release.Options{
		Version: *version, Commit: *commit, Time: time.Unix(secs, 0).UTC(),
		Source: ".", Out: *out, Docs: []string{"LICENSE", "README.md"}, ManPages: true, Log: os.Stderr,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "mkrelease: %v\n", err)
		os.Exit(2)
	}
	for _, n := range names {
		fmt.Printf("%s/%s\n", *out, n)
	}
	fmt.Printf("%s/SHA256SUMS\n%s/%s/ (the OCI image layout)\n", *out, *out, release.ImageDir)
}
