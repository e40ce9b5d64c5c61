package pods

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/internal/volumes"
)

// Issue 21 (B11): a subPathExpr that expands to nothing fails the start
// (CreateContainerConfigError "missing value for ANNOTATION"); the kubelet
// expands it again at each start attempt with the pod as it is then, so a
// pod update that sets the annotation lets the container start (upstream
// common/node/expansion.go "should verify that a failing subpath expansion
// can be modified during the lifecycle of a container").
func TestSubPathExprAfterUpdate(t *testing.T) {
	f := newFixtureWith(t, "windows", func(c *Config) {
		c.Volumes = fuzzVolumes{node: volumes.NewNode(c.Node.OS), src: fuzzSource{}}
	})
	pod := simplePod("expand", "cmd", "/c", "ping -t localhost")
	pod.Annotations = map[string]string{"notmysubpath": "mypath"}
	pod.Spec.Volumes = []corev1.Volume{{Name: "workdir1", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	pod.Spec.Containers[0].Env = []corev1.EnvVar{
		{Name: "POD_NAME", Value: "foo"},
		{Name: "ANNOTATION", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.annotations['mysubpath']"}}},
	}
	pod.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{
		{Name: "workdir1", MountPath: "/subpath_mount", SubPathExpr: "$(ANNOTATION)/$(POD_NAME)"},
		{Name: "workdir1", MountPath: "/volume_mount"},
	}
	f.start(pod)
	f.run(5 * time.Second)
	cs := f.get("expand").Status.ContainerStatuses[0]
	if cs.State.Waiting == nil || cs.State.Waiting.Reason != "CreateContainerConfigError" || cs.State.Waiting.Message != "missing value for ANNOTATION" {
		t.Fatalf("before the update %+v", cs.State)
	}
	upd := f.get("expand").DeepCopy()
	upd.Annotations["mysubpath"] = "mypath"
	if err := f.p.UpdatePod(context.Background(), upd); err != nil {
		t.Fatal(err)
	}
	f.run(15 * time.Second)
	got := f.get("expand")
	if cs := got.Status.ContainerStatuses[0]; got.Status.Phase != corev1.PodRunning || cs.State.Running == nil {
		t.Fatalf("after the update %s %+v", got.Status.Phase, cs.State)
	}
}
