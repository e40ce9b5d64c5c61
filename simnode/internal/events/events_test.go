package events

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
)

func TestFilteredDropsProviderEvents(t *testing.T) {
	for _, tc := range []struct {
		reason string
		want   bool
	}{
		{"ProviderCreateSuccess", false},
		{"ProviderDeleteSuccess", false},
		{"ProviderUpdateFailed", false},
		{"Pulling", true},
		{"PodOSNotSupported", true},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			fake := record.NewFakeRecorder(10)
			f := Filtered{fake}
			f.Event(&corev1.Pod{}, corev1.EventTypeNormal, tc.reason, "m")
			f.Eventf(&corev1.Pod{}, corev1.EventTypeNormal, tc.reason, "m %d", 1)
			f.AnnotatedEventf(&corev1.Pod{}, nil, corev1.EventTypeNormal, tc.reason, "m")
			if got := len(fake.Events) == 3; got != tc.want {
				t.Fatalf("passed=%v (%d events), want %v", got, len(fake.Events), tc.want)
			}
		})
	}
}
