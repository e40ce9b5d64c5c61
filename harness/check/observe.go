package check

import (
	"context"
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	release "helm.sh/helm/v4/pkg/release/v1"
	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"
)

// rendered is a workload as the chart renders it.
type rendered struct {
	Workload
	// deletedOnSuccess: a hook with hook-succeeded delete policy, gone
	// from the cluster once it has done its work.
	deletedOnSuccess bool
}

// workloadsOf parses the rendered manifest and hooks into workloads, in
// the release namespace unless a manifest names another.
func workloadsOf(manifest string, hooks []*release.Hook, namespace string) ([]rendered, error) {
	var out []rendered
	parse := func(doc, hook string, deleted bool) error {
		var meta struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name      string `json:"name"`
				Namespace string `json:"namespace"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			return err
		}
		ns := meta.Metadata.Namespace
		if ns == "" {
			ns = namespace
		}
		w := Workload{Kind: meta.Kind, Namespace: ns, Name: meta.Metadata.Name, Hook: hook, Want: -1}
		var tmpl *corev1.PodTemplateSpec
		switch meta.Kind {
		case "Deployment":
			var o appsv1.Deployment
			if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
				return err
			}
			tmpl = &o.Spec.Template
		case "DaemonSet":
			var o appsv1.DaemonSet
			if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
				return err
			}
			tmpl = &o.Spec.Template
		case "StatefulSet":
			var o appsv1.StatefulSet
			if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
				return err
			}
			tmpl = &o.Spec.Template
		case "ReplicaSet":
			var o appsv1.ReplicaSet
			if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
				return err
			}
			tmpl = &o.Spec.Template
		case "Job":
			var o batchv1.Job
			if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
				return err
			}
			tmpl = &o.Spec.Template
		case "CronJob":
			var o batchv1.CronJob
			if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
				return err
			}
			tmpl = &o.Spec.JobTemplate.Spec.Template
		case "Pod":
			var o corev1.Pod
			if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
				return err
			}
			tmpl = &corev1.PodTemplateSpec{ObjectMeta: o.ObjectMeta, Spec: o.Spec}
		default:
			return nil
		}
		w.Template = tmpl
		out = append(out, rendered{Workload: w, deletedOnSuccess: deleted})
		return nil
	}
	for _, doc := range releaseutil.SplitManifests(manifest) {
		if err := parse(doc, "", false); err != nil {
			return nil, fmt.Errorf("rendered manifest: %w", err)
		}
	}
	for _, h := range hooks {
		event := "hook"
		if len(h.Events) > 0 {
			event = string(h.Events[0])
		}
		deleted := slices.Contains(h.DeletePolicies, release.HookSucceeded)
		if err := parse(h.Manifest, event, deleted); err != nil {
			return nil, fmt.Errorf("hook %s: %w", h.Path, err)
		}
	}
	return out, nil
}

// observe reads what the cluster has of the workloads: their controllers'
// status, pods, events and the nodes.
func observe(ctx context.Context, cs kubernetes.Interface, ws []rendered, installed bool) (Observation, error) {
	var o Observation
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return o, err
	}
	o.Nodes = nodes.Items
	namespaces := map[string]bool{}
	for _, w := range ws {
		namespaces[w.Namespace] = true
	}
	rsOwner := map[string][]string{}  // ns/deployment -> replicasets
	jobOwner := map[string][]string{} // ns/cronjob -> jobs
	for ns := range namespaces {
		pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return o, err
		}
		o.Pods = append(o.Pods, pods.Items...)
		events, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return o, err
		}
		o.Events = append(o.Events, events.Items...)
		rss, err := cs.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return o, err
		}
		for _, rs := range rss.Items {
			for _, ref := range rs.OwnerReferences {
				if ref.Kind == "Deployment" {
					rsOwner[ns+"/"+ref.Name] = append(rsOwner[ns+"/"+ref.Name], rs.Name)
				}
			}
		}
		jobs, err := cs.BatchV1().Jobs(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return o, err
		}
		for _, j := range jobs.Items {
			for _, ref := range j.OwnerReferences {
				if ref.Kind == "CronJob" {
					jobOwner[ns+"/"+ref.Name] = append(jobOwner[ns+"/"+ref.Name], j.Name)
				}
			}
		}
	}
	for _, r := range ws {
		w := r.Workload
		w.Controllers = []string{w.Name}
		w.Owners = []string{w.Kind + "/" + w.Name}
		var err error
		switch w.Kind {
		case "Deployment":
			var d *appsv1.Deployment
			if d, err = cs.AppsV1().Deployments(w.Namespace).Get(ctx, w.Name, metav1.GetOptions{}); err == nil {
				w.Want = replicas(d.Spec.Replicas)
				w.Observed = d.Status.ObservedGeneration >= d.Generation
				for _, rs := range rsOwner[w.Namespace+"/"+w.Name] {
					w.Controllers = append(w.Controllers, rs)
					w.Owners = append(w.Owners, "ReplicaSet/"+rs)
				}
			}
		case "DaemonSet":
			var d *appsv1.DaemonSet
			if d, err = cs.AppsV1().DaemonSets(w.Namespace).Get(ctx, w.Name, metav1.GetOptions{}); err == nil {
				w.Want = d.Status.DesiredNumberScheduled
				w.Observed = d.Status.ObservedGeneration >= d.Generation && d.Status.ObservedGeneration > 0
			}
		case "StatefulSet":
			var s *appsv1.StatefulSet
			if s, err = cs.AppsV1().StatefulSets(w.Namespace).Get(ctx, w.Name, metav1.GetOptions{}); err == nil {
				w.Want = replicas(s.Spec.Replicas)
				w.Observed = s.Status.ObservedGeneration >= s.Generation
			}
		case "ReplicaSet":
			var s *appsv1.ReplicaSet
			if s, err = cs.AppsV1().ReplicaSets(w.Namespace).Get(ctx, w.Name, metav1.GetOptions{}); err == nil {
				w.Want = replicas(s.Spec.Replicas)
				w.Observed = s.Status.ObservedGeneration >= s.Generation
			}
		case "Job":
			var j *batchv1.Job
			if j, err = cs.BatchV1().Jobs(w.Namespace).Get(ctx, w.Name, metav1.GetOptions{}); err == nil {
				w.Observed = true
				for _, c := range j.Status.Conditions {
					if c.Status != corev1.ConditionTrue {
						continue
					}
					switch c.Type {
					case batchv1.JobComplete:
						w.Complete = true
					case batchv1.JobFailed:
						w.Failed = strings.TrimSpace(c.Reason + ": " + c.Message)
					}
				}
			}
		case "CronJob":
			for _, j := range jobOwner[w.Namespace+"/"+w.Name] {
				w.Controllers = append(w.Controllers, j)
				w.Owners = append(w.Owners, "Job/"+j)
			}
		case "Pod":
			w.Want = 1
			w.Observed = true
		}
		w.Missing = apierrors.IsNotFound(err)
		if apierrors.IsNotFound(err) && r.Hook != "" && installed {
			// A hook deleted by its delete policy once it succeeded.
			w.Complete, w.Observed = true, true
			err = nil
		}
		if err != nil && !apierrors.IsNotFound(err) {
			return o, err
		}
		o.Workloads = append(o.Workloads, w)
	}
	return o, nil
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}
