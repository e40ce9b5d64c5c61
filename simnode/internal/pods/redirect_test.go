package pods

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// TestHTTPProbeRedirect: an httpGet probe answered by a redirect to
// another host is not followed and succeeds with a ProbeWarning event
// carrying the body (row B13; probe/http/http.go RedirectChecker,
// prober.go "%s probe warning: %s", kubelet v1.35); a redirect to the same
// host is followed (agnhost liveness /redirect, upstream container_probe.go
// "should *not* be restarted with a non-local redirect http liveness probe").
func TestHTTPProbeRedirect(t *testing.T) {
	for _, tc := range []struct {
		name, loc string
		warning   bool
		restarts  bool
	}{
		{name: "non-local", loc: "http%3A%2F%2F0.0.0.0%2F", warning: true},
		{name: "local to /healthz, which fails after 10s", loc: "%2Fhealthz", restarts: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureWith(t, "windows", func(c *Config) { c.Images = fakeImages{} })
			pod := simplePod("liveness", "/agnhost", "liveness")
			pod.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 8080}}
			pod.Spec.Containers[0].LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
				Path: "/redirect?loc=" + tc.loc, Port: intstr.FromInt32(8080)}}, InitialDelaySeconds: 15, FailureThreshold: 1, PeriodSeconds: 10}
			f.start(pod)
			f.run(60 * time.Second)
			warn := f.eventsOf("ProbeWarning")
			if tc.warning != (len(warn) > 0) {
				t.Fatalf("ProbeWarning events %+v", warn)
			}
			if tc.warning && !strings.Contains(warn[0].Message, `Liveness probe warning: Probe terminated redirects, Response body: <a href="http://0.0.0.0/">Found</a>.`) || (tc.warning && warn[0].Type != corev1.EventTypeWarning) {
				t.Fatalf("ProbeWarning %+v", warn[0])
			}
			if got := f.get("liveness").Status.ContainerStatuses[0].RestartCount > 0; got != tc.restarts {
				t.Fatalf("restarted %v, want %v (events %+v)", got, tc.restarts, f.recorder.Events)
			}
		})
	}
}
