package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// The release is built once for every test here, as `make release` builds
// it: all six platforms (about 4 minutes with a cold build cache, 15
// seconds warm).
const testVersion = "v0.0.0-test"

var (
	distOnce sync.Once
	distDir  string
	distErr  error
)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func testOptions(t *testing.T, out string) Options {
	return Options{Version: testVersion, Commit: "0123456789abcdef0123456789abcdef01234567", Time: time.Unix(1764000000, 0).UTC(),
		Source: repoRoot(t), Out: out, Docs: []string{"LICENSE", "README.md"}, ManPages: true}
}

func dist(t *testing.T) string {
	t.Helper()
	distOnce.Do(func() {
		distDir, distErr = os.MkdirTemp("", "aclint-dist")
		if distErr == nil {
			_, distErr = Run(testOptions(t, distDir))
		}
	})
	if distErr != nil {
		t.Fatal(distErr)
	}
	return distDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if distDir != "" {
		os.RemoveAll(distDir)
	}
	os.Exit(code)
}

// TestArchives: one archive per platform, each with the binary, README.md
// and LICENSE under one directory, and a man page per command in
// man/man1 (Unix archives); SHA256SUMS lists every file and
// verifies (as sha256sum -c reads it); the linux/amd64 binary runs and
// says its version and commit.
func TestArchives(t *testing.T) {
	d := dist(t)
	sums, err := os.ReadFile(filepath.Join(d, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		sum, name, ok := strings.Cut(l, "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("not a sha256sum line: %q", l)
		}
		listed[name] = sum
		b, err := os.ReadFile(filepath.Join(d, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := sha256.Sum256(b); hex.EncodeToString(got[:]) != sum {
			t.Errorf("%s: SHA256SUMS says %s", name, sum)
		}
	}
	if len(listed) != 2*len(Platforms)+1 {
		t.Errorf("SHA256SUMS lists %d files, want an archive and an SBOM per platform and the image", len(listed))
	}
	if path, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command(path, "-c", "--strict", "SHA256SUMS")
		cmd.Dir = d
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c: %v\n%s", err, out)
		}
	}
	for _, p := range Platforms {
		name := ArchiveName(testVersion, p)
		if listed[name] == "" {
			t.Errorf("%s is not in SHA256SUMS", name)
			continue
		}
		top := strings.TrimSuffix(strings.TrimSuffix(name, ".zip"), ".tar.gz")
		bin := "aclint"
		if p.OS == "windows" {
			bin = "aclint.exe"
		}
		want := []string{top + "/LICENSE", top + "/README.md", top + "/" + bin}
		files := archiveFiles(t, filepath.Join(d, name))
		var names []string
		man := 0
		var completions []string
		for n := range files {
			if strings.HasPrefix(n, top+"/man/man1/") && strings.HasSuffix(n, ".1") {
				man++
				if !strings.Contains(string(files[n]), ".TH \"ACLINT") {
					t.Errorf("%s: %s is not a man page", name, n)
				}
				continue
			}
			if strings.HasPrefix(n, top+"/completions/") {
				completions = append(completions, strings.TrimPrefix(n, top+"/completions/"))
				continue
			}
			names = append(names, n)
		}
		sort.Strings(completions)
		if want := "_aclint aclint.bash aclint.fish"; p.OS != "windows" && strings.Join(completions, " ") != want {
			t.Errorf("%s: completions %v, want %s", name, completions, want)
		}
		if _, ok := files[top+"/man/man1/aclint-why.1"]; p.OS != "windows" && (man < 20 || !ok) {
			t.Errorf("%s: %d man pages (aclint-why.1 among them: %v)", name, man, ok)
		}
		if p.OS == "windows" && man > 0 {
			t.Errorf("%s: man pages in a Windows archive", name)
		}
		sort.Strings(names)
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Errorf("%s holds %v, want %v", name, names, want)
		}
		if p == (Platform{"linux", "amd64"}) && runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
			exe := filepath.Join(t.TempDir(), "aclint")
			os.WriteFile(exe, files[top+"/aclint"], 0o755)
			out, err := exec.Command(exe, "version", "-o", "json").Output()
			var v map[string]any
			if err != nil || json.Unmarshal(out, &v) != nil || v["version"] != testVersion || v["commit"] != "0123456789abcdef0123456789abcdef01234567" {
				t.Errorf("the linux/amd64 binary's version: %v %s", err, out)
			}
		}
	}
}

// archiveFiles reads a .tar.gz or .zip into name -> content.
func archiveFiles(t *testing.T, path string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			r, _ := f.Open()
			files[f.Name], _ = io.ReadAll(r)
			r.Close()
		}
		return files
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return tarFiles(t, zr)
}

