package statuspatch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
)

// Pods is a PodsGetter whose pods' UpdateStatus is the kubelet's status
// patch; every other call goes to the wrapped client as it is.
type Pods struct {
	corev1client.PodsGetter
	lister corev1listers.PodLister

	mu sync.Mutex
	// last is each pod's (by UID) status as the last patch returned it:
	// newer than the informer's until the informer catches up.
	last map[types.UID]*corev1.Pod
}

// New wraps client; lister is the informer the node sees its pods in.
func New(client corev1client.PodsGetter, lister corev1listers.PodLister) *Pods {
	return &Pods{PodsGetter: client, lister: lister, last: map[types.UID]*corev1.Pod{}}
}

// Pods implements corev1client.PodsGetter.
func (p *Pods) Pods(namespace string) corev1client.PodInterface {
	return podClient{PodInterface: p.PodsGetter.Pods(namespace), p: p, namespace: namespace}
}

type podClient struct {
	corev1client.PodInterface
	p         *Pods
	namespace string
}

// UpdateStatus patches pod's status from the one the API last showed.
func (c podClient) UpdateStatus(ctx context.Context, pod *corev1.Pod, _ metav1.UpdateOptions) (*corev1.Pod, error) {
	old := c.p.known(c.namespace, pod.Name, pod.UID)
	var oldStatus corev1.PodStatus
	if old != nil {
		oldStatus = old.Status
	}
	patch, unchanged, err := Patch(pod.UID, oldStatus, pod.Status)
	if err != nil {
		return nil, fmt.Errorf("pod %s/%s: %w", c.namespace, pod.Name, err)
	}
	if unchanged && old != nil {
		return old, nil
	}
	updated, err := c.PodInterface.Patch(ctx, pod.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
	if err != nil {
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			c.p.forget(pod.UID)
		}
		return nil, err
	}
	c.p.remember(updated)
	return updated, nil
}

// Delete forgets the pod's last status and deletes it.
func (c podClient) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	if old, err := c.p.lister.Pods(c.namespace).Get(name); err == nil {
		c.p.forget(old.UID)
	}
	return c.PodInterface.Delete(ctx, name, opts)
}

// known is the newest of the informer's pod and the last patch's answer.
func (p *Pods) known(namespace, name string, uid types.UID) *corev1.Pod {
	informed, err := p.lister.Pods(namespace).Get(name)
	if err != nil || informed.UID != uid {
		informed = nil
	}
	p.mu.Lock()
	last := p.last[uid]
	p.mu.Unlock()
	switch {
	case last == nil:
		return informed
	case informed == nil:
		return last
	case newer(informed.ResourceVersion, last.ResourceVersion):
		p.forget(uid) // the informer caught up
		return informed
	}
	return last
}

func (p *Pods) remember(pod *corev1.Pod) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last[pod.UID] = pod
}

func (p *Pods) forget(uid types.UID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.last, uid)
}

// newer reports whether the informer's resourceVersion a is at least the
// last patch's b. wink's apiserver serves etcd revisions, which are
// numbers; when one is not, the patch's answer counts as newer (it was the
// API's state after the informer's).
func newer(a, b string) bool {
	x, err1 := strconv.ParseUint(a, 10, 64)
	y, err2 := strconv.ParseUint(b, 10, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	return x >= y
}

// Patch is the kubelet's status patch (pkg/util/pod
// preparePatchBytesForPodStatus): a two-way strategic merge patch from old
// to new, the UID in it as precondition; unchanged when it holds nothing
// else.
func Patch(uid types.UID, old, new corev1.PodStatus) ([]byte, bool, error) {
	oldData, err := json.Marshal(corev1.Pod{Status: old})
	if err != nil {
		return nil, false, err
	}
	newData, err := json.Marshal(corev1.Pod{ObjectMeta: metav1.ObjectMeta{UID: uid}, Status: new})
	if err != nil {
		return nil, false, err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, corev1.Pod{})
	if err != nil {
		return nil, false, err
	}
	return patch, bytes.Equal(patch, []byte(fmt.Sprintf(`{"metadata":{"uid":%q}}`, uid))), nil
}
