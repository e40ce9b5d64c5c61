package network

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/version"
)

// HostVIPRule is one entry of rules.yaml's hostServiceVIPs table (row H6):
// whether a Windows node's host network reaches Service VIPs, for the
// nodes whose versions are below the entry's bounds.
type HostVIPRule struct {
	ID              string `json:"id"`
	KubeletBelow    string `json:"kubeletBelow,omitempty"`
	ContainerdBelow string `json:"containerdBelow,omitempty"`
	Reach           bool   `json:"reach"`
	Note            string `json:"note"`

	kubelet, containerd *version.Version
}

func (t *Table) compileHostVIPs() error {
	if len(t.HostVIPs) == 0 {
		return fmt.Errorf("hostServiceVIPs: no entries")
	}
	for i := range t.HostVIPs {
		r := &t.HostVIPs[i]
		if r.ID == "" {
			return fmt.Errorf("hostServiceVIPs[%d]: needs an id", i)
		}
		var err error
		if r.KubeletBelow != "" {
			if r.kubelet, err = version.ParseGeneric(r.KubeletBelow); err != nil {
				return fmt.Errorf("hostServiceVIPs[%d] (%s): kubeletBelow: %w", i, r.ID, err)
			}
		}
		if r.ContainerdBelow != "" {
			if r.containerd, err = version.ParseGeneric(r.ContainerdBelow); err != nil {
				return fmt.Errorf("hostServiceVIPs[%d] (%s): containerdBelow: %w", i, r.ID, err)
			}
		}
		last := i == len(t.HostVIPs)-1
		if last != (r.kubelet == nil && r.containerd == nil) {
			return fmt.Errorf("hostServiceVIPs[%d] (%s): only the last entry, and it always, has no version bound", i, r.ID)
		}
	}
	return nil
}

// DecideHostVIPs tells whether the host network of a Windows node with
// this kubelet version and containerRuntimeVersion (as in
// status.nodeInfo: v1.35.4, containerd://1.7.27) reaches Service VIPs (row
// H6). A version that does not parse, or another runtime, is taken as
// current.
func (t *Table) DecideHostVIPs(kubeletVersion, runtimeVersion string) (bool, Decision) {
	kv, _ := version.ParseGeneric(kubeletVersion)
	var cv *version.Version
	if rest, ok := strings.CutPrefix(runtimeVersion, "containerd://"); ok {
		cv, _ = version.ParseGeneric(rest)
	}
	for _, r := range t.HostVIPs {
		switch {
		case r.kubelet != nil && kv != nil && kv.LessThan(r.kubelet),
			r.containerd != nil && cv != nil && cv.LessThan(r.containerd),
			r.kubelet == nil && r.containerd == nil:
			return r.Reach, Decision{Outcome: fmt.Sprint(r.Reach), ID: r.ID, Note: r.Note}
		}
	}
	return true, Decision{Outcome: "true", ID: "?", Note: "no rule"}
}

// nodeHostVIPs is DecideHostVIPs for a Node object.
func (t *Table) nodeHostVIPs(n *corev1.Node) bool {
	reach, _ := t.DecideHostVIPs(n.Status.NodeInfo.KubeletVersion, n.Status.NodeInfo.ContainerRuntimeVersion)
	return reach
}
