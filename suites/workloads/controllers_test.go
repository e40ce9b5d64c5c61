package workloads

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// replicas is how many Windows pods each replicated controller runs: two
// show a controller keeps a count without slowing the suite down.
const replicas = 2

// replicated is one controller that keeps replicas Windows pods running.
type replicated struct {
	// kind is the controller's kind.
	kind string
	// owner is the kind of the pods' controller: kind, but a Deployment's
	// pods belong to its ReplicaSet.
	owner string
	// create creates the controller, named app, in ns with tmpl.
	create func(ctx context.Context, cs kubernetes.Interface, ns, app string, tmpl corev1.PodTemplateSpec) error
	// ready reads the controller back: its ready replicas and the object.
	ready func(ctx context.Context, cs kubernetes.Interface, ns, app string) (int32, any, error)
	// then checks what only this controller does, once its pods run.
	then func(ctx context.Context, t *testing.T, cfg *envconf.Config, cs kubernetes.Interface, ns, app string, pods []corev1.Pod)
}

// selector is the label selector of app's pods.
func selector(app string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
}

// TestReplicatedControllers checks row A22 for the controllers that keep
// pods running: ReplicaSet, ReplicationController, Deployment and
// StatefulSet (with its headless Service, A23) create Windows pods that run
// only on the Windows nodes of their build (S2, S3), and each does what
// it does for Linux pods: a ReplicaSet replaces a deleted pod, a Deployment
// rolls out a new template, a StatefulSet gives its pods stable names and
// DNS records.
func TestReplicatedControllers(t *testing.T) {
	cases := []replicated{
		{
			kind: "ReplicaSet", owner: "ReplicaSet",
			create: func(ctx context.Context, cs kubernetes.Interface, ns, app string, tmpl corev1.PodTemplateSpec) error {
				_, err := cs.AppsV1().ReplicaSets(ns).Create(ctx, &appsv1.ReplicaSet{
					ObjectMeta: metav1.ObjectMeta{Name: app},
					Spec:       appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](replicas), Selector: selector(app), Template: tmpl},
				}, metav1.CreateOptions{})
				return err
			},
			ready: func(ctx context.Context, cs kubernetes.Interface, ns, app string) (int32, any, error) {
				rs, err := cs.AppsV1().ReplicaSets(ns).Get(ctx, app, metav1.GetOptions{})
				if err != nil {
					return 0, nil, err
				}
				return rs.Status.ReadyReplicas, rs.Status, nil
			},
			then: replaceDeletedPod,
		},
		{
			kind: "ReplicationController", owner: "ReplicationController",
			create: func(ctx context.Context, cs kubernetes.Interface, ns, app string, tmpl corev1.PodTemplateSpec) error {
				_, err := cs.CoreV1().ReplicationControllers(ns).Create(ctx, &corev1.ReplicationController{
					ObjectMeta: metav1.ObjectMeta{Name: app},
					Spec:       corev1.ReplicationControllerSpec{Replicas: ptr.To[int32](replicas), Selector: tmpl.Labels, Template: &tmpl},
				}, metav1.CreateOptions{})
				return err
			},
			ready: func(ctx context.Context, cs kubernetes.Interface, ns, app string) (int32, any, error) {
				rc, err := cs.CoreV1().ReplicationControllers(ns).Get(ctx, app, metav1.GetOptions{})
				if err != nil {
					return 0, nil, err
				}
				return rc.Status.ReadyReplicas, rc.Status, nil
			},
		},
		{
			kind: "Deployment", owner: "ReplicaSet",
			create: func(ctx context.Context, cs kubernetes.Interface, ns, app string, tmpl corev1.PodTemplateSpec) error {
				_, err := cs.AppsV1().Deployments(ns).Create(ctx, &appsv1.Deployment{
					ObjectMeta: metav1.ObjectMeta{Name: app},
					Spec:       appsv1.DeploymentSpec{Replicas: ptr.To[int32](replicas), Selector: selector(app), Template: tmpl},
				}, metav1.CreateOptions{})
				return err
			},
			ready: func(ctx context.Context, cs kubernetes.Interface, ns, app string) (int32, any, error) {
				d, err := cs.AppsV1().Deployments(ns).Get(ctx, app, metav1.GetOptions{})
				if err != nil {
					return 0, nil, err
				}
				return d.Status.AvailableReplicas, d.Status, nil
			},
			then: rollOut,
		},
		{
			kind: "StatefulSet", owner: "StatefulSet",
			create: func(ctx context.Context, cs kubernetes.Interface, ns, app string, tmpl corev1.PodTemplateSpec) error {
				svc := &corev1.Service{
					ObjectMeta: metav1.ObjectMeta{Name: app},
					Spec: corev1.ServiceSpec{
						ClusterIP: corev1.ClusterIPNone,
						Selector:  tmpl.Labels,
						Ports:     []corev1.ServicePort{{Name: "http", Port: 80}},
					},
				}
				if _, err := cs.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
					return err
				}
				_, err := cs.AppsV1().StatefulSets(ns).Create(ctx, &appsv1.StatefulSet{
					ObjectMeta: metav1.ObjectMeta{Name: app},
					Spec: appsv1.StatefulSetSpec{
						Replicas: ptr.To[int32](replicas), Selector: selector(app), Template: tmpl, ServiceName: app,
					},
				}, metav1.CreateOptions{})
				return err
			},
			ready: func(ctx context.Context, cs kubernetes.Interface, ns, app string) (int32, any, error) {
				s, err := cs.AppsV1().StatefulSets(ns).Get(ctx, app, metav1.GetOptions{})
				if err != nil {
					return 0, nil, err
				}
				return s.Status.ReadyReplicas, s.Status, nil
			},
			then: statefulIdentity,
		},
	}
	b := suite.Feature("ReplicaSet, ReplicationController, Deployment and StatefulSet run Windows pods", "workloads", "any", "A22", "A23", "S2", "S3")
	for _, c := range cases {
		b = b.Assess(fmt.Sprintf("a %s of %d Windows pods: created, Running, on Windows Server 2022 nodes only", c.kind, replicas), func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			app := strings.ToLower(c.kind)
			ns := suite.Namespace(ctx, t, cs, app)
			tmpl := windowsTemplate(app, suite.Build2022, "ping", "-t", "localhost")
			if err := c.create(ctx, cs, ns, app, tmpl); err != nil {
				t.Fatalf("[A22] creating %s %s: %v", c.kind, app, err)
			}
			pods := waitPods(ctx, t, cs, ns, "app="+app, replicas, "Running and Ready", suite.Running)
			ownedBy(t, "A22", pods, c.owner)
			checkPlacement(ctx, t, cs, "A22", fmt.Sprintf("%s %s/%s", c.kind, ns, app), pods)
			var status any
			var ready int32
			pollUntil(ctx, t, 30*time.Second, fmt.Sprintf("[A22] %s %s/%s reports %d ready replicas", c.kind, ns, app, replicas), func(ctx context.Context) bool {
				var err error
				ready, status, err = c.ready(ctx, cs, ns, app)
				return err == nil && ready == replicas
			}, func() string { return fmt.Sprintf("%d ready, status %+v", ready, status) })
			suite.ObjectEvidence(t, fmt.Sprintf("[A22] %s %s/%s status: %d ready", c.kind, ns, app, ready), status)
			if c.then != nil {
				c.then(ctx, t, cfg, cs, ns, app, pods)
			}
			return ctx
		})
	}
	testenv.Test(t, b.Feature())
}

