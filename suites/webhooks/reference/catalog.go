package reference

import (
	"fmt"
	"path"
	"strings"

	"sigs.k8s.io/yaml"

	"wink.dev/wink/fixtures"
)

// Catalog is the part of wink's image catalog (fixtures/images.yaml, the
// data of simnode's simulated containerd) that the validating webhook needs
// for row B4: which Windows builds an image reference has, and which image
// builds a host build runs in process isolation.
//
// simnode/internal/images is internal to simnode, so this package reads the
// same embedded YAML (fixtures.Images) itself and keeps only these fields:
// images[].repository, images[].tags, images[].absent, images[].platforms[].os
// and .build, and processIsolation[].host/.images. Everything else in the
// file (users, commands, sizes, handlers, unknown-image defaults) is ignored.
// Matching follows the file's own rules: short names are normalised like
// docker does, an exact tag beats a glob, among globs the first entry wins,
// and a digest reference matches the "*" entry.
type Catalog struct {
	Images           []CatalogImage     `json:"images"`
	ProcessIsolation []ProcessIsolation `json:"processIsolation"`
}

// CatalogImage is one entry of the catalog.
type CatalogImage struct {
	Repository string            `json:"repository"`
	Tags       []string          `json:"tags"`
	Absent     bool              `json:"absent"`
	Platforms  []CatalogPlatform `json:"platforms"`
}

// CatalogPlatform is one entry of an image's manifest list.
type CatalogPlatform struct {
	OS    string `json:"os"`
	Build string `json:"build"`
}

// ProcessIsolation says which image builds a host build runs.
type ProcessIsolation struct {
	Host   string   `json:"host"`
	Images []string `json:"images"`
}

// DefaultCatalog parses fixtures.Images.
func DefaultCatalog() (*Catalog, error) { return ParseCatalog(fixtures.Images) }

// ParseCatalog parses a catalog in the format of fixtures/images.yaml.
func ParseCatalog(data []byte) (*Catalog, error) {
	var c Catalog
	if err := yaml.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("image catalog: %w", err)
	}
	for i, img := range c.Images {
		c.Images[i].Repository = normalizeRepository(img.Repository)
	}
	return &c, nil
}

// WindowsBuilds returns the Windows builds image (a reference as written in a
// pod) is published for, and whether the catalog knows the image at all.
// known with no builds means the image has no Windows variant (Linux-only)
// or does not exist.
func (c *Catalog) WindowsBuilds(image string) (builds []string, known bool) {
	repo, tag, digest := parseReference(image)
	var exact, glob *CatalogImage
	for i := range c.Images {
		img := &c.Images[i]
		if img.Repository != repo {
			continue
		}
		for _, t := range img.Tags {
			switch {
			case digest && t == "*":
				if glob == nil {
					glob = img
				}
			case digest:
			case t == tag:
				if exact == nil {
					exact = img
				}
			case strings.ContainsAny(t, "*?["):
				if ok, _ := path.Match(t, tag); ok && glob == nil {
					glob = img
				}
			}
		}
	}
	img := exact
	if img == nil {
		img = glob
	}
	if img == nil {
		return nil, false
	}
	if img.Absent {
		return nil, true
	}
	for _, p := range img.Platforms {
		if p.OS == "windows" && p.Build != "" {
			builds = append(builds, p.Build)
		}
	}
	return builds, true
}

// HostRuns reports whether a host of hostBuild runs an image of imageBuild:
// in process isolation per the processIsolation table (a host not listed
// runs only its own build); with Hyper-V isolation any build not newer than
// the host's (row B4).
func (c *Catalog) HostRuns(hostBuild, imageBuild string, hyperV bool) bool {
	if hyperV {
		return compareBuilds(imageBuild, hostBuild) <= 0
	}
	for _, p := range c.ProcessIsolation {
		if p.Host == hostBuild {
			for _, b := range p.Images {
				if b == imageBuild {
					return true
				}
			}
			return false
		}
	}
	return hostBuild == imageBuild
}

// compareBuilds compares dotted builds numerically ("10.0.17763" < "10.0.20348").
func compareBuilds(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		var x, y int
		if i < len(as) {
			fmt.Sscan(as[i], &x)
		}
		if i < len(bs) {
			fmt.Sscan(bs[i], &y)
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
	}
	return 0
}

// parseReference splits an image reference into its normalised repository and
// its tag ("latest" when none); digest is true for name@sha256:... references.
func parseReference(image string) (repo, tag string, digest bool) {
	if i := strings.Index(image, "@"); i >= 0 {
		image, digest = image[:i], true
	}
	repo, tag = image, "latest"
	// A tag is after the last colon that follows the last slash (a colon
	// before it is a registry port).
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		repo, tag = image[:i], image[i+1:]
	}
	return normalizeRepository(repo), tag, digest
}

// normalizeRepository names a repository as docker does: nginx ->
// docker.io/library/nginx, user/app -> docker.io/user/app.
func normalizeRepository(repo string) string {
	first, _, found := strings.Cut(repo, "/")
	if !found {
		return "docker.io/library/" + repo
	}
	if !strings.ContainsAny(first, ".:") && first != "localhost" {
		return "docker.io/" + repo
	}
	return repo
}
