// Package release builds what `make release` ships: a static binary for
// each platform in a reproducible archive, SHA256SUMS over them, an SPDX
// SBOM per binary from its build information, and an OCI image layout for
// linux/amd64 and linux/arm64, written without a container daemon.
//
// Reproducible means two runs from the same commit give the same bytes:
// paths are trimmed, build ids and VCS stamping are off (the version and
// commit are linked in), and archives have fixed owners, modes, times and
// order. The time written everywhere is the commit's (SOURCE_DATE_EPOCH).
package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Platform is one GOOS/GOARCH pair a release is built for.
type Platform struct{ OS, Arch string }

func (p Platform) String() string { return p.OS + "/" + p.Arch }

// Platforms are the release's: the common CI runners and desktops.
var Platforms = []Platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// PlatformTag is the tag of one platform's manifest in the image layout:
// VERSION-OS-ARCH.
func PlatformTag(version string, p Platform) string { return version + "-" + p.OS + "-" + p.Arch }

// ImagePlatforms are the image's.
var ImagePlatforms = []Platform{{"linux", "amd64"}, {"linux", "arm64"}}

// Options say what to release and where.
type Options struct {
	Version string    // vX.Y.Z
	Commit  string    // the commit built
	Time    time.Time // the commit's time: every timestamp written
	Source  string    // the module's directory
	Out     string    // dist/
	// Docs are the files every archive carries beside the binary, by
	// their names in the source directory.
	Docs []string
	// ManPages: the Unix archives carry a man page per command in
	// man/man1 and the bash, zsh and fish completions in completions/,
	// written by internal/mangen from the release's own tree
	ManPages bool
	Log      io.Writer
}

// Run builds the release into o.Out (which it empties first) and returns
// the names SHA256SUMS lists.
func Run(o Options) ([]string, error) {
	if !validVersion(o.Version) {
		return nil, fmt.Errorf("version %q: give VERSION=vX.Y.Z (a v, then numbers; a -suffix may follow)", o.Version)
	}
	if err := os.RemoveAll(o.Out); err != nil {
		return nil, err
	}
	build := filepath.Join(o.Out, ".build")
	if err := os.MkdirAll(build, 0o755); err != nil {
		return nil, err
	}
	defer os.RemoveAll(build)
	var man []entry
	if o.ManPages {
		var err error
		if man, err = manPages(o, filepath.Join(build, "man")); err != nil {
			return nil, err
		}
	}
	var names []string
	bins := map[Platform]string{}
	for _, p := range Platforms {
		bin, err := buildBinary(o, p, build)
		if err != nil {
			return nil, err
		}
		bins[p] = bin
		name, err := archive(o, p, bin, man)
		if err != nil {
			return nil, err
		}
		sbom, err := writeSBOM(o, p, bin)
		if err != nil {
			return nil, err
		}
		names = append(names, name, sbom)
	}
	image, err := writeImage(o, bins)
	if err != nil {
		return nil, err
	}
	names = append(names, image)
	sort.Strings(names)
	var sums bytes.Buffer
	for _, n := range names {
		sum, err := fileSHA256(filepath.Join(o.Out, n))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&sums, "%s  %s\n", sum, n) // sha256sum's own format: sha256sum -c reads it
	}
	return names, os.WriteFile(filepath.Join(o.Out, "SHA256SUMS"), sums.Bytes(), 0o644)
}