// replaceDeletedPod: a ReplicaSet replaces a deleted Windows pod with a new
// one, on a node its template allows (A22).
func replaceDeletedPod(ctx context.Context, t *testing.T, _ *envconf.Config, cs kubernetes.Interface, ns, app string, pods []corev1.Pod) {
	t.Helper()
	gone := pods[0].Name
	if err := cs.CoreV1().Pods(ns).Delete(ctx, gone, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	now := waitPods(ctx, t, cs, ns, "app="+app, replicas, "Running, "+gone+" replaced", func(p *corev1.Pod) bool {
		return p.Name != gone && suite.Running(p)
	})
	ownedBy(t, "A22", now, "ReplicaSet")
	checkPlacement(ctx, t, cs, "A22", fmt.Sprintf("ReplicaSet %s/%s after pod %s was deleted", ns, app, gone), now)
}

// rollOut: a Deployment rolls its Windows pods to a new template and
// reports the rollout complete (A22).
func rollOut(ctx context.Context, t *testing.T, _ *envconf.Config, cs kubernetes.Interface, ns, app string, _ []corev1.Pod) {
	t.Helper()
	patch := []byte(`{"spec":{"template":{"metadata":{"annotations":{"wink.dev/revision":"2"}}}}}`)
	d, err := cs.AppsV1().Deployments(ns).Patch(ctx, app, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pods := waitPods(ctx, t, cs, ns, "app="+app, replicas, "Running with the new template", func(p *corev1.Pod) bool {
		return p.Annotations["wink.dev/revision"] == "2" && suite.Running(p)
	})
	checkPlacement(ctx, t, cs, "A22", fmt.Sprintf("Deployment %s/%s after the rollout", ns, app), pods)
	var last *appsv1.Deployment
	pollUntil(ctx, t, 30*time.Second, fmt.Sprintf("[A22] Deployment %s/%s rollout complete", ns, app), func(ctx context.Context) bool {
		got, err := cs.AppsV1().Deployments(ns).Get(ctx, app, metav1.GetOptions{})
		if err != nil {
			return false
		}
		last = got
		s := got.Status
		return s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == replicas && s.AvailableReplicas == replicas && s.Replicas == replicas &&
			progressing(got) == "NewReplicaSetAvailable"
	}, func() string { return fmt.Sprintf("%+v", last.Status) })
	suite.ObjectEvidence(t, fmt.Sprintf("[A22] Deployment %s/%s after the rollout: %d updated, %d available, Progressing %s",
		ns, app, last.Status.UpdatedReplicas, last.Status.AvailableReplicas, progressing(last)), last.Status)
}

// progressing is the reason of a Deployment's Progressing condition.
func progressing(d *appsv1.Deployment) string {
	if d == nil {
		return ""
	}
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentProgressing {
			return c.Reason
		}
	}
	return ""
}

// statefulIdentity: a StatefulSet's Windows pods are <app>-0 and <app>-1,
// created in order, with their names as hostnames, listed by the headless
// Service's EndpointSlice under those names, and resolvable by FQDN from
// each other (A22, A23).
func statefulIdentity(ctx context.Context, t *testing.T, cfg *envconf.Config, cs kubernetes.Interface, ns, app string, pods []corev1.Pod) {
	t.Helper()
	var names []string
	for _, p := range pods {
		names = append(names, p.Name)
	}
	if want := []string{app + "-0", app + "-1"}; !slices.Equal(names, want) {
		suite.Fail(t, "A22", "StatefulSet pod names", names, want)
		return
	}
	first, second := pods[0], pods[1]
	if ready := readySince(&first); ready == nil || second.CreationTimestamp.Before(ready) {
		t.Errorf("[A22] %s was created at %s, before %s was Ready (%v): OrderedReady not honoured", second.Name, second.CreationTimestamp, first.Name, ready)
	}

	argv := []string{"cmd", "/c", "hostname"}
	res := suite.Exec(ctx, t, cfg, ns, first.Name, "main", argv...)
	suite.ExecEvidence(t, first.Name, argv, res)
	if got := strings.TrimSpace(res.Stdout); got != first.Name || res.ExitCode != 0 {
		t.Errorf("[A22] hostname in %s = %q (exit %d), want %q", first.Name, got, res.ExitCode, first.Name)
	}

	// The headless Service's EndpointSlice names each pod by its hostname.
	want := map[string]string{first.Name: first.Status.PodIP, second.Name: second.Status.PodIP}
	var got map[string]string
	var slice discoveryv1.EndpointSlice
	pollUntil(ctx, t, 30*time.Second, fmt.Sprintf("[A23] EndpointSlice of headless Service %s/%s lists both pods by hostname", ns, app), func(ctx context.Context) bool {
		list, err := cs.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: discoveryv1.LabelServiceName + "=" + app})
		if err != nil {
			return false
		}
		got = map[string]string{}
		for _, s := range list.Items {
			for _, e := range s.Endpoints {
				if e.Hostname != nil && len(e.Addresses) > 0 && ptr.Deref(e.Conditions.Ready, false) {
					got[*e.Hostname] = e.Addresses[0]
					slice = s
				}
			}
		}
		return fmt.Sprint(got) == fmt.Sprint(want)
	}, func() string { return fmt.Sprintf("hostname → address %v, want %v", got, want) })
	suite.ObjectEvidence(t, fmt.Sprintf("[A23] EndpointSlice %s of headless Service %s: %s=%s, %s=%s", slice.Name, app,
		first.Name, got[first.Name], second.Name, got[second.Name]), slice.Endpoints)

	fqdn := fmt.Sprintf("%s.%s.%s.svc.cluster.local", second.Name, app, ns)
	argv = []string{"nslookup", fqdn}
	res = suite.Exec(ctx, t, cfg, ns, first.Name, "main", argv...)
	suite.ExecEvidence(t, first.Name, argv, res)
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "Address:  "+second.Status.PodIP) {
		t.Errorf("[A23] nslookup %s in %s: exit %d, stdout %q, stderr %q; want the address of %s, %s", fqdn, first.Name, res.ExitCode, res.Stdout, res.Stderr, second.Name, second.Status.PodIP)
	}
}

