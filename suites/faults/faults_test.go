package faults

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/harness"
	"wink.dev/wink/suites/suite"
)

// The workloads that live through every fault.
const (
	// steady is a Deployment that is never changed: its pods must come
	// through each fault untouched.
	steady = "steady"
	// rolling is a Deployment rolled out anew at each fault.
	rolling = "rolling"
	// writer is a pod whose container writes a random number into
	// markFile, on an emptyDir volume, then runs on: the file must keep
	// that number (a container run again would write another).
	writer   = "writer"
	markDir  = `C:\data`
	markFile = markDir + `\mark.txt`
	// pingHeader starts ping's output: printed once per run of ping -t.
	pingHeader = "Pinging "
)

// Timeouts.
const (
	recoverTimeout = time.Minute
	rolloutTimeout = 90 * time.Second
	// growTimeout is how long a container's log may take to show a new
	// line after a fault: ping -t prints one a second.
	growTimeout = 10 * time.Second
	// systemTimeout is how long kube-system's pods may take to be Running
	// and Ready again after a fault.
	systemTimeout = 20 * time.Second
)

// fault is one thing that goes wrong in the middle of a rollout, and the
// wait until the cluster has come back from it.
type fault struct {
	name   string
	inject func(ctx context.Context, t *testing.T)
}

func TestFaultsDuringARollout(t *testing.T) {
	faults := []fault{
		{"etcd killed", killComponent("etcd")},
		{"kube-apiserver killed", killComponent("kube-apiserver")},
		{"kube-controller-manager killed", killComponent("kube-controller-manager")},
		{"kube-scheduler killed", killComponent("kube-scheduler")},
		{"simnode killed", killComponent("simnode")},
		{"supervisor killed", killSupervisor},
		{"wink down then wink up", downUp},
	}
	var ns string
	b := suite.Feature("a rollout lives through every component killed, and through wink down and up", "faults", "simnode").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns = suite.Namespace(ctx, t, cs, "faults")
			createWorkloads(ctx, t, cfg, cs, ns)
			return ctx
		})
	for _, f := range faults {
		b = b.Assess(f.name, func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			before := takeSnapshot(ctx, t, cfg, cs, ns)
			start := time.Now()
			rollOut(ctx, t, cs, ns, f.name)
			f.inject(ctx, t)
			recovered := time.Since(start)
			cs = suite.Clientset(t, cfg) // the kubeconfig is the same; the connections are not
			t.Run("api", func(t *testing.T) {
				waitRollout(ctx, t, cs, ns)
				checkAPI(ctx, t, cs, ns, before)
			})
			t.Run("continuity", func(t *testing.T) {
				checkContinuity(ctx, t, cfg, cs, ns, before)
			})
			t.Logf("%s: back in %.1fs, checked in %.1fs", f.name, recovered.Seconds(), time.Since(start).Seconds())
			return ctx
		})
	}
	testenv.Test(t, b.Feature())
}

// createWorkloads creates steady, rolling and writer in ns and waits until
// they run.
func createWorkloads(ctx context.Context, t *testing.T, cfg *envconf.Config, cs kubernetes.Interface, ns string) {
	t.Helper()
	for name, replicas := range map[string]int32{steady: 2, rolling: 3} {
		d := deployment(name, replicas)
		suite.UseScheduler(d)
		if _, err := cs.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating deployment %s: %v", name, err)
		}
	}
	// `&`, not `&&`: ping runs on whatever the echo did, so that a
	// container run again shows in the continuity checks (its log, the
	// file), not as a restart.
	w := suite.WindowsPod(writer, suite.Build2022, "cmd", "/c", "echo %RANDOM%> "+markFile+" & ping -t localhost")
	w.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	w.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: markDir}}
	suite.RunPod(ctx, t, cs, ns, w)
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 10*time.Second, true, func(ctx context.Context) (bool, error) {
		return readMark(ctx, t, cfg, ns) != "", nil
	})
	if err != nil {
		t.Fatalf("%s did not write %s", writer, markFile)
	}
	waitRollout(ctx, t, cs, ns)
	for _, name := range []string{steady, rolling} {
		d, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d.Status.AvailableReplicas != *d.Spec.Replicas {
			t.Fatalf("deployment %s: %d of %d replicas available", name, d.Status.AvailableReplicas, *d.Spec.Replicas)
		}
	}
}