func tarFiles(t *testing.T, r io.Reader) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || !h.ModTime.Equal(time.Unix(1764000000, 0)) {
			t.Errorf("%s: owner %d:%d %q, time %v: not fixed", h.Name, h.Uid, h.Gid, h.Uname, h.ModTime)
		}
		files[h.Name], _ = io.ReadAll(tr)
	}
}

// TestReproducible: a second release from the same source and commit gives
// the same SHA256SUMS.
func TestReproducible(t *testing.T) {
	d := dist(t)
	again := t.TempDir()
	if _, err := Run(testOptions(t, again)); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(d, "SHA256SUMS"))
	b, _ := os.ReadFile(filepath.Join(again, "SHA256SUMS"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("two releases of one commit differ:\n%s\n%s", a, b)
	}
}

// TestSBOM: each SBOM is SPDX 2.3 JSON naming the binary's modules (cobra,
// yaml.v3, ...) with versions, from the binary's own build information.
func TestSBOM(t *testing.T) {
	d := dist(t)
	for _, p := range Platforms {
		b, err := os.ReadFile(filepath.Join(d, SBOMName(testVersion, p)))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			SPDXVersion string `json:"spdxVersion"`
			Packages    []struct {
				Name    string `json:"name"`
				Version string `json:"versionInfo"`
			} `json:"packages"`
			Relationships []struct{ RelationshipType string } `json:"relationships"`
		}
		if err := json.Unmarshal(b, &doc); err != nil || doc.SPDXVersion != "SPDX-2.3" {
			t.Fatalf("%s: %v", p, err)
		}
		mods := map[string]string{}
		for _, pk := range doc.Packages {
			mods[pk.Name] = pk.Version
		}
		for _, m := range []string{"github.com/aclint/aclint", "github.com/spf13/cobra", "gopkg.in/yaml.v3", "golang.org/toolchain"} {
			if mods[m] == "" {
				t.Errorf("%s: the SBOM has no version of %s", p, m)
			}
		}
		if mods["github.com/aclint/aclint"] != testVersion {
			t.Errorf("%s: the SBOM's main module is %q", p, mods["github.com/aclint/aclint"])
		}
	}
}