// readySince is when a pod last became Ready, nil if it is not.
func readySince(p *corev1.Pod) *metav1.Time {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			return &c.LastTransitionTime
		}
	}
	return nil
}

// TestBatchControllers checks row A22 for the controllers that run pods to
// completion: a Job of two completions and a CronJob run Windows pods to
// Succeeded, on the Windows nodes of their build only (S2, S3). The failing
// Job (exit code 3) is in TestContainersRunTheirCommands.
func TestBatchControllers(t *testing.T) {
	f := suite.Feature("Job and CronJob run Windows pods to completion", "workloads", "any", "A22", "S2", "S3").
		Assess("a Job of 2 completions, 2 in parallel: both Windows pods Succeeded, the Job Complete", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "job")
			tmpl := windowsTemplate("job", suite.Build2022, "cmd", "/c", "echo done")
			tmpl.Spec.RestartPolicy = corev1.RestartPolicyNever
			job := &batchv1.Job{
				ObjectMeta: metav1.ObjectMeta{Name: "done"},
				Spec: batchv1.JobSpec{
					Completions: ptr.To[int32](2), Parallelism: ptr.To[int32](2), BackoffLimit: ptr.To[int32](0), Template: tmpl,
				},
			}
			if _, err := cs.BatchV1().Jobs(ns).Create(ctx, job, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			pods := waitPods(ctx, t, cs, ns, "app=job", 2, "Succeeded", suite.Succeeded)
			ownedBy(t, "A22", pods, "Job")
			checkPlacement(ctx, t, cs, "A22", "Job "+ns+"/done", pods)
			logs := suite.Logs(ctx, t, cs, ns, pods[0].Name, "main")
			suite.Evidence(t, suite.EvidenceLog, fmt.Sprintf("[A22] kubectl logs %s (Job done)", pods[0].Name), logs)
			if strings.TrimSpace(logs) != "done" {
				t.Errorf("[A22] logs of %s: %q, want %q", pods[0].Name, logs, "done")
			}
			waitJobComplete(ctx, t, cs, ns, "done", 2)
			return ctx
		}).
		Assess("a CronJob every 2s: its Job's Windows pod Succeeded, lastSuccessfulTime set", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "cronjob")
			tmpl := windowsTemplate("cronjob", suite.Build2022, "cmd", "/c", "echo tick")
			tmpl.Spec.RestartPolicy = corev1.RestartPolicyNever
			cj := &batchv1.CronJob{
				ObjectMeta: metav1.ObjectMeta{Name: "tick"},
				Spec: batchv1.CronJobSpec{
					// The cron library's @every descriptor, which the
					// apiserver accepts (cron.ParseStandard): the first Job
					// comes 2s after creation, not at the next full minute.
					Schedule:          "@every 2s",
					ConcurrencyPolicy: batchv1.ForbidConcurrent,
					JobTemplate:       batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{BackoffLimit: ptr.To[int32](0), Template: tmpl}},
				},
			}
			created, err := cs.BatchV1().CronJobs(ns).Create(ctx, cj, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var job *batchv1.Job
			pollUntil(ctx, t, 30*time.Second, "[A22] CronJob "+ns+"/tick creates a Job", func(ctx context.Context) bool {
				list, err := cs.BatchV1().Jobs(ns).List(ctx, metav1.ListOptions{})
				if err != nil {
					return false
				}
				for i, j := range list.Items {
					if ref := metav1.GetControllerOf(&j); ref != nil && ref.UID == created.UID {
						job = &list.Items[i]
						return true
					}
				}
				return false
			}, func() string { return "no Job owned by the CronJob" })
			pods := waitPods(ctx, t, cs, ns, batchv1.JobNameLabel+"="+job.Name, 1, "Succeeded", suite.Succeeded)
			ownedBy(t, "A22", pods, "Job")
			checkPlacement(ctx, t, cs, "A22", "CronJob "+ns+"/tick, Job "+job.Name, pods)
			waitJobComplete(ctx, t, cs, ns, job.Name, 1)
			var last *batchv1.CronJob
			pollUntil(ctx, t, 30*time.Second, "[A22] CronJob "+ns+"/tick records a successful run", func(ctx context.Context) bool {
				got, err := cs.BatchV1().CronJobs(ns).Get(ctx, "tick", metav1.GetOptions{})
				if err != nil {
					return false
				}
				last = got
				return got.Status.LastSuccessfulTime != nil
			}, func() string { return fmt.Sprintf("%+v", last.Status) })
			suite.ObjectEvidence(t, fmt.Sprintf("[A22] CronJob %s/tick status: lastScheduleTime %s, lastSuccessfulTime %s", ns, last.Status.LastScheduleTime, last.Status.LastSuccessfulTime), last.Status)
			// No more Jobs: the namespace goes with the test.
			if _, err := cs.BatchV1().CronJobs(ns).Patch(ctx, "tick", types.MergePatchType, []byte(`{"spec":{"suspend":true}}`), metav1.PatchOptions{}); err != nil {
				t.Errorf("suspending CronJob tick: %v", err)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// waitJobComplete waits for a Job's Complete condition with succeeded
// pods, and records the Job's status.
func waitJobComplete(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string, succeeded int32) {
	t.Helper()
	var last *batchv1.Job
	pollUntil(ctx, t, 30*time.Second, fmt.Sprintf("[A22] Job %s/%s Complete with %d succeeded", ns, name, succeeded), func(ctx context.Context) bool {
		j, err := cs.BatchV1().Jobs(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false
		}
		last = j
		for _, c := range j.Status.Conditions {
			if c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue {
				return j.Status.Succeeded == succeeded
			}
		}
		return false
	}, func() string { return fmt.Sprintf("%+v", last.Status) })
	suite.ObjectEvidence(t, fmt.Sprintf("[A22] Job %s/%s: Complete, %d succeeded", ns, name, last.Status.Succeeded), last.Status)
}

// TestWindowsDaemonSets checks rows A22, S3 and N4 for DaemonSets: a Windows
// DaemonSet whose nodeSelector names a build runs one pod on every Windows
// node of that build and nowhere else; without the os=windows toleration it
// gets no pod on the tainted Windows nodes. That a Linux DaemonSet without
// tolerations stays off those nodes (S2) is checked by the scheduling suite
// (suites/scheduling, TestDaemonSetStaysOffTaintedWindowsNodes).
func TestWindowsDaemonSets(t *testing.T) {
	b := suite.Feature("a Windows DaemonSet runs on every Windows node of its build and nowhere else", "workloads", "any", "A22", "S2", "S3", "N4")
	for _, build := range knownBuilds {
		b = b.Assess("build "+build+": one Running pod per node of the build", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			nodes := windowsNodes(ctx, t, cs)[build]
			if len(nodes) == 0 {
				t.Skipf("no Windows node of build %s", build)
			}
			var want []string
			for _, n := range nodes {
				want = append(want, n.Name)
			}
			slices.Sort(want)
			app := "agent-" + strings.ReplaceAll(build, ".", "-")
			ns := suite.Namespace(ctx, t, cs, app)
			ds := &appsv1.DaemonSet{
				ObjectMeta: metav1.ObjectMeta{Name: app},
				Spec:       appsv1.DaemonSetSpec{Selector: selector(app), Template: windowsTemplate(app, build, "ping", "-t", "localhost")},
			}
			if _, err := cs.AppsV1().DaemonSets(ns).Create(ctx, ds, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			pods := waitPods(ctx, t, cs, ns, "app="+app, len(want), "Running and Ready", suite.Running)
			ownedBy(t, "A22", pods, "DaemonSet")
			got := checkPlacement(ctx, t, cs, "S3", "DaemonSet "+ns+"/"+app, pods)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				suite.Fail(t, "S3", "nodes of DaemonSet "+app+"'s pods", got, want)
			}
			s := waitDaemonSetStatus(ctx, t, cs, ns, app, func(s appsv1.DaemonSetStatus) bool {
				return s.DesiredNumberScheduled == int32(len(want)) && s.NumberReady == int32(len(want))
			})
			suite.ObjectEvidence(t, fmt.Sprintf("[A22] DaemonSet %s/%s: %d desired, %d ready (Windows nodes of build %s: %v)", ns, app, s.DesiredNumberScheduled, s.NumberReady, build, want), s)
			return ctx
		})
	}
	b = b.Assess("without the os=windows toleration: no pod on the tainted Windows nodes", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
		cs := suite.Clientset(t, cfg)
		nodes := windowsNodes(ctx, t, cs)[suite.Build2022]
		if len(nodes) == 0 {
			t.Skipf("no Windows node of build %s", suite.Build2022)
		}
		ns := suite.Namespace(ctx, t, cs, "untolerated")
		tmpl := windowsTemplate("untolerated", suite.Build2022, "ping", "-t", "localhost")
		tmpl.Spec.Tolerations = nil
		// What the DaemonSet controller may place: the nodes of the build
		// whose taints the pod tolerates with the tolerations the
		// controller adds to every daemon pod.
		probe := &corev1.Pod{Spec: *tmpl.Spec.DeepCopy()}
		probe.Spec.Tolerations = daemonTolerations
		var want []string
		var tainted []string
		for _, n := range nodes {
			if ok, why := allows(probe, &n); ok {
				want = append(want, n.Name)
			} else {
				tainted = append(tainted, n.Name+": "+why)
			}
		}
		ds := &appsv1.DaemonSet{
			ObjectMeta: metav1.ObjectMeta{Name: "untolerated"},
			Spec:       appsv1.DaemonSetSpec{Selector: selector("untolerated"), Template: tmpl},
		}
		if _, err := cs.AppsV1().DaemonSets(ns).Create(ctx, ds, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		s := waitDaemonSetStatus(ctx, t, cs, ns, "untolerated", func(s appsv1.DaemonSetStatus) bool {
			return s.ObservedGeneration >= 1 && s.DesiredNumberScheduled == int32(len(want))
		})
		suite.ObjectEvidence(t, fmt.Sprintf("[N4] DaemonSet %s/untolerated: %d desired; nodes refused: %v", ns, s.DesiredNumberScheduled, tainted), s)
		pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=untolerated"})
		if err != nil {
			t.Fatal(err)
		}
		if len(pods.Items) != len(want) {
			t.Errorf("[S2] DaemonSet untolerated has %d pods, want %d (nodes %v): %s", len(pods.Items), len(want), want, describePods(pods.Items))
		}
		return ctx
	})
	testenv.Test(t, b.Feature())
}

// daemonTolerations are the tolerations the DaemonSet controller adds to
// every daemon pod (pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations).
var daemonTolerations = []corev1.Toleration{
	{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	{Key: corev1.TaintNodeDiskPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodeMemoryPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodePIDPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodeUnschedulable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
}

// waitDaemonSetStatus waits until a DaemonSet's status satisfies done and
// returns it.
func waitDaemonSetStatus(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string, done func(appsv1.DaemonSetStatus) bool) appsv1.DaemonSetStatus {
	t.Helper()
	var s appsv1.DaemonSetStatus
	pollUntil(ctx, t, 30*time.Second, fmt.Sprintf("[A22] DaemonSet %s/%s status", ns, name), func(ctx context.Context) bool {
		ds, err := cs.AppsV1().DaemonSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false
		}
		s = ds.Status
		return ds.Status.ObservedGeneration >= ds.Generation && done(ds.Status)
	}, func() string { return fmt.Sprintf("%+v", s) })
	return s
}