// deployment is a Deployment of Windows pods running `ping -t localhost`,
// which logs a line a second until stopped.
func deployment(name string, replicas int32) *appsv1.Deployment {
	pod := suite.WindowsPod(name, suite.Build2022, "ping", "-t", "localhost")
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       pod.Spec,
			},
		},
	}
}

// rollOut starts a new rollout of the rolling Deployment (a new template
// annotation) without waiting for it.
func rollOut(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, why string) {
	t.Helper()
	patch := fmt.Sprintf(`{"spec":{"template":{"metadata":{"annotations":{"wink.dev/fault":%q}}}}}`, why)
	if _, err := cs.AppsV1().Deployments(ns).Patch(ctx, rolling, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatalf("rolling out %s: %v", rolling, err)
	}
}

// waitRollout waits until every Deployment of ns has all its replicas
// updated and available, and no old ones.
func waitRollout(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string) {
	t.Helper()
	var last string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, rolloutTimeout, true, func(ctx context.Context) (bool, error) {
		list, err := cs.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			last = err.Error()
			return false, nil
		}
		for _, d := range list.Items {
			want := *d.Spec.Replicas
			s := d.Status
			if s.ObservedGeneration < d.Generation || s.UpdatedReplicas != want || s.Replicas != want || s.AvailableReplicas != want {
				last = fmt.Sprintf("deployment %s: generation %d observed %d, replicas %d updated %d available %d, want %d",
					d.Name, d.Generation, s.ObservedGeneration, s.Replicas, s.UpdatedReplicas, s.AvailableReplicas, want)
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Fatalf("rollout not complete after %s: %s", rolloutTimeout, last)
	}
}

// containerState is what the API says of one container.
type containerState struct {
	ID           string
	StartedAt    string
	RestartCount int32
	Ready        bool
}

// podState is what the API says of one pod.
type podState struct {
	UID        types.UID
	Node       string
	Phase      corev1.PodPhase
	PodIP      string
	StartTime  string
	Containers map[string]containerState
}

func stateOf(p *corev1.Pod) podState {
	s := podState{UID: p.UID, Node: p.Spec.NodeName, Phase: p.Status.Phase, PodIP: p.Status.PodIP, Containers: map[string]containerState{}}
	if p.Status.StartTime != nil {
		s.StartTime = p.Status.StartTime.UTC().Format(time.RFC3339)
	}
	for _, c := range p.Status.ContainerStatuses {
		cs := containerState{ID: c.ContainerID, RestartCount: c.RestartCount, Ready: c.Ready}
		if c.State.Running != nil {
			cs.StartedAt = c.State.Running.StartedAt.UTC().Format(time.RFC3339)
		}
		s.Containers[c.Name] = cs
	}
	return s
}

// snapshot is the state the checks after a fault compare with.
type snapshot struct {
	// pods are the pods that must come through untouched: steady's and
	// writer, by name.
	pods map[string]podState
	// logs are their logs (container main).
	logs map[string]string
	// system are kube-system's pods by name.
	system map[string]podState
	// mark is what writer's markFile holds.
	mark string
}

func takeSnapshot(ctx context.Context, t *testing.T, cfg *envconf.Config, cs kubernetes.Interface, ns string) snapshot {
	t.Helper()
	s := snapshot{pods: keptPods(ctx, t, cs, ns), logs: map[string]string{}, system: map[string]podState{}}
	// What the file holds now (nothing when an earlier fault lost it:
	// that fault's checks said so).
	s.mark = readMark(ctx, t, cfg, ns)
	for name := range s.pods {
		s.logs[name] = suite.Logs(ctx, t, cs, ns, name, "main")
	}
	list, err := cs.CoreV1().Pods(metav1.NamespaceSystem).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		s.system[list.Items[i].Name] = stateOf(&list.Items[i])
	}
	return s
}

