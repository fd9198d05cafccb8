package release

import (
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// SBOMName is the SBOM of one platform's binary.
func SBOMName(version string, p Platform) string {
	return fmt.Sprintf("aclint_%s_%s_%s.spdx.json", version, p.OS, p.Arch)
}

// writeSBOM writes an SPDX 2.3 document of the modules linked into one
// binary, read from the build information the binary carries (what `go
// version -m` prints): the main module, every dependency with its version
// and go.sum hash, and the Go toolchain.
func writeSBOM(o Options, p Platform, bin string) (string, error) {
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return "", fmt.Errorf("%s: reading its build information: %w", bin, err)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return "", err
	}
	binSum := sha256.Sum256(data)
	name := SBOMName(o.Version, p)
	type checksum struct {
		Algorithm string `json:"algorithm"`
		Value     string `json:"checksumValue"`
	}
	type ref struct {
		Category string `json:"referenceCategory"`
		Type     string `json:"referenceType"`
		Locator  string `json:"referenceLocator"`
	}
	type pkg struct {
		ID               string     `json:"SPDXID"`
		Name             string     `json:"name"`
		Version          string     `json:"versionInfo"`
		Supplier         string     `json:"supplier"`
		DownloadLocation string     `json:"downloadLocation"`
		FilesAnalyzed    bool       `json:"filesAnalyzed"`
		Checksums        []checksum `json:"checksums,omitempty"`
		ExternalRefs     []ref      `json:"externalRefs,omitempty"`
		Comment          string     `json:"comment,omitempty"`
	}
	type rel struct {
		Element string `json:"spdxElementId"`
		Type    string `json:"relationshipType"`
		Related string `json:"relatedSpdxElement"`
	}
	purl := func(path, version string) []ref {
		return []ref{{"PACKAGE-MANAGER", "purl", "pkg:golang/" + path + "@" + version}}
	}
	main := pkg{
		ID: "SPDXRef-Package-aclint", Name: info.Main.Path, Version: o.Version, Supplier: "Organization: aclint",
		DownloadLocation: "https://github.com/aclint/aclint", FilesAnalyzed: false,
		Checksums:    []checksum{{"SHA256", hex.EncodeToString(binSum[:])}},
		ExternalRefs: purl(info.Main.Path, o.Version),
		Comment:      fmt.Sprintf("the %s binary %s, commit %s", p, filepath.Base(bin), o.Commit),
	}
	pkgs := []pkg{main}
	rels := []rel{{"SPDXRef-DOCUMENT", "DESCRIBES", main.ID}}
	for i, d := range info.Deps {
		m := d
		if d.Replace != nil {
			m = d.Replace
		}
		p := pkg{
			ID: fmt.Sprintf("SPDXRef-Package-%d", i+1), Name: m.Path, Version: m.Version, Supplier: "NOASSERTION",
			DownloadLocation: "https://proxy.golang.org/" + strings.ToLower(m.Path) + "/@v/" + m.Version + ".zip",
			ExternalRefs:     purl(m.Path, m.Version),
		}
		if h, ok := strings.CutPrefix(m.Sum, "h1:"); ok {
			p.Comment = "go.sum " + "h1:" + h
		}
		pkgs = append(pkgs, p)
		rels = append(rels, rel{main.ID, "DEPENDS_ON", p.ID})
	}
	goPkg := pkg{ID: "SPDXRef-Package-go", Name: "golang.org/toolchain", Version: info.GoVersion, Supplier: "Organization: Go",
		DownloadLocation: "https://go.dev/dl/", ExternalRefs: purl("golang.org/toolchain", info.GoVersion), Comment: "the Go toolchain and standard library the binary was built with"}
	pkgs = append(pkgs, goPkg)
	rels = append(rels, rel{goPkg.ID, "BUILD_DEPENDENCY_OF", main.ID})
	doc := map[string]any{
		"spdxVersion":       "SPDX-2.3",
		"dataLicense":       "CC0-1.0",
		"SPDXID":            "SPDXRef-DOCUMENT",
		"name":              strings.TrimSuffix(name, ".spdx.json"),
		"documentNamespace": fmt.Sprintf("https://github.com/aclint/aclint/releases/%s/%s-%s", o.Version, strings.TrimSuffix(name, ".spdx.json"), hex.EncodeToString(binSum[:8])),
		"creationInfo": map[string]any{
			"created":  o.Time.UTC().Format(time.RFC3339),
			"creators": []string{"Tool: aclint make release (internal/release)"},
		},
		"packages":      pkgs,
		"relationships": rels,
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return "", err
	}
	return name, os.WriteFile(filepath.Join(o.Out, name), append(b, '\n'), 0o644)
}
