package images

import "github.com/distribution/reference"

// What an admission webhook asks of the catalog before any node pulls
// (row B4): the same entries and the same process-isolation table the
// simulated containerd decides pulls with (Pull), so the reference webhook
// and the nodes cannot disagree.

// WindowsBuilds returns the Windows builds the catalog has ref (a
// reference as written in a pod) published for, and whether the catalog
// knows ref at all: known with no builds is an image without a Windows
// variant (Linux-only) or one that does not exist. A reference that does
// not parse is not known.
func (c *Catalog) WindowsBuilds(ref string) (builds []string, known bool) {
	named, err := reference.ParseNormalizedNamed(ref)
	if err != nil {
		return nil, false
	}
	tag := ""
	if _, digested := named.(reference.Digested); !digested {
		tag = reference.TagNameOnly(named).(reference.Tagged).Tag()
	}
	entry := c.lookup(named.Name(), tag)
	if entry == nil {
		return nil, false
	}
	if entry.Absent {
		return nil, true
	}
	for _, p := range entry.Platforms {
		if p.OS == Windows && p.Build != "" {
			builds = append(builds, p.Build)
		}
	}
	return builds, true
}

// Runs reports whether a Windows host of hostBuild runs an image of
// imageBuild: in process isolation per the catalog's table (a host not
// listed runs only its own build), with Hyper-V isolation any build not
// newer than the host's (B4, N8).
func (c *Catalog) Runs(hostBuild, imageBuild string, hyperV bool) bool {
	iso := IsolationProcess
	if hyperV {
		iso = IsolationHyperV
	}
	return c.accepts(iso, normaliseBuild(hostBuild), normaliseBuild(imageBuild))
}