// validVersion: v, digits and dots, then an optional -suffix of letters,
// digits, dots and dashes.
func validVersion(v string) bool {
	rest, ok := strings.CutPrefix(v, "v")
	if !ok || rest == "" {
		return false
	}
	core, suffix, _ := strings.Cut(rest, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return strings.Trim(suffix, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") == ""
}

// manPages writes the man pages (go run ./internal/mangen DIR) and reads
// them back, by name.
func manPages(o Options, dir string) ([]entry, error) {
	cmd := exec.Command("go", "run", "./internal/mangen", dir)
	cmd.Dir = o.Source
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=readonly", fmt.Sprintf("SOURCE_DATE_EPOCH=%d", o.Time.Unix()))
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = o.Log, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go run ./internal/mangen: %v\n%s", err, stderr.String())
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []entry
	for _, f := range files {
		where := "man/man1/"
		switch f.Name() {
		case "aclint.bash", "_aclint", "aclint.fish":
			where = "completions/" // beside the man pages: the shell completions
		default:
			if !strings.HasSuffix(f.Name(), ".1") {
				continue
			}
		}
		b, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, entry{where + f.Name(), 0o644, b})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("internal/mangen wrote no man page into %s", dir)
	}
	return out, nil
}

// buildBinary builds the static binary of one platform.
func buildBinary(o Options, p Platform, dir string) (string, error) {
	name := "aclint"
	if p.OS == "windows" {
		name += ".exe"
	}
	out := filepath.Join(dir, p.OS+"_"+p.Arch, name)
	ldflags := fmt.Sprintf("-s -w -buildid= -X github.com/aclint/aclint/internal/cli.version=%s -X github.com/aclint/aclint/internal/cli.commit=%s", o.Version, o.Commit)
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", out, ".")
	cmd.Dir = o.Source
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.OS, "GOARCH="+p.Arch, "GOFLAGS=-mod=readonly")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = o.Log, &stderr
	if o.Log != nil {
		fmt.Fprintf(o.Log, "release: building %s\n", p)
	}
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build for %s: %v\n%s", p, err, stderr.String())
	}
	return out, nil
}

// ArchiveName is the archive of one platform, as SHA256SUMS and the
// GitHub Action name it.
func ArchiveName(version string, p Platform) string {
	ext := ".tar.gz"
	if p.OS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("aclint_%s_%s_%s%s", version, p.OS, p.Arch, ext)
}

// entry is one file of an archive.
type entry struct {
	name string
	mode int64
	data []byte
}

// archive writes one platform's archive: a directory named like the
// archive holding the binary and the docs.
func archive(o Options, p Platform, bin string, man []entry) (string, error) {
	name := ArchiveName(o.Version, p)
	top := strings.TrimSuffix(strings.TrimSuffix(name, ".zip"), ".tar.gz")
	b, err := os.ReadFile(bin)
	if err != nil {
		return "", err
	}
	entries := []entry{{top + "/" + filepath.Base(bin), 0o755, b}}
	for _, d := range o.Docs {
		b, err := os.ReadFile(filepath.Join(o.Source, d))
		if err != nil {
			return "", err
		}
		entries = append(entries, entry{top + "/" + d, 0o644, b})
	}
	if p.OS != "windows" {
		for _, m := range man {
			entries = append(entries, entry{top + "/" + m.name, m.mode, m.data})
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	var buf bytes.Buffer
	if p.OS == "windows" {
		err = writeZip(&buf, entries, o.Time)
	} else {
		err = writeTarGz(&buf, entries, o.Time)
	}
	if err != nil {
		return "", err
	}
	return name, os.WriteFile(filepath.Join(o.Out, name), buf.Bytes(), 0o644)
}

// writeTar writes entries with fixed owner (root), times and no user or
// group names: the bytes depend on the content only.
func writeTar(w io.Writer, entries []entry, mtime time.Time) error {
	tw := tar.NewWriter(w)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Size: int64(len(e.data)), ModTime: mtime, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(e.data); err != nil {
			return err
		}
	}
	return tw.Close()
}

// gz compresses with no name and no time in the header.
func gz(w io.Writer, write func(io.Writer) error) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := write(zw); err != nil {
		return err
	}
	return zw.Close()
}

func writeTarGz(w io.Writer, entries []entry, mtime time.Time) error {
	return gz(w, func(zw io.Writer) error { return writeTar(zw, entries, mtime) })
}

func writeZip(w io.Writer, entries []entry, mtime time.Time) error {
	zw := zip.NewWriter(w)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mtime.UTC()}
		h.SetMode(os.FileMode(e.mode))
		f, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := f.Write(e.data); err != nil {
			return err
		}
	}
	return zw.Close()
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
