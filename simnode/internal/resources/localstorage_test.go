package resources

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
	"wink.dev/wink/simnode/facts"
)

func storagePod(name string, sizeLimit string, ctrLimit string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("u-" + name)}}
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

// Local storage eviction goes through the evictor's local storage path
// with the Evicted event; a Windows kubelet before v1.31 evicts nothing
// at all (N6).
func TestManagerLocalStorage(t *testing.T) {
	for _, kubelet := range []string{"v1.30.0", "v1.35.4"} {
		t.Run(kubelet, func(t *testing.T) {
			evicts := kubelet != "v1.30.0"
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
			if !evicts {
				if got != nil || len(ev.evicted) != 0 {
					t.Fatalf("[N6] kubelet %s evicted %v", kubelet, ev.evicted)
				}
				return
			}
			if got == nil || got.Name != "over" || len(ev.evicted) != 1 || ev.evicted[0] != "ls over: "+want {
				t.Fatalf("evicted %v", ev.evicted)
			}
			if len(rec.events) != 1 || rec.events[0] != "Warning Evicted "+want {
				t.Fatalf("events %v", rec.events)
			}
		})
	}
}

// nodefs.available (issue 22): a Linux node whose pods filled its disk
// below the evictionHard threshold reports DiskPressure and evicts the
// pod above its ephemeral-storage request that uses the most, with the
// kubelet's message; a Windows node never does (N7).
func TestManagerDiskPressure(t *testing.T) {
	const gi = int64(1) << 30
	for _, os := range []string{"linux", "windows"} {
		t.Run(os, func(t *testing.T) {
			small := storagePod("small", "", "")
			big := storagePod("big", "", "")
			requested := storagePod("requested", "", "")
			requested.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceEphemeralStorage: resource.MustParse("80Gi")}
			use := map[string]int64{"small": gi, "big": 5 * gi, "requested": 79 * gi}
			f := newFixture(facts.OS(os), node("4", "16Gi"), small, big, requested)
			ev := &recordedEvictor{}
			rec := &recorder{}
			var pressure []bool
			m := NewManager(ManagerConfig{
				Resources:    f.res,
				ConditionSet: conditionSet(t, facts.OS(os), "v1.35.4"),
				EvictionHard: map[string]string{"memory.available": "100Mi", "nodefs.available": "10%"},
				ActivePods:   func() []*corev1.Pod { return []*corev1.Pod{small, big, requested} },
				Evictor:      ev,
				Recorder:     rec,
				LocalStorage: func(p *corev1.Pod) (PodStorage, bool) {
					n := use[p.Name]
					return PodStorage{Containers: map[string]int64{"c": n}, Total: n}, true
				},
				DiskPressure:    os == "linux",
				SetDiskPressure: func(p bool) { pressure = append(pressure, p) },
				Clock:           f.clock,
			})
			got, err := m.Synchronize()
			if err != nil {
				t.Fatal(err)
			}
			if os == "windows" {
				if got != nil || len(pressure) != 0 {
					t.Fatalf("[N7] a Windows node: pressure %v, evicted %v", pressure, ev.evicted)
				}
				return
			}
			// 100Gi − 12Gi (OS, images) − 85Gi = 3Gi available < 10%
			// (the kubelet's float32 fraction: 10737418400 bytes).
			want := "The node was low on resource: ephemeral-storage. Threshold quantity: 10737418400, available: 3Gi. Container c was using 5Gi, request is 0, has larger consumption of ephemeral-storage. "
			if len(pressure) != 1 || !pressure[0] {
				t.Fatalf("DiskPressure updates %v, want [true]", pressure)
			}
			if got == nil || got.Name != "big" || len(ev.evicted) != 1 || ev.evicted[0] != "big: "+want {
				t.Fatalf("evicted %v, want big: %q", ev.evicted, want)
			}
		})
	}
}

// The Summary API shows what the containers wrote (issue 22): each
// container's Rootfs (its layer) and Logs, the pod's EphemeralStorage with
// its emptyDirs, each emptyDir's VolumeStats, and the node's nodefs
// available after all of it.
func TestSummaryMeasuredDisk(t *testing.T) {
	const mi = int64(1) << 20
	w := pod("writer", ctr{name: "c", image: "busybox"})
	other := pod("other", ctr{name: "c", image: "busybox"})
	f := newFixture("linux", node("4", "16Gi"), w, other)
	f.res.cfg.DiskUsage = func(p *corev1.Pod) (PodStorage, bool) {
		if p.Name != "writer" {
			return PodStorage{}, false
		}
		return PodStorage{
			EmptyDirs:  map[string]int64{"scratch": 30 * mi},
			Containers: map[string]int64{"c": 7 * mi},
			Logs:       map[string]int64{"c": 2 * mi},
			Total:      37 * mi,
		}, true
	}
	s := f.res.Summary()
	var ps *statsapi.PodStats
	for i := range s.Pods {
		if s.Pods[i].PodRef.Name == "writer" {
			ps = &s.Pods[i]
		}
	}
	if ps == nil {
		t.Fatal("no stats for pod writer")
	}
	c := ps.Containers[0]
	if *c.Rootfs.UsedBytes != uint64(5*mi) || *c.Logs.UsedBytes != uint64(2*mi) {
		t.Fatalf("container rootfs %d logs %d", *c.Rootfs.UsedBytes, *c.Logs.UsedBytes)
	}
	if *ps.EphemeralStorage.UsedBytes != uint64(37*mi) || len(ps.VolumeStats) != 1 || ps.VolumeStats[0].Name != "scratch" || *ps.VolumeStats[0].UsedBytes != uint64(30*mi) {
		t.Fatalf("pod ephemeral %d volumes %+v", *ps.EphemeralStorage.UsedBytes, ps.VolumeStats)
	}
	// 100Gi − 12Gi − 37Mi − the unmeasured pod's fixed 8Mi + 64Ki.
	want := uint64(defaultEphemeralCapacity - nodeFsBaseUsed - 37*mi - rootfsUsedPerContainer - logsUsedPerContainer)
	if got := *s.Node.Fs.AvailableBytes; got != want {
		t.Fatalf("node fs available %d, want %d", got, want)
	}
}