// TestImage: the OCI layout's index names the version; the image index has
// linux/amd64 and linux/arm64; each manifest's config names /aclint as the
// entry point and a user that is not root; its one layer holds the static
// binary, and its diff id is the layer's uncompressed digest. skopeo, when
// installed (CI installs it), reads the layout and copies the archive.
func TestImage(t *testing.T) {
	d := dist(t)
	layout := filepath.Join(d, ImageDir)
	blob := func(digest string) []byte {
		b, err := os.ReadFile(filepath.Join(layout, "blobs", "sha256", strings.TrimPrefix(digest, "sha256:")))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(b); "sha256:"+hex.EncodeToString(sum[:]) != digest {
			t.Fatalf("blob %s has another digest", digest)
		}
		return b
	}
	if b, _ := os.ReadFile(filepath.Join(layout, "oci-layout")); string(b) != `{"imageLayoutVersion":"1.0.0"}` {
		t.Errorf("oci-layout: %s", b)
	}
	var index struct{ Manifests []Descriptor }
	b, _ := os.ReadFile(filepath.Join(layout, "index.json"))
	if err := json.Unmarshal(b, &index); err != nil || len(index.Manifests) != 3 || index.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != testVersion ||
		index.Manifests[0].MediaType != mediaIndex {
		t.Fatalf("index.json: %v %s", err, b)
	}
	// each platform's manifest is tagged VERSION-OS-ARCH too, and is the
	// one the image index names for that platform
	for _, m := range index.Manifests[1:] {
		if m.Platform == nil || m.MediaType != mediaManifest || m.Annotations["org.opencontainers.image.ref.name"] != PlatformTag(testVersion, Platform{m.Platform.OS, m.Platform.Architecture}) {
			t.Errorf("index.json platform entry %+v", m)
		}
	}
	var multi struct{ Manifests []Descriptor }
	json.Unmarshal(blob(index.Manifests[0].Digest), &multi)
	var plats []string
	for _, m := range multi.Manifests {
		plats = append(plats, m.Platform.OS+"/"+m.Platform.Architecture)
		var manifest struct {
			Config Descriptor
			Layers []Descriptor
		}
		json.Unmarshal(blob(m.Digest), &manifest)
		var config struct {
			Architecture string
			OS           string
			Config       struct {
				User       string
				Entrypoint []string
			}
			Rootfs struct {
				DiffIDs []string `json:"diff_ids"`
			}
		}
		json.Unmarshal(blob(manifest.Config.Digest), &config)
		if config.Config.User == "" || config.Config.User == "0" || strings.HasPrefix(config.Config.User, "0:") || strings.HasPrefix(config.Config.User, "root") {
			t.Errorf("%s: the image runs as %q", m.Platform.Architecture, config.Config.User)
		}
		if strings.Join(config.Config.Entrypoint, " ") != "/aclint" || config.Architecture != m.Platform.Architecture || config.OS != "linux" {
			t.Errorf("%s: config %+v", m.Platform.Architecture, config)
		}
		if len(manifest.Layers) != 1 || manifest.Layers[0].MediaType != mediaLayer {
			t.Fatalf("%s: layers %+v", m.Platform.Architecture, manifest.Layers)
		}
		zr, err := gzip.NewReader(bytes.NewReader(blob(manifest.Layers[0].Digest)))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(zr)
		if sum := sha256.Sum256(raw); len(config.Rootfs.DiffIDs) != 1 || config.Rootfs.DiffIDs[0] != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Errorf("%s: diff_ids %v do not match the layer", m.Platform.Architecture, config.Rootfs.DiffIDs)
		}
		files := tarFiles(t, bytes.NewReader(raw))
		if len(files) != 1 || len(files["aclint"]) < 1<<20 {
			t.Errorf("%s: the layer holds %d files, want the binary alone", m.Platform.Architecture, len(files))
		}
		// the binary in the layer is the one in the platform's archive
		arch := archiveFiles(t, filepath.Join(d, ArchiveName(testVersion, Platform{"linux", m.Platform.Architecture})))
		if !bytes.Equal(files["aclint"], arch["aclint_"+testVersion+"_linux_"+m.Platform.Architecture+"/aclint"]) {
			t.Errorf("%s: the image's binary is not the release's", m.Platform.Architecture)
		}
	}
	sort.Strings(plats)
	if strings.Join(plats, " ") != "linux/amd64 linux/arm64" {
		t.Errorf("platforms %v", plats)
	}
	if skopeo, err := exec.LookPath("skopeo"); err == nil {
		if out, err := exec.Command(skopeo, "inspect", "oci:"+layout+":"+testVersion).CombinedOutput(); err != nil || !strings.Contains(string(out), `"Architecture": "amd64"`) {
			t.Errorf("skopeo inspect: %v\n%s", err, out)
		}
		copyTo := t.TempDir()
		if out, err := exec.Command(skopeo, "copy", "--all", "oci-archive:"+filepath.Join(d, ImageName(testVersion))+":"+testVersion, "oci:"+copyTo+":"+testVersion).CombinedOutput(); err != nil {
			t.Errorf("skopeo copy of the image archive: %v\n%s", err, out)
		}
	} else if os.Getenv("CI") != "" {
		t.Error("skopeo is missing in CI: .ci/run installs it")
	}
	// umoci chooses no platform: it unpacks a platform's own tag, and runs
	// nothing (an unprivileged-style unpack of the root filesystem)
	if umoci, err := exec.LookPath("umoci"); err == nil {
		copyTo := t.TempDir()
		copyDir(t, layout, filepath.Join(copyTo, "oci")) // umoci writes into the layout it reads
		bundle := filepath.Join(copyTo, "bundle")
		tag := PlatformTag(testVersion, Platform{"linux", "amd64"})
		if out, err := exec.Command(umoci, "unpack", "--rootless", "--image", filepath.Join(copyTo, "oci")+":"+tag, bundle).CombinedOutput(); err != nil {
			t.Errorf("umoci unpack %s: %v\n%s", tag, err, out)
		} else if fi, err := os.Stat(filepath.Join(bundle, "rootfs", "aclint")); err != nil || fi.Size() < 1<<20 {
			t.Errorf("umoci unpacked no binary: %v", err)
		}
	} else if os.Getenv("CI") != "" {
		t.Error("umoci is missing in CI: .ci/run installs it")
	}
}

// copyDir copies a directory of regular files and directories.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestValidVersion(t *testing.T) {
	for v, want := range map[string]bool{"v1.2.3": true, "v0.0.0-test": true, "v1.2.3-rc.1": true, "1.2.3": false, "v1.2": false, "v1.2.x": false, "v1.2.3 ": false, "v1.2.3/../x": false, "": false} {
		if validVersion(v) != want {
			t.Errorf("%q: %v", v, !want)
		}
	}
}
