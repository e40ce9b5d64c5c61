package events

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"
)

// Filtered drops events whose reason starts with "Provider" (node/pod.go in
// virtual-kubelet: ProviderCreateSuccess, ProviderCreateFailed,
// ProviderUpdateSuccess, ProviderUpdateFailed, ProviderDeleteSuccess,
// ProviderDeleteFailed); everything else goes to the wrapped recorder.
type Filtered struct {
	record.EventRecorder
}

var _ record.EventRecorder = Filtered{}

func dropped(reason string) bool { return strings.HasPrefix(reason, "Provider") }

// Event implements record.EventRecorder.
func (f Filtered) Event(object runtime.Object, eventtype, reason, message string) {
	if !dropped(reason) {
		f.EventRecorder.Event(object, eventtype, reason, message)
	}
}

// Eventf implements record.EventRecorder.
func (f Filtered) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...interface{}) {
	if !dropped(reason) {
		f.EventRecorder.Eventf(object, eventtype, reason, messageFmt, args...)
	}
}

// AnnotatedEventf implements record.EventRecorder.
func (f Filtered) AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...interface{}) {
	if !dropped(reason) {
		f.EventRecorder.AnnotatedEventf(object, annotations, eventtype, reason, messageFmt, args...)
	}
}
