package resources

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/clock"
)

// StatusEvictor is the fallback Evictor of a node without a runtime that
// stops containers (simnode evicts through the pods runtime's Terminate):
// it writes the status the kubelet's status manager would write for an
// evicted pod (phase Failed, reason Evicted, the message, DisruptionTarget
// True with reason TerminationByKubelet, Ready and ContainersReady False
// with reason PodFailed, every running container terminated with
// KilledExitCode and reason Error). virtual-kubelet stops syncing a pod's
// status once the API says it is Failed (shouldSkipPodStatusUpdate), so the
// simulated runtime does not overwrite it; it does not stop the runtime's
// own container records.
type StatusEvictor struct {
	Client kubernetes.Interface
	// KilledExitCode is the exit code of a container the kubelet kills
	// (rules.KilledExitCode: 137 on Linux, 1 on Windows).
	KilledExitCode int32
	Clock          clock.PassiveClock
	Timeout        time.Duration
}

// Evict implements Evictor.
func (e *StatusEvictor) Evict(pod *corev1.Pod, message string) error {
	c := e.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	timeout := e.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	pods := e.Client.CoreV1().Pods(pod.Namespace)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := pods.Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cur.UID != pod.UID {
			return fmt.Errorf("pod %s/%s was replaced", pod.Namespace, pod.Name)
		}
		if cur.Status.Phase == corev1.PodFailed || cur.Status.Phase == corev1.PodSucceeded {
			return nil
		}
		EvictedStatus(&cur.Status, cur.Generation, message, e.KilledExitCode, metav1.NewTime(c.Now()))
		_, err = pods.UpdateStatus(ctx, cur, metav1.UpdateOptions{})
		return err
	})
}

// EvictedStatus turns st into an evicted pod's status (see StatusEvictor).
func EvictedStatus(st *corev1.PodStatus, generation int64, message string, exitCode int32, now metav1.Time) {
	st.Phase = corev1.PodFailed
	st.Reason = EvictedReason
	st.Message = message
	set := func(c corev1.PodCondition) {
		c.LastTransitionTime = now
		c.ObservedGeneration = generation
		for i := range st.Conditions {
			if st.Conditions[i].Type == c.Type {
				if st.Conditions[i].Status == c.Status {
					c.LastTransitionTime = st.Conditions[i].LastTransitionTime
				}
				st.Conditions[i] = c
				return
			}
		}
		st.Conditions = append(st.Conditions, c)
	}
	set(corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: TerminationByKubelet, Message: message})
	set(corev1.PodCondition{Type: corev1.ContainersReady, Status: corev1.ConditionFalse, Reason: "PodFailed"})
	set(corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "PodFailed"})
	for i := range st.ContainerStatuses {
		cs := &st.ContainerStatuses[i]
		cs.Ready = false
		f := false
		cs.Started = &f
		if r := cs.State.Running; r != nil {
			cs.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
				ExitCode:    exitCode,
				Reason:      "Error",
				StartedAt:   r.StartedAt,
				FinishedAt:  now,
				ContainerID: cs.ContainerID,
			}}
		}
	}
}
