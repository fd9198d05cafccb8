package release

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// The image is an OCI image layout (image-spec 1.1: oci-layout, index.json,
// blobs/sha256/...) written by hand: no container daemon, no base image.
// Each platform's image is one layer holding the static binary at /aclint,
// run as a user that is not root, with aclint as the entry point.
const (
	mediaIndex    = "application/vnd.oci.image.index.v1+json"
	mediaManifest = "application/vnd.oci.image.manifest.v1+json"
	mediaConfig   = "application/vnd.oci.image.config.v1+json"
	mediaLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
	// ImageUser is the image's user and group: not root, and no account
	// is needed for a numeric one (the distroless "nonroot" id).
	ImageUser = "65532:65532"
)

// ImageName is the OCI layout's archive (a tar of the layout directory,
// as `skopeo copy oci-archive:` and `crane push` take it).
func ImageName(version string) string { return fmt.Sprintf("aclint_%s_oci.tar", version) }

// ImageDir is the unpacked OCI layout in the release directory.
const ImageDir = "oci"

// Descriptor is an OCI content descriptor.
type Descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Platform    *ImagePlatform    `json:"platform,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// ImagePlatform is a descriptor's platform.
type ImagePlatform struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
	Variant      string `json:"variant,omitempty"`
}

// blobs collects the layout's blobs by digest.
type blobs map[string][]byte

func (b blobs) add(mediaType string, data []byte) Descriptor {
	sum := sha256.Sum256(data)
	d := "sha256:" + hex.EncodeToString(sum[:])
	b[d] = data
	return Descriptor{MediaType: mediaType, Digest: d, Size: int64(len(data))}
}

func (b blobs) addJSON(mediaType string, v any) (Descriptor, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return Descriptor{}, err
	}
	return b.add(mediaType, data), nil
}

// writeImage writes the layout for ImagePlatforms, unpacked under
// o.Out/oci and as one tar, whose name it returns.
func writeImage(o Options, bins map[Platform]string) (string, error) {
	bl := blobs{}
	created := o.Time.UTC().Format(time.RFC3339)
	labels := map[string]string{
		"org.opencontainers.image.title":       "aclint",
		"org.opencontainers.image.description": "Lint access control configs and answer access questions as the real system decides them",
		"org.opencontainers.image.version":     o.Version,
		"org.opencontainers.image.revision":    o.Commit,
		"org.opencontainers.image.source":      "https://github.com/aclint/aclint",
		"org.opencontainers.image.licenses":    "Apache-2.0",
		"org.opencontainers.image.created":     created,
	}
	var manifests []Descriptor
	for _, p := range ImagePlatforms {
		data, err := os.ReadFile(bins[p])
		if err != nil {
			return "", err
		}
		var layer, diff bytes.Buffer
		if err := writeTar(&diff, []entry{{"aclint", 0o755, data}}, o.Time); err != nil {
			return "", err
		}
		if err := gz(&layer, func(w io.Writer) error { _, err := w.Write(diff.Bytes()); return err }); err != nil {
			return "", err
		}
		diffSum := sha256.Sum256(diff.Bytes())
		layerDesc := bl.add(mediaLayer, layer.Bytes())
		plat := &ImagePlatform{Architecture: p.Arch, OS: p.OS}
		if p.Arch == "arm64" {
			plat.Variant = "v8"
		}
		config := map[string]any{
			"created":      created,
			"architecture": plat.Architecture,
			"os":           plat.OS,
			"config": map[string]any{
				"User":       ImageUser,
				"Entrypoint": []string{"/aclint"},
				"Cmd":        []string{"--help"},
				"WorkingDir": "/",
				"Labels":     labels,
			},
			"rootfs":  map[string]any{"type": "layers", "diff_ids": []string{"sha256:" + hex.EncodeToString(diffSum[:])}},
			"history": []map[string]any{{"created": created, "created_by": "make release VERSION=" + o.Version + " (internal/release): the static binary only"}},
		}
		if plat.Variant != "" {
			config["variant"] = plat.Variant
		}
		configDesc, err := bl.addJSON(mediaConfig, config)
		if err != nil {
			return "", err
		}
		m, err := bl.addJSON(mediaManifest, map[string]any{
			"schemaVersion": 2,
			"mediaType":     mediaManifest,
			"config":        configDesc,
			"layers":        []Descriptor{layerDesc},
			"annotations":   map[string]string{"org.opencontainers.image.version": o.Version, "org.opencontainers.image.revision": o.Commit, "org.opencontainers.image.created": created},
		})
		if err != nil {
			return "", err
		}
		m.Platform = plat
		manifests = append(manifests, m)
	}
	// the multi-platform image is an index in the blobs; index.json names
	// it with the version as its tag
	multi, err := bl.addJSON(mediaIndex, map[string]any{"schemaVersion": 2, "mediaType": mediaIndex, "manifests": manifests})
	if err != nil {
		return "", err
	}
	multi.Annotations = map[string]string{"org.opencontainers.image.ref.name": o.Version}
	// each platform's manifest is tagged too, VERSION-linux-amd64: a tool
	// that cannot choose a platform in an index (umoci: "tag is ambiguous")
	// unpacks that tag, whose one manifest it reads
	top := []Descriptor{multi}
	for _, m := range manifests {
		m.Annotations = map[string]string{"org.opencontainers.image.ref.name": PlatformTag(o.Version, Platform{m.Platform.OS, m.Platform.Architecture})}
		top = append(top, m)
	}
	index, err := json.Marshal(map[string]any{"schemaVersion": 2, "mediaType": mediaIndex, "manifests": top})
	if err != nil {
		return "", err
	}
	files := []entry{
		{"oci-layout", 0o644, []byte(`{"imageLayoutVersion":"1.0.0"}`)},
		{"index.json", 0o644, index},
	}
	digests := make([]string, 0, len(bl))
	for d := range bl {
		digests = append(digests, d)
	}
	sort.Strings(digests)
	for _, d := range digests {
		files = append(files, entry{"blobs/sha256/" + d[len("sha256:"):], 0o644, bl[d]})
	}
	dir := filepath.Join(o.Out, ImageDir)
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return "", err
		}
	}
	var tarball bytes.Buffer
	if err := writeTar(&tarball, files, o.Time); err != nil {
		return "", err
	}
	name := ImageName(o.Version)
	return name, os.WriteFile(filepath.Join(o.Out, name), tarball.Bytes(), 0o644)
}
