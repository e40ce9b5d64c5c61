package harness

import (
	"fmt"
	"net/netip"
	"strings"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
)

// portFields are the ports of state.json the embedded backend listens on,
// by their JSON field and the component that listens.
func portFields(p cluster.Ports) []struct {
	field, component string
	port             int
} {
	return []struct {
		field, component string
		port             int
	}{
		{"apiServer", "kube-apiserver", p.APIServer},
		{"etcdClient", "etcd", p.EtcdClient},
		{"etcdPeer", "etcd", p.EtcdPeer},
		{"controllerManager", "kube-controller-manager", p.ControllerManager},
		{"scheduler", "kube-scheduler", p.Scheduler},
		{"metricsServer", "metrics-server", p.MetricsServer},
	}
}

// validateState checks the ports and addresses read from a cluster's
// state.json (path), so that a damaged file is named at once instead of
// becoming port 0 in a kubeconfig and a timeout. Every field is chosen when
// the cluster is made and cannot be rebuilt from elsewhere (etcd's ports
// are recorded only here), so the fix is to restore the file or make the
// cluster again.
func validateState(path, name string, backend v1alpha1.Backend, p cluster.Ports) (err error) {
	var errs []string
	bad := func(field string, value any, message string) {
		errs = append(errs, (&v1alpha1.FieldError{Path: field, Type: v1alpha1.ErrorTypeInvalid, Value: value, Message: message}).Error())
	}
	defer func() {
		if len(errs) > 0 {
			err = fmt.Errorf("%s: %s\nstate.json is written when the cluster is made and was changed since: restore it, or make the cluster again with `wink up --name %s --fresh` (its etcd data is lost)",
				path, strings.Join(errs, "; "), name)
		}
	}()
	if p.NodeAddressBase != "" {
		if a, err := netip.ParseAddr(p.NodeAddressBase); err != nil || !a.Is4() {
			bad("nodeAddressBase", p.NodeAddressBase, "must be an IPv4 address")
		}
	}
	if backend != v1alpha1.BackendEmbedded {
		return nil
	}
	seen := map[int]string{}
	for _, f := range portFields(p) {
		switch {
		case f.field == "metricsServer" && f.port == 0: // chosen by Prepare when absent
		case f.port < 1 || f.port > 65535:
			bad(f.field, f.port, "must be a TCP port, 1-65535")
		case seen[f.port] != "":
			bad(f.field, f.port, "is also "+seen[f.port]+": every component needs a port of its own")
		default:
			seen[f.port] = f.field
		}
	}
	return nil
}
