// Package apply renders Kubernetes manifests from templates and applies
// them with server-side apply (field manager "wink"), as `kubectl apply
// --server-side --force-conflicts` does: applying them again on every
// `wink up` converges instead of failing.
package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"text/template"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"
)

// kinds maps the kinds of wink's manifests (the embedded backend's addons,
// the kind backend's metrics-server) to their API resources.
var kinds = map[string]schema.GroupVersionResource{
	"ServiceAccount":     {Version: "v1", Resource: "serviceaccounts"},
	"ConfigMap":          {Version: "v1", Resource: "configmaps"},
	"Service":            {Version: "v1", Resource: "services"},
	"ClusterRole":        {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"},
	"ClusterRoleBinding": {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"},
	"RoleBinding":        {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"},
	"Deployment":         {Group: "apps", Version: "v1", Resource: "deployments"},
	"DaemonSet":          {Group: "apps", Version: "v1", Resource: "daemonsets"},
	"APIService":         {Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"},
	"FlowSchema":         {Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Resource: "flowschemas"},
}

// Render executes the template text (named name, for errors) with values
// and decodes the YAML documents it gives; every kind must be one of kinds.
func Render(name, text string, values any) ([]*unstructured.Unstructured, error) {
	tmpl, err := template.New(name).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, values); err != nil {
		return nil, err
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(&buf, 4096)
	var objs []*unstructured.Unstructured
	for {
		var obj unstructured.Unstructured
		if err := dec.Decode(&obj.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return objs, nil
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if obj.Object == nil {
			continue
		}
		if _, ok := kinds[obj.GetKind()]; !ok {
			return nil, fmt.Errorf("%s: kind %q has no resource mapping", name, obj.GetKind())
		}
		objs = append(objs, &obj)
	}
}

// Objects applies objs (of kinds) to the cluster of kubeconfig. It tries
// every object and returns every failure.
func Objects(ctx context.Context, kubeconfig string, objs []*unstructured.Unstructured) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	// Tens of objects: at client-go's default 5 QPS they would take
	// seconds of every bring-up.
	cfg.QPS, cfg.Burst = 50, 100
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	var errs []error
	for _, obj := range objs {
		gvr, ok := kinds[obj.GetKind()]
		if !ok {
			return fmt.Errorf("%s %s: kind has no resource mapping", obj.GetKind(), obj.GetName())
		}
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
