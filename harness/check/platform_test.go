package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"wink.dev/wink/harness/config/v1alpha1"
)

// TestProfiles is the golden table of the built-in profiles: the Windows
// taints, builds, labels and Linux pools each platform gives (N4, S2).
func TestProfiles(t *testing.T) {
	want := map[string]struct {
		windowsTaints []string // taints of every windows pool
		builds        []string
		windowsLabel  string // a label key every windows node carries, "" none
		linuxPools    int
	}{
		"generic":   {[]string{"os=windows:NoSchedule"}, []string{"10.0.20348", "10.0.17763"}, "", 1},
		"eks":       {[]string{"os=windows:NoSchedule"}, []string{"10.0.20348", "10.0.17763"}, "eks.amazonaws.com/nodegroup", 1},
		"aks":       {nil, []string{"10.0.20348", "10.0.17763"}, "kubernetes.azure.com/os-sku", 1},
		"gke":       {[]string{"node.kubernetes.io/os=windows:NoSchedule"}, []string{"10.0.20348", "10.0.17763"}, "cloud.google.com/gke-os-distribution", 1},
		"openshift": {[]string{"os=Windows:NoSchedule"}, []string{"10.0.20348"}, "", 1},
	}
	profiles, err := Profiles()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range profiles {
		names = append(names, p.Name)
		w, ok := want[p.Name]
		if !ok {
			t.Errorf("profile %s: not in this test's table", p.Name)
			continue
		}
		if len(p.Sources) == 0 {
			t.Errorf("profile %s cites no documentation", p.Name)
		}
		var builds []string
		linux := 0
		for _, np := range p.NodePools {
			if np.OS == v1alpha1.OSLinux {
				linux++
				if len(np.Taints) > 0 {
					t.Errorf("profile %s: linux pool %s has taints %v, want none", p.Name, np.Name, np.Taints)
				}
				continue
			}
			builds = append(builds, np.WindowsBuild)
			var taints []string
			for _, tn := range np.Taints {
				taints = append(taints, fmt.Sprintf("%s=%s:%s", tn.Key, tn.Value, tn.Effect))
			}
			if !slices.Equal(taints, w.windowsTaints) {
				t.Errorf("profile %s pool %s: taints %v, want %v", p.Name, np.Name, taints, w.windowsTaints)
			}
			if w.windowsLabel != "" && np.Labels[w.windowsLabel] == "" {
				t.Errorf("profile %s pool %s: no label %s", p.Name, np.Name, w.windowsLabel)
			}
		}
		if !slices.Equal(builds, w.builds) {
			t.Errorf("profile %s: windows builds %v, want %v", p.Name, builds, w.builds)
		}
		if linux != w.linuxPools {
			t.Errorf("profile %s: %d linux pools, want %d", p.Name, linux, w.linuxPools)
		}
	}
	if !slices.Equal(names, []string{"generic", "eks", "aks", "gke", "openshift"}) {
		t.Errorf("profiles %v, want generic, eks, aks, gke, openshift", names)
	}
}

func TestProfilesErrors(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []string
	}{
		{"unknown field", "apiVersion: wink.dev/v1alpha1\nkind: PlatformProfiles\nprofiles:\n- name: x\n  taint: []\n", []string{"p.yaml:5:", "profiles[0].taint"}},
		{"bad build", "apiVersion: wink.dev/v1alpha1\nkind: PlatformProfiles\nprofiles:\n- name: x\n  sources: [{url: https://example.com, says: s}]\n  nodePools:\n  - {name: w, os: windows, windowsBuild: 10.0.1}\n", []string{"p.yaml:7:", "profiles[0].nodePools[0].windowsBuild", "10.0.20348"}},
		{"no sources", "apiVersion: wink.dev/v1alpha1\nkind: PlatformProfiles\nprofiles:\n- name: x\n  nodePools:\n  - {name: w, os: windows}\n", []string{"p.yaml:4:", "profiles[0].sources", "cite"}},
		{"no windows pool", "apiVersion: wink.dev/v1alpha1\nkind: PlatformProfiles\nprofiles:\n- name: x\n  sources: [{url: https://example.com, says: s}]\n  nodePools:\n  - {name: l, os: linux}\n", []string{"p.yaml:6:", "profiles[0].nodePools", "os: windows"}},
		{"wrong kind", "apiVersion: wink.dev/v1alpha1\nkind: Cluster\nprofiles: []\n", []string{"p.yaml:2:", "kind", "PlatformProfiles"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseProfiles([]byte(c.yaml), "p.yaml")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestClusterConfig(t *testing.T) {
	p, err := LookupProfile("gke")
	if err != nil {
		t.Fatal(err)
	}
	two := 2
	base := &v1alpha1.Cluster{NodePools: []v1alpha1.NodePool{
		{Name: "default-pool", OS: v1alpha1.OSLinux, Count: &two},                           // replaces
		{Name: "win2025", OS: v1alpha1.OSWindows, WindowsBuild: v1alpha1.WindowsServer2025}, // extends
	}}
	c, err := ClusterConfig(p, base)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, np := range c.NodePools {
		got = append(got, fmt.Sprintf("%s:%d", np.Name, *np.Count))
	}
	want := []string{"default-pool:2", "windows-ltsc2022:1", "windows-ltsc2019:1", "win2025:1"}
	if !slices.Equal(got, want) {
		t.Errorf("pools %v, want %v", got, want)
	}
	if p.NodePools[0].Count == nil || *p.NodePools[0].Count != 1 {
		t.Error("ClusterConfig changed the profile")
	}
	if _, err := LookupProfile("azure"); err == nil || !strings.Contains(err.Error(), "generic, eks, aks, gke, openshift") {
		t.Errorf("unknown platform: %v", err)
	}
}
