package embedded

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"text/template"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"

	"wink.dev/wink/harness/internal/cluster"
)

//go:embed addons/*.yaml
var addons embed.FS

// addonValues fill the addon templates.
type addonValues struct {
	DNSDomain     string
	DNSServiceIP  string
	PodSubnet     string
	APIServerHost string
	Version       string
	// MetricsServerPort is metrics-server's port on 127.0.0.1.
	MetricsServerPort int
}

// resources maps the kinds the addons use to their API resources.
var resources = map[string]schema.GroupVersionResource{
	"ServiceAccount":     {Version: "v1", Resource: "serviceaccounts"},
	"ConfigMap":          {Version: "v1", Resource: "configmaps"},
	"Service":            {Version: "v1", Resource: "services"},
	"ClusterRole":        {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"},
	"ClusterRoleBinding": {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"},
	"Deployment":         {Group: "apps", Version: "v1", Resource: "deployments"},
	"DaemonSet":          {Group: "apps", Version: "v1", Resource: "daemonsets"},
	"RoleBinding":        {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"},
	"APIService":         {Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"},
	"FlowSchema":         {Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Resource: "flowschemas"},
}

// Bootstrap applies the objects a kubeadm cluster starts with (RBAC for the
// components, CoreDNS and kube-proxy) with server-side apply, so running it
// again on every start converges instead of failing.
func Bootstrap(ctx context.Context, kubeconfig string, st *cluster.State) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	// About twenty objects: at client-go's default 5 QPS they would take
	// 2 s of every bring-up.
	cfg.QPS, cfg.Burst = 50, 100
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	objs, err := Addons(st)
	if err != nil {
		return err
	}
	var errs []error
	for _, obj := range objs {
		gvr := resources[obj.GetKind()]
		data, err := obj.MarshalJSON()
		if err != nil {
			return err
		}
		var ri dynamic.ResourceInterface = client.Resource(gvr)
		if ns := obj.GetNamespace(); ns != "" {
			ri = client.Resource(gvr).Namespace(ns)
		}
		_, err = ri.Patch(ctx, obj.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{FieldManager: "wink", Force: ptr.To(true)})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", obj.GetKind(), obj.GetName(), err))
		}
	}
	return errors.Join(errs...)
}

// Addons renders the embedded addon manifests for a cluster.
func Addons(st *cluster.State) ([]*unstructured.Unstructured, error) {
	n := st.Config.Networking
	dnsIP, err := nthAddress(n.ServiceSubnet, 10)
	if err != nil {
		return nil, err
	}
	values := addonValues{
		DNSDomain:         n.DNSDomain,
		DNSServiceIP:      dnsIP,
		PodSubnet:         n.PodSubnet,
		APIServerHost:     net.JoinHostPort(advertiseAddress(st), strconv.Itoa(443)),
		Version:           Version,
		MetricsServerPort: st.Ports.MetricsServer,
	}
	files, err := addons.ReadDir("addons")
	if err != nil {
		return nil, err
	}
	var objs []*unstructured.Unstructured
	for _, f := range files {
		name := "addons/" + f.Name()
		text, err := addons.ReadFile(name)
		if err != nil {
			return nil, err
		}
		tmpl, err := template.New(name).Option("missingkey=error").Parse(string(text))
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := tmpl.Execute(&buf, values); err != nil {
			return nil, err
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(&buf, 4096)
		for {
			var obj unstructured.Unstructured
			if err := dec.Decode(&obj.Object); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if obj.Object == nil {
				continue
			}
			if _, ok := resources[obj.GetKind()]; !ok {
				return nil, fmt.Errorf("%s: kind %q has no resource mapping in bootstrap.go", name, obj.GetKind())
			}
			objs = append(objs, &obj)
		}
	}
	flows, err := simnodeFlowSchemas()
	if err != nil {
		return nil, err
	}
	return append(objs, flows...), nil
}

// nthAddress is the n-th address of a CIDR (10.96.0.0/12, 10 → 10.96.0.10).
func nthAddress(cidr string, n int) (string, error) {
	prefix, err := netip.ParsePrefix(cidr)
	if err != nil {
		return "", err
	}
	addr := prefix.Masked().Addr()
	for range n {
		addr = addr.Next()
	}
	return addr.String(), nil
}
