package pods

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/volumes"
)

// TestTerminationMessage: status.containerStatuses[].state.terminated.message
// as kuberuntime_container.go convertToKubeContainerStatus makes it (row
// B13, kubelet v1.35, rules runtime terminationMessage): the file at
// terminationMessagePath, else with FallbackToLogsOnError and a non-zero
// exit the last 80 log lines, at most 2048 bytes, a last line without a
// newline kept without one (upstream common/node/runtime.go).
func TestTerminationMessage(t *testing.T) {
	// n lines of width bytes each, newline included
	lines := func(n int, width int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%s-%03d\n", strings.Repeat("x", width-5), i)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, os, script string
		policy           corev1.TerminationMessagePolicy
		path             string
		want             string
	}{
		{name: "file", os: "windows", script: "/bin/echo -n DONE > /dev/termination-log", path: "/dev/termination-log", want: "DONE"},
		{name: "file at a custom path", os: "linux", script: "/bin/echo -n DONE > /dev/termination-custom-log", path: "/dev/termination-custom-log", want: "DONE"},
		{name: "logs on error", os: "windows", script: "/bin/echo -n DONE; /bin/false", path: "/dev/termination-log", policy: corev1.TerminationMessageFallbackToLogsOnError, want: "DONE"},
		{name: "no logs on success", os: "windows", script: "/bin/echo -n DONE; /bin/true", path: "/dev/termination-log", policy: corev1.TerminationMessageFallbackToLogsOnError, want: ""},
		{name: "file wins over logs", os: "linux", script: "/bin/echo -n OK > /dev/termination-log; /bin/echo DONE; /bin/true", path: "/dev/termination-log", policy: corev1.TerminationMessageFallbackToLogsOnError, want: "OK"},
		{name: "full lines keep their newline", os: "linux", script: "echo one; echo two; exit 3", path: "/dev/termination-log", policy: corev1.TerminationMessageFallbackToLogsOnError, want: "one\ntwo\n"},
		{name: "last 80 lines", os: "linux", script: "printf '" + strings.ReplaceAll(lines(100, 8), "\n", `\n`) + "'; exit 1", path: "/dev/termination-log", policy: corev1.TerminationMessageFallbackToLogsOnError, want: lines(100, 8)[20*8:]},
		{name: "last 2048 bytes", os: "linux", script: "printf '" + strings.ReplaceAll(lines(30, 100), "\n", `\n`) + "'; exit 1", path: "/dev/termination-log", policy: corev1.TerminationMessageFallbackToLogsOnError, want: lines(30, 100)[3000-2048:]},
		{name: "policy File ignores logs", os: "linux", script: "echo DONE; exit 1", path: "/dev/termination-log", want: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.os, "10.244.1.0/24")
			f.p = f.newProviderWith(func(c *Config) {
				c.Volumes = fuzzVolumes{node: volumes.NewNode(facts.OS(tc.os)), src: fuzzSource{}}
			})
			pod := simplePod("tm", "/bin/sh", "-c", tc.script)
			pod.Spec.Containers[0].Image = "registry.k8s.io/e2e-test-images/busybox:1.37.0-1"
			pod.Spec.Containers[0].TerminationMessagePath = tc.path
			pod.Spec.Containers[0].TerminationMessagePolicy = tc.policy
			pod.Spec.RestartPolicy = corev1.RestartPolicyNever
			pod = f.addPod(pod)
			if err := f.p.CreatePod(context.Background(), pod); err != nil {
				t.Fatal(err)
			}
			f.run(startDelay + stopDelay)
			st := f.get("tm").Status
			term := st.ContainerStatuses[0].State.Terminated
			if term == nil {
				t.Fatalf("not terminated: %+v", st.ContainerStatuses[0].State)
			}
			if term.Message != tc.want {
				t.Errorf("message %q, want %q", term.Message, tc.want)
			}
		})
	}
}