// keptPods are the states of steady's pods and of writer.
func keptPods(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string) map[string]podState {
	t.Helper()
	out := map[string]podState{}
	list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + steady})
	if err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		out[list.Items[i].Name] = stateOf(&list.Items[i])
	}
	p, err := cs.CoreV1().Pods(ns).Get(ctx, writer, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out[writer] = stateOf(p)
	return out
}

// checkAPI: no pod lost or replaced, and every container as it was.
func checkAPI(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, before snapshot) {
	t.Helper()
	after := keptPods(ctx, t, cs, ns)
	for name, want := range before.pods {
		got, ok := after[name]
		switch {
		case !ok:
			t.Errorf("pod %s is gone", name)
		case got.UID != want.UID || got.Node != want.Node || got.Phase != want.Phase || got.PodIP != want.PodIP || got.StartTime != want.StartTime:
			t.Errorf("pod %s changed:\n got %+v\nwant %+v", name, got, want)
		default:
			for c, w := range want.Containers {
				if g := got.Containers[c]; g != w {
					t.Errorf("pod %s container %s changed: got %+v, want %+v (containerID, startedAt, restartCount, ready)", name, c, g, w)
				}
			}
		}
	}
	for name := range after {
		if _, ok := before.pods[name]; !ok {
			t.Errorf("pod %s is new: a pod of %s was replaced", name, steady)
		}
	}
	system, err := cs.CoreV1().Pods(metav1.NamespaceSystem).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	uids := map[string]types.UID{}
	for _, p := range system.Items {
		uids[p.Name] = p.UID
	}
	for name, want := range before.system {
		if uids[name] != want.UID {
			t.Errorf("kube-system pod %s (uid %s) is gone", name, want.UID)
		}
	}
}

// checkContinuity: the containers themselves lived through the fault, as
// containers do through a kubelet restart on a real node.
func checkContinuity(ctx context.Context, t *testing.T, cfg *envconf.Config, cs kubernetes.Interface, ns string, before snapshot) {
	t.Helper()
	// Each process runs on: its log grows past what it was. All pods are
	// watched at once, each until its log grew or lost its lines.
	now := map[string]string{}
	_ = wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, growTimeout, true, func(ctx context.Context) (bool, error) {
		settled := true
		for name, old := range before.logs {
			data, err := cs.CoreV1().Pods(ns).GetLogs(name, &corev1.PodLogOptions{Container: "main"}).DoRaw(ctx)
			if err != nil {
				settled = false
				continue
			}
			log := string(data)
			now[name] = log
			// A log only grows: once it no longer starts with what it
			// was (nor is the start of it), the lines are lost for good.
			lost := !strings.HasPrefix(log, old) && !strings.HasPrefix(old, log)
			grown := len(log) > len(old) && strings.HasPrefix(log, old)
			settled = settled && (lost || grown)
		}
		return settled, nil
	})
	for name, old := range before.logs {
		log := now[name]
		if !strings.HasPrefix(log, old) {
			t.Errorf("pod %s: the log lines from before the fault are gone:\nbefore (%d bytes, ends %q)\nafter (%d bytes, starts %q)", name, len(old), tail(old), len(log), head(log))
		} else if len(log) == len(old) {
			t.Errorf("pod %s: no new log line within %s of the fault: its process stopped", name, growTimeout)
		}
		if n := strings.Count(log, pingHeader); n != 1 {
			t.Errorf("pod %s: ping's header %q is in the log %d times, want once: the container's output was replayed", name, pingHeader, n)
		}
	}
	if got := readMark(ctx, t, cfg, ns); got != before.mark {
		t.Errorf("exec `type %s` in %s: %q, want %q: the file the container wrote is gone or was written again", markFile, writer, got, before.mark)
	}
	// kube-system Running and Ready, with the restart counts it had.
	var last []string
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, systemTimeout, true, func(ctx context.Context) (bool, error) {
		list, err := cs.CoreV1().Pods(metav1.NamespaceSystem).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		last = last[:0]
		for i := range list.Items {
			p := &list.Items[i]
			want, ok := before.system[p.Name]
			if !ok {
				continue
			}
			got := stateOf(p)
			if !suite.Running(p) {
				last = append(last, fmt.Sprintf("%s is %s, not Running and Ready", p.Name, got.Phase))
			}
			for c, w := range want.Containers {
				if g := got.Containers[c]; g.RestartCount != w.RestartCount {
					last = append(last, fmt.Sprintf("%s container %s restarted: restartCount %d, was %d", p.Name, c, g.RestartCount, w.RestartCount))
				}
			}
		}
		return len(last) == 0, nil
	})
	if err != nil {
		t.Errorf("kube-system after the fault: %s", strings.Join(last, "; "))
	}
}

