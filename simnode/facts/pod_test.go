package facts

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func TestHostProcess(t *testing.T) {
	hp := func(v bool) *corev1.SecurityContext {
		return &corev1.SecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: &v}}
	}
	podHP := func(v bool) *corev1.PodSecurityContext {
		return &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: &v}}
	}
	for _, tc := range []struct {
		name string
		spec corev1.PodSpec
		want bool
	}{
		{"none", corev1.PodSpec{Containers: []corev1.Container{{Name: "c"}}}, false},
		{"pod level", corev1.PodSpec{SecurityContext: podHP(true), Containers: []corev1.Container{{Name: "c"}}}, true},
		{"container level", corev1.PodSpec{Containers: []corev1.Container{{Name: "c", SecurityContext: hp(true)}}}, true},
		{"an init container", corev1.PodSpec{InitContainers: []corev1.Container{{Name: "i", SecurityContext: hp(true)}}, Containers: []corev1.Container{{Name: "c"}}}, true},
		{"the container overrides the pod", corev1.PodSpec{SecurityContext: podHP(true), Containers: []corev1.Container{{Name: "c", SecurityContext: hp(false)}}}, false},
		{"pod false", corev1.PodSpec{SecurityContext: podHP(false), Containers: []corev1.Container{{Name: "c"}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := HostProcess(&corev1.Pod{Spec: tc.spec}); got != tc.want {
				t.Errorf("[B10] HostProcess = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestContainerHostProcess: a container's own value overrides its pod's
// (B10).
func TestContainerHostProcess(t *testing.T) {
	v := func(b bool) *bool { return &b }
	ctr := func(b *bool) *corev1.SecurityContext {
		return &corev1.SecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: b}}
	}
	pod := func(b *bool) *corev1.Pod {
		p := &corev1.Pod{}
		if b != nil {
			p.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: b}}
		}
		return p
	}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		sc   *corev1.SecurityContext
		want bool
	}{
		{"neither", pod(nil), nil, false},
		{"pod's", pod(v(true)), nil, true},
		{"container's", pod(nil), ctr(v(true)), true},
		{"container overrides pod", pod(v(true)), ctr(v(false)), false},
		{"container without a value takes pod's", pod(v(true)), ctr(nil), true},
	} {
		if got := ContainerHostProcess(tc.pod, tc.sc); got != tc.want {
			t.Errorf("[B10] %s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
