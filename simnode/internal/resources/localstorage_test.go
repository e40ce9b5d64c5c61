package resources

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func storagePod(name string, sizeLimit string, ctrLimit string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: "u-" + "name"}}
	c := corev1.Container{Name: "c", Image: "busybox"}
	if ctrLimit != "" {
		c.Resources.Limits = corev1.ResourceList{corev1.ResourceEphemeralStorage: resource.MustParse(ctrLimit)}
	}
	p.Spec.Containers = []corev1.Container{c}
	ed := &corev1.EmptyDirVolumeSource{}
	if sizeLimit != "" {
		q := resource.MustParse(sizeLimit)
		ed.SizeLimit = &q
	}
	p.Spec.Volumes = []corev1.Volume{{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: ed}}}
	return p
}

// The kubelet's localStorageEviction verdicts, with its messages word for
// word (issue 22; pkg/kubelet/eviction/helpers.go).
func TestLocalStorageMessage(t *testing.T) {
	const mi = 1 << 20
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		u    PodStorage
		want string
	}{
		{"emptyDir within its sizeLimit", storagePod("p", "1Mi", ""),
			PodStorage{EmptyDirs: map[string]int64{"scratch": mi}, Total: mi}, ""},
		{"emptyDir past its sizeLimit", storagePod("p", "1Mi", ""),
			PodStorage{EmptyDirs: map[string]int64{"scratch": mi + 1}, Total: mi + 1},
			`Usage of EmptyDir volume "scratch" exceeds the limit "1Mi". `},
		{"no sizeLimit: no limit", storagePod("p", "", ""),
			PodStorage{EmptyDirs: map[string]int64{"scratch": 100 * mi}, Total: 100 * mi}, ""},
		{"pod total past the containers' limits", storagePod("p", "", "2Mi"),
			PodStorage{EmptyDirs: map[string]int64{"scratch": 2 * mi}, Containers: map[string]int64{"c": mi}, Total: 3 * mi},
			"Pod ephemeral local storage usage exceeds the total limit of containers 2Mi. "},
		{"emptyDir first", storagePod("p", "1Mi", "2Mi"),
			PodStorage{EmptyDirs: map[string]int64{"scratch": 2 * mi}, Containers: map[string]int64{"c": mi}, Total: 3 * mi},
			`Usage of EmptyDir volume "scratch" exceeds the limit "1Mi". `},
		{"within every limit", storagePod("p", "1Mi", "2Mi"),
			PodStorage{EmptyDirs: map[string]int64{"scratch": mi / 2}, Containers: map[string]int64{"c": mi}, Total: mi + mi/2}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := LocalStorageMessage(tc.pod, tc.u); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

type lsEvictor struct{ recordedEvictor }

func (e *lsEvictor) EvictLocalStorage(pod *corev1.Pod, message string) error {
	e.evicted = append(e.evicted, "ls "+pod.Name+": "+message)
	return nil
}

// Local storage eviction runs on every node, also one whose memory
// signal never evicts (Windows before v1.31, N6), and goes through the
// evictor's local storage path with the Evicted event.
func TestManagerLocalStorage(t *testing.T) {
	for _, kubelet := range []string{"v1.30.0", "v1.35.4"} {
		t.Run(kubelet, func(t *testing.T) {
			over := storagePod("over", "1Mi", "")
			within := storagePod("within", "1Mi", "")
			f := newFixture("windows", node("4", "16Gi"), within, over)
			ev := &lsEvictor{}
			rec := &recorder{}
			m := NewManager(ManagerConfig{
				Resources:    f.res,
				ConditionSet: conditionSet(t, "windows", kubelet),
				EvictionHard: map[string]string{"memory.available": "500Mi"},
				ActivePods:   func() []*corev1.Pod { return []*corev1.Pod{within, over} },
				Evictor:      ev,
				Recorder:     rec,
				LocalStorage: func(p *corev1.Pod) (PodStorage, bool) {
					n := int64(1 << 19)
					if p.Name == "over" {
						n = 3 << 20
					}
					return PodStorage{EmptyDirs: map[string]int64{"scratch": n}, Total: n}, true
				},
				Clock: f.clock,
			})
			got, err := m.Synchronize()
			if err != nil {
				t.Fatal(err)
			}
			want := `Usage of EmptyDir volume "scratch" exceeds the limit "1Mi". `
			if got == nil || got.Name != "over" || len(ev.evicted) != 1 || ev.evicted[0] != "ls over: "+want {
				t.Fatalf("evicted %v", ev.evicted)
			}
			if len(rec.events) != 1 || rec.events[0] != "Warning Evicted "+want {
				t.Fatalf("events %v", rec.events)
			}
		})
	}
}