// readMark is what writer's markFile holds, through exec ("" when exec
// fails to read it, said in the log).
func readMark(ctx context.Context, t *testing.T, cfg *envconf.Config, ns string) string {
	t.Helper()
	res := suite.Exec(ctx, t, cfg, ns, writer, "main", "cmd", "/c", "type "+markFile)
	if res.ExitCode != 0 {
		t.Logf("exec `type %s` in %s: exit %d, stderr %q", markFile, writer, res.ExitCode, res.Stderr)
		return ""
	}
	return strings.TrimSpace(res.Stdout)
}

func head(s string) string {
	if len(s) > 80 {
		return s[:80]
	}
	return s
}

func tail(s string) string {
	if len(s) > 80 {
		return s[len(s)-80:]
	}
	return s
}

// killComponent SIGKILLs one child of the supervisor and waits until the
// supervisor has restarted it and it is ready again.
func killComponent(component string) func(ctx context.Context, t *testing.T) {
	return func(ctx context.Context, t *testing.T) {
		t.Helper()
		pid, err := harness.ComponentPID(cluster.Options, component)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatalf("killing %s (pid %d): %v", component, pid, err)
		}
		var last string
		err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, recoverTimeout, false, func(context.Context) (bool, error) {
			st, err := harness.GetStatus(cluster.Options)
			if err != nil {
				last = err.Error()
				return false, nil
			}
			for _, c := range st.Components {
				if c.Name == component {
					last = fmt.Sprintf("pid %d, state %s, last exit %q", c.PID, c.State, c.LastExit)
					return c.PID != 0 && c.PID != pid && c.State == "ready", nil
				}
			}
			last = "not in the status"
			return false, nil
		})
		if err != nil {
			t.Fatalf("%s was not restarted and ready within %s of its kill (pid %d): %s", component, recoverTimeout, pid, last)
		}
	}
}

// killSupervisor SIGKILLs `wink supervise`. Its children go with it (they
// get SIGTERM when their parent dies), `wink status` says the cluster is not
// running, and `wink up` brings it back as after `wink down`.
func killSupervisor(ctx context.Context, t *testing.T) {
	t.Helper()
	st, err := harness.GetStatus(cluster.Options)
	if err != nil {
		t.Fatal(err)
	}
	var children []int
	for _, c := range st.Components {
		if c.PID != 0 {
			children = append(children, c.PID)
		}
	}
	pid, err := harness.ComponentPID(cluster.Options, "supervisor")
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("killing the supervisor (pid %d): %v", pid, err)
	}
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		for _, c := range append(children, pid) {
			if alive(c) {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		var left []int
		for _, c := range children {
			if alive(c) {
				left = append(left, c)
			}
		}
		t.Errorf("components %v still run 30s after their supervisor was killed", left)
	}
	st, err = harness.GetStatus(cluster.Options)
	if err != nil {
		t.Fatal(err)
	}
	if st.Running || len(st.Leftovers) > 0 {
		t.Errorf("wink status after the supervisor was killed: running %v, components left running %v; want neither", st.Running, st.Leftovers)
	}
	up(ctx, t)
}

// downUp is `wink down` then `wink up`.
func downUp(ctx context.Context, t *testing.T) {
	t.Helper()
	if err := harness.Down(ctx, cluster.Options); err != nil {
		t.Fatal(err)
	}
	up(ctx, t)
}

func up(ctx context.Context, t *testing.T) {
	t.Helper()
	if _, err := harness.Up(ctx, harness.UpOptions{Options: cluster.Options, Schedulable: true, Wait: 2 * time.Minute}); err != nil {
		t.Fatal(err)
	}
}

// alive reports whether pid is a process that has not exited (a zombie,
// exited but not yet reaped, has).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
