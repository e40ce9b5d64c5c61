package pods

// Fuzz targets of the simulated runtime (issue §8).
//
//	go test ./simnode/internal/pods -run '^$' -fuzz '^FuzzPodSpec$' -fuzztime 60s
//	go test ./simnode/internal/pods -run '^$' -fuzz '^FuzzExec$' -fuzztime 60s
//
// FuzzPodSpec builds random but valid-shaped pods (the apiserver's
// validation holds: unique names, mounts of declared volumes, hostProcess
// only with hostNetwork) and runs each through a Provider on a manual clock
// with the real shell, image catalog, volumes and network model, the way
// Simulate does, sampling the status at every tick. FuzzExec feeds command
// lines to `exec` in running Windows and Linux containers.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	utilexec "k8s.io/utils/exec"
	"k8s.io/utils/ptr"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/fuzzbound"
	"wink.dev/wink/simnode/images"
	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/internal/pods/containerenv"
	"wink.dev/wink/simnode/internal/volumes"
	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/rules"
	"wink.dev/wink/simnode/shell"
	"wink.dev/wink/simnode/shell/process"
)

// ---- the real collaborators, adapted as package wire does (wire imports
// this package, so an internal test cannot import it) ----

// testShell is the simulated shell as wire.Shell adapts it: the shell's
// own run-or-block rule (shell.RunProcess) and lookup.
type testShell struct{}

func (testShell) Run(ctx context.Context, e *Env, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return shell.RunProcess(ctx, e.Process(), e.Start(), argv, stdin, stdout, stderr)
}
func (testShell) Found(e *Env, argv []string) (bool, bool) {
	return shell.Lookup(e.OS, e.Image, e.HostProcess, argv)
}
func (testShell) Listens(argv []string) []int { return shell.Listens(argv) }
func (testShell) ShutdownDelay(argv []string) (time.Duration, bool) {
	return shell.ShutdownDelay(argv)
}

type fuzzImages struct{ c *images.Catalog }

func (i fuzzImages) Pull(ref string, h ImageHost, pod *corev1.Pod, container string) (Image, error) {
	img, err := i.c.Pull(ref, images.Host{OS: h.OS, Build: h.Build, Handler: h.Handler}, pod.Annotations, images.Options{Container: container})
	if err != nil {
		var pe *images.PullError
		if errors.As(err, &pe) {
			return Image{}, &PullError{Reason: pe.Reason, Message: pe.Error()}
		}
		return Image{}, &PullError{Reason: images.ReasonErrImagePull, Message: err.Error()}
	}
	out := Image{Ref: img.Ref, ID: img.ImageID(), Known: img.Known, Entrypoint: img.Entrypoint, Cmd: img.Cmd, User: img.User, Size: img.Size}
	for _, p := range img.Ports {
		out.Ports = append(out.Ports, int(p))
	}
	return out, nil
}
func (i fuzzImages) Sandbox(h ImageHost) error {
	return i.c.Sandbox(images.Host{OS: h.OS, Build: h.Build, Handler: h.Handler})
}

type fuzzVolumes struct {
	node *volumes.Node
	src  volumes.Source
}

func (v fuzzVolumes) Mount(ctx context.Context, pod *corev1.Pod) (PodVolumes, error) {
	p, err := volumes.NewPod(ctx, pod, v.node, v.src)
	if err != nil {
		return nil, err
	}
	return fuzzPodVolumes{p}, nil
}

type fuzzPodVolumes struct{ p *volumes.Pod }

func (p fuzzPodVolumes) FS(c string) shell.FS                   { return p.p.FS(c) }
func (p fuzzPodVolumes) SetPodIPs(ips []string)                 { p.p.SetPodIPs(ips) }
func (p fuzzPodVolumes) SetContainerID(c, id string)            { p.p.SetContainerID(c, id) }
func (p fuzzPodVolumes) SetEnv(c string, env map[string]string) { p.p.SetEnv(c, env) }
func (p fuzzPodVolumes) SandboxMountPoint(c string) string      { return p.p.SandboxMountPoint(c) }
func (p fuzzPodVolumes) SetEphemeralContainers(ecs []corev1.EphemeralContainer) {
	p.p.SetEphemeralContainers(ecs)
}
func (p fuzzPodVolumes) TerminationMessage(c string) ([]byte, bool) {
	return p.p.TerminationMessage(c)
}
func (p fuzzPodVolumes) ContainerError(c string) error {
	err := p.p.ContainerError(c)
	if err == nil {
		return nil
	}
	var ce *volumes.ContainerError
	if errors.As(err, &ce) {
		return &ContainerMountError{Reason: ce.Reason, Message: ce.Error()}
	}
	return &ContainerMountError{Reason: volumes.ReasonCreateContainerConfigError, Message: err.Error()}
}

// fuzzSource holds one ConfigMap and one Secret; anything else is missing.
type fuzzSource struct{}

func (fuzzSource) ConfigMap(ns, name string) (*corev1.ConfigMap, error) {
	if name == "fuzz-config" {
		return fuzzConfigMap(), nil
	}
	return nil, fmt.Errorf("configmap %q not found", name)
}
func (fuzzSource) Secret(ns, name string) (*corev1.Secret, error) {
	if name == "fuzz-secret" {
		return fuzzSecret(), nil
	}
	return nil, fmt.Errorf("secret %q not found", name)
}
func (fuzzSource) ServiceAccountToken(context.Context, string, string, string, int64, *corev1.Pod) (string, error) {
	return "fuzz.token.value", nil
}

func fuzzConfigMap() *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "fuzz", Name: "fuzz-config"}, Data: map[string]string{"x": "hello", "x.txt": "hello"}}
}
func fuzzSecret() *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "fuzz", Name: "fuzz-secret"}, Data: map[string][]byte{"password": []byte("s3cr3t")}}
}

type fuzzNetwork struct{ m *network.Model }

func (n fuzzNetwork) From(pod *corev1.Pod) shell.Network        { return n.m.From(pod) }
func (n fuzzNetwork) NetConfig(pod *corev1.Pod) shell.NetConfig { return n.m.NetConfig(pod) }

// ---- nodes ----

type fuzzNodeKind struct {
	pool    string
	os      string
	build   string
	kubelet string
}

var fuzzNodeKinds = []fuzzNodeKind{
	{"win2022", string("windows"), "10.0.20348", "v1.35.4"},
	{"win2019", string("windows"), "10.0.17763", "v1.35.4"},
	{"win2025", string("windows"), "10.0.26100", "v1.33.1"},
	{"win2022old", string("windows"), "10.0.20348", "v1.30.2"},
	{"linux", string("linux"), "", "v1.35.4"},
	{"linuxold", string("linux"), "", "v1.31.0"},
}

var fuzzNodeCache sync.Map // index -> *fuzzBuiltNode

type fuzzBuiltNode struct {
	node *corev1.Node
	info *nodes.Info
}

func fuzzNode(t testing.TB, i int) (*corev1.Node, *nodes.Info) {
	if v, ok := fuzzNodeCache.Load(i); ok {
		b := v.(*fuzzBuiltNode)
		return b.node.DeepCopy(), b.info
	}
	k := fuzzNodeKinds[i]
	pool := config.Pool{Name: k.pool, OS: facts.OS(k.os), WindowsBuild: k.build, KubeletVersion: k.kubelet}
	node, info, err := nodes.Build(rules.Default(), nodes.Spec{
		ClusterName: "fuzz", Pool: pool, InternalIP: net.ParseIP(fmt.Sprintf("172.18.0.%d", 2+i)),
		DefaultKubeletVersion: "v1.35.4", BootID: "boot", KubeletPort: 10250,
	}, time.Date(2025, 6, 1, 11, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatalf("building node %s: %v", k.pool, err)
	}
	node.Spec.PodCIDR = fmt.Sprintf("10.244.%d.0/24", i)
	node.Spec.PodCIDRs = []string{node.Spec.PodCIDR}
	fuzzNodeCache.Store(i, &fuzzBuiltNode{node: node, info: info})
	return node.DeepCopy(), info
}

// ---- the runtime on a manual clock ----

type fuzzRig struct {
	p       *Provider
	clk     *manualClock
	indexer cache.Indexer
	node    *corev1.Node
	rec     *Recorder
}

var fuzzStart = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func newFuzzRig(t testing.TB, node *corev1.Node, info *nodes.Info, pod *corev1.Pod) *fuzzRig {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	if pod != nil {
		if err := indexer.Add(pod); err != nil {
			t.Fatal(err)
		}
	}
	objs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	_ = objs.Add(fuzzConfigMap())
	secrets := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	_ = secrets.Add(fuzzSecret())
	services := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	svcs := []*corev1.Service{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "fuzz", Name: "web"}, Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.20", ClusterIPs: []string{"10.96.0.20"}, Selector: map[string]string{"app": "fuzz"}, Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(80)}}}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "kubernetes"}, Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.1", ClusterIPs: []string{"10.96.0.1"}, Ports: []corev1.ServicePort{{Name: "https", Port: 443, Protocol: corev1.ProtocolTCP}}}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "kube-dns"}, Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"}, Ports: []corev1.ServicePort{{Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP}}}},
	}
	for _, s := range svcs {
		_ = services.Add(s)
	}
	src := &network.Objects{NodeList: []*corev1.Node{node}, ServiceList: svcs}
	if pod != nil {
		src.PodList = []*corev1.Pod{pod}
	}
	model := network.New(src, network.Options{})
	volNode := volumes.NewNode(info.OS)
	volNode.SetHostname(node.Name)
	clk := newManualClock(fuzzStart)
	rec := &Recorder{}
	p := NewProvider(Config{
		Node: info, Rules: rules.Default(), Pods: corev1listers.NewPodLister(indexer),
		NodeObject: func() *corev1.Node { return node },
		Recorder:   rec, Logs: logs.NewStore(), StartDelay: time.Second, StopDelay: time.Second, Clock: clk,
		Shell: testShell{}, Images: fuzzImages{c: images.Default()},
		Volumes: fuzzVolumes{node: volNode, src: fuzzSource{}},
		Network: fuzzNetwork{m: model},
		Objects: containerenv.Objects{
			ConfigMaps: corev1listers.NewConfigMapLister(objs),
			Secrets:    corev1listers.NewSecretLister(secrets),
			Services:   corev1listers.NewServiceLister(services),
		},
		RuntimeClasses: func(name string) (string, bool) {
			if name == "windows-2022" {
				return "runhcs-wcow-process", true
			}
			return "", false
		},
		PullBandwidth: 1 << 30,
		Log:           slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	return &fuzzRig{p: p, clk: clk, indexer: indexer, node: node, rec: rec}
}

// fuzzIdleWait bounds the real time a tick waits for commands to go idle.
// Simulate's waitIdle waits up to 2 s, and a container whose process
// blocks in shell's proc.block() (agnhost pause/serve-hostname/netexec,
// `sleep inf`) never reports idle (block waits on ctx.Done, not on
// Env.Sleep), so every tick would cost 2 s; see the report of issue §8.
const fuzzIdleWait = 5 * time.Millisecond

func (r *fuzzRig) waitIdle() {
	deadline := time.Now().Add(fuzzIdleWait)
	for !r.p.Idle() && time.Now().Before(deadline) {
		time.Sleep(200 * time.Microsecond)
	}
}

// step advances simulated time by d in Simulate's ticks.
func (r *fuzzRig) step(d time.Duration, each func()) {
	r.waitIdle()
	for t := time.Duration(0); t < d; t += simTick {
		r.clk.Step(simTick)
		r.waitIdle()
		if each != nil {
			each()
		}
	}
}

// close stops every simulated process and the provider's queue.
func (r *fuzzRig) close() {
	r.p.mu.Lock()
	for _, rec := range r.p.pods {
		for _, c := range rec.containers {
			if c.cancel != nil {
				c.cancel()
			}
		}
	}
	r.p.mu.Unlock()
	r.p.queue.ShutDown()
}

// ---- the pod generator ----

var fuzzImageCatalog = []string{
	"mcr.microsoft.com/windows/nanoserver:ltsc2022",
	"mcr.microsoft.com/windows/nanoserver:ltsc2019",
	"mcr.microsoft.com/windows/servercore:ltsc2022",
	"mcr.microsoft.com/windows/servercore:latest",
	"mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019",
	"mcr.microsoft.com/windows/servercore/iis",
	"mcr.microsoft.com/windows/server:ltsc2022",
	"mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0",
	"registry.k8s.io/e2e-test-images/agnhost:2.59",
	"registry.k8s.io/e2e-test-images/busybox:1.37.0-1",
	"registry.k8s.io/e2e-test-images/busybox:1.37.0-2",
	"registry.k8s.io/e2e-test-images/nonroot:1.4",
	"registry.k8s.io/e2e-test-images/resource-consumer:1.13",
	"registry.k8s.io/e2e-test-images/nginx:1.14-4",
	"registry.k8s.io/pause:3.10.1",
	"registry.k8s.io/coredns/coredns:v1.12.0",
	"nginx",
	"nginx:1.27",
	"busybox:1.36",
	"alpine:3.20",
	"ubuntu:24.04",
	"example.com/unknown/app:v1",
}

const fuzzWebserver = "$listener = New-Object System.Net.HttpListener ; $listener.Prefixes.Add('http://*:80/') ; $listener.Start() ; Write-Host('Listening at http://*:80/') ; while ($listener.IsListening) { $context = $listener.GetContext() ; $context.Response.Close() }"

var fuzzCommands = [][]string{
	nil,
	{"ping", "-t", "localhost"},
	{"cmd", "/c", "exit 3"},
	{"cmd", "/c", "echo hello & exit 0"},
	{"powershell", "-Command", "Write-Output hi; exit 1"},
	{"powershell.exe", "-command", "while ($true) { Start-Sleep 1 }"},
	{"sh", "-c", "echo hi; sleep 2; exit 2"},
	{"sleep", "3600"},
	{"/bin/sh", "-c", "exit 0"},
	{"/agnhost", "serve-hostname"},
	{"/agnhost", "netexec", "--http-port=8080"},
	{"nonexistent.exe"},
	{"timeout", "5"},
	{"whoami"},
	{"cmd", "/c", "curl.exe -s http://kubernetes"},
	{"ipconfig", "/all"},
	{"nslookup", "kubernetes"},
	{"ping", "-n", "2", "8.8.8.8"},
	{"powershell.exe", "-command", fuzzWebserver},
	{"cmd", "/c", `type C:\data\x`},
	{"cmd", "/c", `echo x > C:\data\f.txt`},
	{"sh", "-c", "cat /data/x; echo y > /data/f"},
	{"powershell", "-Command", `Get-Content $env:CONTAINER_SANDBOX_MOUNT_POINT\x`},
	{"cmd", "/c", "set"},
	{"powershell", "-Command", "throw 'boom'"},
	{"cmd"},
	{"powershell"},
	{"cmd", "/c", "exit", "-1"},
	{"cmd", "/c", "exit 2147483648"},
	{"powershell", "-Command", "Start-Sleep -Seconds 5; exit 7"},
	{"sh", "-c", "sleep 1; exit 137"},
	{"hostname"},
	{"nltest", "/PARENTDOMAIN"},
	{""},
}

var fuzzUsers = []string{"ContainerUser", "ContainerAdministrator", `NT AUTHORITY\SYSTEM`, `NT AUTHORITY\Local service`, `NT AUTHORITY\NetworkService`, "containeradministrator", "nobody"}

// fuzzArgv is a command from the vocabulary ("@N") or a random one
// (fields of the string, or '|'-separated).
func fuzzArgv(s string) []string {
	if strings.HasPrefix(s, "@") {
		n := 0
		for _, r := range s[1:] {
			if r < '0' || r > '9' {
				break
			}
			n = (n*10 + int(r-'0')) % 1000
		}
		return fuzzCommands[n%len(fuzzCommands)]
	}
	if s == "" {
		return nil
	}
	if strings.Contains(s, "|") {
		return strings.Split(s, "|")
	}
	return strings.Fields(s)
}

// knobs reads small numbers from a uint64.
type knobs uint64

func (k *knobs) next(n int) int {
	v := int(uint64(*k) % uint64(n))
	*k = knobs(uint64(*k) / uint64(n))
	return v
}

func fuzzProbe(k *knobs, liveness bool, isWin bool) *corev1.Probe {
	p := &corev1.Probe{
		InitialDelaySeconds: int32(k.next(3)),
		PeriodSeconds:       int32(1 + k.next(3)),
		TimeoutSeconds:      int32(1 + k.next(2)),
		FailureThreshold:    int32(1 + k.next(3)),
		SuccessThreshold:    1,
	}
	if !liveness && k.next(2) == 1 {
		p.SuccessThreshold = 2
	}
	switch k.next(6) {
	case 0:
		if isWin {
			p.Exec = &corev1.ExecAction{Command: []string{"cmd", "/c", "exit 0"}}
		} else {
			p.Exec = &corev1.ExecAction{Command: []string{"sh", "-c", "exit 0"}}
		}
	case 1:
		p.Exec = &corev1.ExecAction{Command: fuzzCommands[k.next(len(fuzzCommands)-1)+1]}
	case 2:
		p.HTTPGet = &corev1.HTTPGetAction{Path: "/", Port: intstr.FromInt32(80)}
	case 3:
		p.HTTPGet = &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}
	case 4:
		p.TCPSocket = &corev1.TCPSocketAction{Port: intstr.FromInt32(int32([]int{80, 8080, 9376}[k.next(3)]))}
	case 5:
		p.GRPC = &corev1.GRPCAction{Port: 8080}
	}
	return p
}

func fuzzHandler(k *knobs, isWin bool) *corev1.LifecycleHandler {
	switch k.next(4) {
	case 0:
		return &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: fuzzCommands[k.next(len(fuzzCommands)-1)+1]}}
	case 1:
		return &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/", Port: intstr.FromInt32(80)}}
	case 2:
		return &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: int64(1 + k.next(3))}}
	default:
		if isWin {
			return &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"cmd", "/c", "exit 1"}}}
		}
		return &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"sh", "-c", "exit 1"}}}
	}
}

// Flag bits of FuzzPodSpec's flags argument.
const (
	fzRestartMask  = 3 << 0 // Always, OnFailure, Never, Always
	fzHostNetwork  = 1 << 2
	fzHostProcess  = 1 << 3 // implies hostNetwork (A8)
	fzReadiness    = 1 << 4
	fzLiveness     = 1 << 5
	fzStartup      = 1 << 6
	fzEmptyDir     = 1 << 7
	fzConfigMap    = 1 << 8
	fzMissingCM    = 1 << 9
	fzSecret       = 1 << 10
	fzHostPath     = 1 << 11
	fzProjected    = 1 << 12
	fzReadOnly     = 1 << 13
	fzLinuxPaths   = 1 << 14
	fzRunAsUser    = 1 << 15
	fzNonRoot      = 1 << 16
	fzSecond       = 1 << 17
	fzInit         = 1 << 18
	fzSidecar      = 1 << 19
	fzDelete       = 1 << 20
	fzPostStart    = 1 << 21
	fzPreStop      = 1 << 22
	fzGMSA         = 1 << 23
	fzTolerate     = 1 << 24
	fzLimits       = 1 << 25
	fzPorts        = 1 << 26
	fzEnv          = 1 << 27
	fzDNSNone      = 1 << 28
	fzReadyGate    = 1 << 29
	fzRuntimeClass = 1 << 30
	fzCntrUser     = 1 << 31 // container-level windowsOptions
)

// fuzzPod builds a pod bound to node.
func fuzzPod(node *corev1.Node, osSel uint8, image, command string, flags uint32, k knobs, user string) (*corev1.Pod, bool) {
	win := node.Status.NodeInfo.OperatingSystem == "windows"
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: "fuzz", Namespace: "fuzz", UID: types.UID("00000000-0000-0000-0000-0000000f0zz0"), Generation: 1,
			Labels: map[string]string{"app": "fuzz"},
		},
		Spec: corev1.PodSpec{NodeName: node.Name},
		Status: corev1.PodStatus{
			Phase: corev1.PodPending, QOSClass: corev1.PodQOSBestEffort,
			Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(fuzzStart.Add(-time.Second))}},
		},
	}
	switch osSel % 3 {
	case 1:
		pod.Spec.OS = &corev1.PodOS{Name: corev1.Windows}
	case 2:
		pod.Spec.OS = &corev1.PodOS{Name: corev1.Linux}
	}
	switch (osSel / 3) % 6 {
	case 1:
		pod.Spec.NodeSelector = map[string]string{corev1.LabelOSStable: "windows"}
	case 2:
		pod.Spec.NodeSelector = map[string]string{corev1.LabelOSStable: "linux"}
	case 3:
		pod.Spec.NodeSelector = map[string]string{corev1.LabelWindowsBuild: node.Labels[corev1.LabelWindowsBuild]}
	case 4:
		pod.Spec.NodeSelector = map[string]string{corev1.LabelWindowsBuild: "10.0.17763"}
	case 5:
		pod.Spec.NodeSelector = map[string]string{"example.com/" + strings.Repeat("z", int(osSel%7)): "x"}
	}
	if flags&fzTolerate != 0 {
		pod.Spec.Tolerations = []corev1.Toleration{{Key: "os", Operator: corev1.TolerationOpEqual, Value: "windows", Effect: corev1.TaintEffectNoSchedule}}
	}
	pod.Spec.RestartPolicy = []corev1.RestartPolicy{corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever, corev1.RestartPolicyAlways}[flags&fzRestartMask]
	pod.Spec.TerminationGracePeriodSeconds = ptr.To(int64(k.next(6)))
	hostProcess := flags&fzHostProcess != 0
	pod.Spec.HostNetwork = flags&fzHostNetwork != 0 || hostProcess
	winLike := win
	if pod.Spec.OS != nil {
		winLike = pod.Spec.OS.Name == corev1.Windows
	}

	if image == "" {
		image = fuzzImageCatalog[k.next(len(fuzzImageCatalog))]
	}
	main := corev1.Container{Name: "main", Image: image, ImagePullPolicy: corev1.PullIfNotPresent, Command: fuzzArgv(command)}
	if flags&fzPorts != 0 {
		main.Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: corev1.ProtocolTCP}}
	}
	if flags&fzReadiness != 0 {
		main.ReadinessProbe = fuzzProbe(&k, false, winLike)
	}
	if flags&fzLiveness != 0 {
		main.LivenessProbe = fuzzProbe(&k, true, winLike)
	}
	if flags&fzStartup != 0 {
		main.StartupProbe = fuzzProbe(&k, true, winLike)
	}
	if flags&(fzPostStart|fzPreStop) != 0 {
		main.Lifecycle = &corev1.Lifecycle{}
		if flags&fzPostStart != 0 {
			main.Lifecycle.PostStart = fuzzHandler(&k, winLike)
		}
		if flags&fzPreStop != 0 {
			main.Lifecycle.PreStop = fuzzHandler(&k, winLike)
		}
	}
	if flags&fzLimits != 0 {
		main.Resources = corev1.ResourceRequirements{
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse([]string{"100m", "1", "500m"}[k.next(3)]), corev1.ResourceMemory: resource.MustParse([]string{"64Mi", "1Gi", "8Mi"}[k.next(3)])},
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("50m"), corev1.ResourceMemory: resource.MustParse("8Mi")},
		}
		pod.Status.QOSClass = corev1.PodQOSBurstable
	}
	if flags&fzEnv != 0 {
		main.Env = []corev1.EnvVar{
			{Name: "PLAIN", Value: "v"},
			{Name: "FROM_CM", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: []string{"fuzz-config", "missing"}[k.next(2)]}, Key: "x"}}},
			{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}},
			{Name: "SECRET", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "fuzz-secret"}, Key: "password", Optional: ptr.To(k.next(2) == 1)}}},
		}
		main.EnvFrom = []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "fuzz-config"}}}}
	}

	// Volumes and their mounts.
	mountAt := func(name string) string {
		if flags&fzLinuxPaths != 0 {
			return "/" + name
		}
		return `C:\` + name
	}
	addVol := func(v corev1.Volume, at string) {
		pod.Spec.Volumes = append(pod.Spec.Volumes, v)
		main.VolumeMounts = append(main.VolumeMounts, corev1.VolumeMount{Name: v.Name, MountPath: mountAt(at), ReadOnly: flags&fzReadOnly != 0})
	}
	if flags&fzEmptyDir != 0 {
		v := corev1.Volume{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}
		if k.next(2) == 1 {
			v.EmptyDir.Medium = corev1.StorageMediumMemory
		}
		addVol(v, "data")
	}
	if flags&fzConfigMap != 0 {
		name := "fuzz-config"
		if flags&fzMissingCM != 0 {
			name = "missing-config"
		}
		addVol(corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Optional: ptr.To(k.next(3) == 0)}}}, "config")
	}
	if flags&fzSecret != 0 {
		addVol(corev1.Volume{Name: "secret", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: []string{"fuzz-secret", "missing-secret"}[k.next(2)]}}}, "secret")
	}
	if flags&fzHostPath != 0 {
		p := []string{`C:\k`, `/var/log`, `\\.\pipe\containerd-containerd`, `C:\var\lib\kubelet`}[k.next(4)]
		addVol(corev1.Volume{Name: "host", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: p, Type: ptr.To([]corev1.HostPathType{"", corev1.HostPathDirectory, corev1.HostPathFile, corev1.HostPathSocket}[k.next(4)])}}}, "host")
	}
	if flags&fzProjected != 0 {
		addVol(corev1.Volume{Name: "token", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To(int64(3607))}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "labels", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels"}}}}},
		}}}}, "token")
	}

	// Security context.
	var wo *corev1.WindowsSecurityContextOptions
	if flags&fzRunAsUser != 0 || hostProcess || flags&fzGMSA != 0 {
		wo = &corev1.WindowsSecurityContextOptions{}
	}
	if flags&fzRunAsUser != 0 {
		u := user
		if u == "" || len(u) > 64 {
			u = fuzzUsers[k.next(len(fuzzUsers))]
		}
		wo.RunAsUserName = ptr.To(u)
	}
	if hostProcess {
		wo.HostProcess = ptr.To(true)
		if wo.RunAsUserName == nil {
			wo.RunAsUserName = ptr.To(`NT AUTHORITY\SYSTEM`)
		}
	}
	if flags&fzGMSA != 0 {
		wo.GMSACredentialSpecName = ptr.To("gmsa-webapp1")
		wo.GMSACredentialSpec = ptr.To(`{"DomainJoinConfig":{"DnsName":"contoso.com","NetBiosName":"CONTOSO"}}`)
	}
	if wo != nil || flags&fzNonRoot != 0 {
		if flags&fzCntrUser != 0 {
			main.SecurityContext = &corev1.SecurityContext{WindowsOptions: wo}
			if flags&fzNonRoot != 0 {
				main.SecurityContext.RunAsNonRoot = ptr.To(true)
			}
			if hostProcess {
				// The pod-level flag is what the network model and the
				// sandbox read; keep both, as HostProcess pods must agree.
				pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: ptr.To(true)}}
			}
		} else {
			pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: wo}
			if flags&fzNonRoot != 0 {
				pod.Spec.SecurityContext.RunAsNonRoot = ptr.To(true)
			}
		}
	}
	if flags&fzDNSNone != 0 {
		pod.Spec.DNSPolicy = corev1.DNSNone
		pod.Spec.DNSConfig = &corev1.PodDNSConfig{Nameservers: []string{"1.1.1.1"}, Searches: []string{"example.local"}}
	} else if pod.Spec.HostNetwork && k.next(2) == 1 {
		pod.Spec.DNSPolicy = corev1.DNSClusterFirstWithHostNet
	} else {
		pod.Spec.DNSPolicy = corev1.DNSClusterFirst
	}
	if flags&fzReadyGate != 0 {
		pod.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: "example.com/gate"}}
	}
	if flags&fzRuntimeClass != 0 {
		pod.Spec.RuntimeClassName = ptr.To([]string{"windows-2022", "missing-class"}[k.next(2)])
	}
	pod.Spec.Containers = []corev1.Container{main}

	if flags&fzSecond != 0 {
		second := corev1.Container{Name: "second", Image: fuzzImageCatalog[k.next(len(fuzzImageCatalog))], Command: fuzzCommands[k.next(len(fuzzCommands))]}
		if hostProcess && flags&fzCntrUser != 0 {
			second.SecurityContext = &corev1.SecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: ptr.To(true)}}
		}
		pod.Spec.Containers = append(pod.Spec.Containers, second)
	}
	if flags&fzInit != 0 {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, corev1.Container{
			Name: "init", Image: fuzzImageCatalog[k.next(len(fuzzImageCatalog))], Command: fuzzCommands[k.next(len(fuzzCommands))],
		})
	}
	if flags&fzSidecar != 0 {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, corev1.Container{
			Name: "sidecar", Image: fuzzImageCatalog[k.next(len(fuzzImageCatalog))], Command: fuzzCommands[k.next(len(fuzzCommands))],
			RestartPolicy: ptr.To(corev1.ContainerRestartPolicyAlways),
		})
	}
	if hostProcess && flags&fzCntrUser != 0 {
		for i := range pod.Spec.InitContainers {
			pod.Spec.InitContainers[i].SecurityContext = &corev1.SecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: ptr.To(true)}}
		}
	}
	return pod, flags&fzDelete != 0
}

// ---- the status invariants ----

var fuzzKnownConditions = map[corev1.PodConditionType]bool{
	corev1.PodScheduled: true, corev1.PodReadyToStartContainers: true, corev1.PodInitialized: true,
	corev1.PodReady: true, corev1.ContainersReady: true, corev1.DisruptionTarget: true,
	corev1.PodResizePending: true, corev1.PodResizeInProgress: true,
}

var fuzzPhases = map[corev1.PodPhase]bool{corev1.PodPending: true, corev1.PodRunning: true, corev1.PodSucceeded: true, corev1.PodFailed: true}

type fuzzChecker struct {
	pod      *corev1.Pod
	node     *corev1.Node
	nodeIP   string
	cidr     netip.Prefix
	restarts map[string]int32
	phases   []corev1.PodPhase
	rejected bool
	deleted  bool
	problems []string
}

func newFuzzChecker(pod *corev1.Pod, node *corev1.Node) *fuzzChecker {
	c := &fuzzChecker{pod: pod, node: node, restarts: map[string]int32{}}
	for _, a := range node.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			c.nodeIP = a.Address
		}
	}
	c.cidr = netip.MustParsePrefix(node.Spec.PodCIDR)
	return c
}

func (c *fuzzChecker) errorf(at time.Duration, format string, args ...any) {
	if len(c.problems) < 20 {
		c.problems = append(c.problems, fmt.Sprintf("t=%s: ", at)+fmt.Sprintf(format, args...))
	}
}

func (c *fuzzChecker) stateProblem(s corev1.ContainerState, last bool) string {
	n := 0
	if s.Waiting != nil {
		n++
		if s.Waiting.Reason == "" {
			return "waiting with an empty reason"
		}
	}
	if s.Running != nil {
		n++
		if s.Running.StartedAt.IsZero() {
			return "running without startedAt"
		}
	}
	if s.Terminated != nil {
		n++
		if s.Terminated.Reason == "" {
			return fmt.Sprintf("terminated (exit %d) with an empty reason", s.Terminated.ExitCode)
		}
		if s.Terminated.FinishedAt.Before(&s.Terminated.StartedAt) {
			return "terminated before it started"
		}
	}
	if last {
		if n > 1 {
			return fmt.Sprintf("lastState has %d states set", n)
		}
		return ""
	}
	if n != 1 {
		return fmt.Sprintf("%d of waiting/running/terminated set, want exactly one", n)
	}
	return ""
}

func (c *fuzzChecker) check(at time.Duration, st corev1.PodStatus) {
	if !fuzzPhases[st.Phase] {
		c.errorf(at, "phase %q is not a pod phase", st.Phase)
	}
	if len(c.phases) == 0 || c.phases[len(c.phases)-1] != st.Phase {
		c.phases = append(c.phases, st.Phase)
	}
	if len(c.phases) >= 2 {
		prev, cur := c.phases[len(c.phases)-2], c.phases[len(c.phases)-1]
		if prev == corev1.PodSucceeded || prev == corev1.PodFailed {
			c.errorf(at, "phase went %s -> %s: a terminal phase is final", prev, cur)
		}
		if prev == corev1.PodRunning && cur == corev1.PodPending {
			c.errorf(at, "phase went Running -> Pending")
		}
	}
	if st.Phase == corev1.PodFailed && st.Reason != "" && len(st.ContainerStatuses) == 0 && len(c.phases) == 1 {
		c.rejected = true // kubelet admission (B1-B3): status has phase, reason and message only
	}
	if c.rejected {
		if st.Message == "" {
			c.errorf(at, "rejected pod (reason %q) without a message", st.Reason)
		}
		return
	}
	if st.Phase == corev1.PodSucceeded && c.pod.Spec.RestartPolicy == corev1.RestartPolicyAlways && !c.deleted {
		c.errorf(at, "phase Succeeded with restartPolicy Always")
	}

	// Container statuses: one per container, names from the spec.
	sidecars := map[string]bool{}
	for _, ic := range c.pod.Spec.InitContainers {
		if ic.RestartPolicy != nil && *ic.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			sidecars[ic.Name] = true
		}
	}
	checkList := func(kind string, specs []corev1.Container, list []corev1.ContainerStatus) {
		want := map[string]bool{}
		for _, s := range specs {
			want[s.Name] = true
		}
		seen := map[string]bool{}
		for _, cs := range list {
			if !want[cs.Name] {
				c.errorf(at, "%s status for %q, which is not in the spec", kind, cs.Name)
			}
			if seen[cs.Name] {
				c.errorf(at, "two %s statuses for %q", kind, cs.Name)
			}
			seen[cs.Name] = true
			if p := c.stateProblem(cs.State, false); p != "" {
				c.errorf(at, "%s %q: state: %s (%+v)", kind, cs.Name, p, cs.State)
			}
			if p := c.stateProblem(cs.LastTerminationState, true); p != "" {
				c.errorf(at, "%s %q: lastState: %s", kind, cs.Name, p)
			}
			// A completed regular init container is ready (kubelet_pods.go
			// convertToAPIContainerStatuses); any other one only while running.
			completedInit := kind == "init container" && !sidecars[cs.Name] && cs.State.Terminated != nil && cs.State.Terminated.ExitCode == 0
			if cs.Ready && cs.State.Running == nil && !completedInit {
				c.errorf(at, "%s %q: ready but not running", kind, cs.Name)
			}
			if cs.RestartCount < 0 {
				c.errorf(at, "%s %q: restartCount %d", kind, cs.Name, cs.RestartCount)
			}
			if prev, ok := c.restarts[kind+"/"+cs.Name]; ok && cs.RestartCount < prev {
				c.errorf(at, "%s %q: restartCount went %d -> %d", kind, cs.Name, prev, cs.RestartCount)
			}
			c.restarts[kind+"/"+cs.Name] = cs.RestartCount
			if cs.Image == "" {
				c.errorf(at, "%s %q: empty image", kind, cs.Name)
			}
		}
		if len(seen) != len(want) {
			c.errorf(at, "%d %s statuses for %d %s", len(list), kind, len(want), kind)
		}
	}
	checkList("container", c.pod.Spec.Containers, st.ContainerStatuses)
	checkList("init container", c.pod.Spec.InitContainers, st.InitContainerStatuses)

	// Addresses.
	if st.HostIP != "" && st.HostIP != c.nodeIP {
		c.errorf(at, "hostIP %s, the node's is %s", st.HostIP, c.nodeIP)
	}
	if st.PodIP != "" {
		ip, err := netip.ParseAddr(st.PodIP)
		switch {
		case err != nil:
			c.errorf(at, "podIP %q does not parse", st.PodIP)
		case c.pod.Spec.HostNetwork && st.PodIP != c.nodeIP:
			c.errorf(at, "hostNetwork pod has podIP %s, want the node IP %s", st.PodIP, c.nodeIP)
		case !c.pod.Spec.HostNetwork && !c.cidr.Contains(ip):
			c.errorf(at, "podIP %s outside the node's podCIDR %s", st.PodIP, c.cidr)
		case !c.pod.Spec.HostNetwork && (ip == c.cidr.Addr() || ip == c.cidr.Addr().Next()):
			c.errorf(at, "podIP %s is the network or gateway address of %s", st.PodIP, c.cidr)
		}
		if len(st.PodIPs) == 0 || st.PodIPs[0].IP != st.PodIP {
			c.errorf(at, "podIPs %v do not start with podIP %s", st.PodIPs, st.PodIP)
		}
	} else if st.Phase == corev1.PodRunning {
		c.errorf(at, "Running without a podIP")
	}

	// Conditions.
	gates := map[corev1.PodConditionType]bool{}
	for _, g := range c.pod.Spec.ReadinessGates {
		gates[g.ConditionType] = true
	}
	seen := map[corev1.PodConditionType]bool{}
	for _, cond := range st.Conditions {
		if !fuzzKnownConditions[cond.Type] && !gates[cond.Type] {
			c.errorf(at, "condition of unknown type %q", cond.Type)
		}
		if seen[cond.Type] {
			c.errorf(at, "two %q conditions", cond.Type)
		}
		seen[cond.Type] = true
		switch cond.Status {
		case corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown:
		default:
			c.errorf(at, "condition %s has status %q", cond.Type, cond.Status)
		}
	}
	if len(st.ContainerStatuses) > 0 && !seen[corev1.PodReady] {
		c.errorf(at, "no Ready condition")
	}
}

// fuzzRun runs one pod for forTime (and deletes it with del) and returns
// the checker's problems.
func fuzzRun(t *testing.T, nodeIdx int, pod *corev1.Pod, forTime time.Duration, del bool) []string {
	node, info := fuzzNode(t, nodeIdx)
	rig := newFuzzRig(t, node, info, pod)
	defer rig.close()
	chk := newFuzzChecker(pod, node)
	ctx := context.Background()
	if err := rig.p.CreatePod(ctx, pod); err != nil {
		t.Fatalf("CreatePod: %v", err)
	}
	sample := func() {
		cur, err := rig.p.GetPod(ctx, pod.Namespace, pod.Name)
		if err != nil {
			chk.errorf(rig.clk.Now().Sub(fuzzStart), "GetPod: %v", err)
			return
		}
		chk.check(rig.clk.Now().Sub(fuzzStart), cur.Status)
	}
	sample()
	rig.step(forTime, sample)
	if del {
		chk.deleted = true
		deleting := pod.DeepCopy()
		now := metav1.NewTime(rig.clk.Now())
		deleting.DeletionTimestamp = &now
		deleting.DeletionGracePeriodSeconds = pod.Spec.TerminationGracePeriodSeconds
		_ = rig.indexer.Update(deleting)
		if err := rig.p.DeletePod(ctx, deleting); err != nil {
			t.Fatalf("DeletePod: %v", err)
		}
		rig.step(gracePeriod(pod)+2*time.Second, sample)
		if cur, err := rig.p.GetPod(ctx, pod.Namespace, pod.Name); err == nil {
			for _, cs := range append(cur.Status.InitContainerStatuses, cur.Status.ContainerStatuses...) {
				if cs.State.Running != nil {
					chk.errorf(rig.clk.Now().Sub(fuzzStart), "container %q still running %s after the deletion (grace %s)", cs.Name, gracePeriod(pod)+2*time.Second, gracePeriod(pod))
				}
			}
		}
	}
	return chk.problems
}

// fuzzBounded runs f within a real-time limit: the run must finish, and
// the heap grow by at most fuzzHeap meanwhile (issue 18: nothing a pod
// runs grows simnode without bound).
func fuzzBounded(t *testing.T, limit time.Duration, what string, f func()) {
	t.Helper()
	fuzzbound.Run(t, what, limit, fuzzHeap, f)
}

// fuzzHeap is how much the heap may grow while one case runs: a pod's
// processes hold at most process.DefaultMemory each, and its logs and
// status little.
const fuzzHeap = 512 << 20

// FuzzPodSpec: no panic, the run finishes, every status is well-formed.
func FuzzPodSpec(f *testing.F) {
	const (
		win2022 = uint8(0)
		win2019 = uint8(1)
		win2025 = uint8(2)
		winOld  = uint8(3)
		linux   = uint8(4)
		linOld  = uint8(5)
		// osSel: spec.os (n%3: none, windows, linux) and nodeSelector ((n/3)%6).
		osWinSelWin = uint8(1 + 3*1)
		osLinSelLin = uint8(2 + 3*2)
		osNone      = uint8(0)
	)
	always, onFailure, never := uint32(0), uint32(1), uint32(2)
	// node, osSel, image, command, flags, knobs, user
	f.Add(win2022, osWinSelWin, "mcr.microsoft.com/windows/servercore:ltsc2022", "@18", always|fzTolerate|fzPorts|fzReadiness, uint64(2), "")                                      // docs' win-webserver with an httpGet readiness probe
	f.Add(win2022, osWinSelWin, "mcr.microsoft.com/windows/nanoserver:ltsc2022", "@2", always|fzTolerate, uint64(0), "")                                                           // exit 3 under Always: CrashLoopBackOff
	f.Add(win2022, osWinSelWin, "mcr.microsoft.com/windows/nanoserver:ltsc2022", "@3", never|fzTolerate|fzDelete, uint64(0), "")                                                   // runs to completion, then deleted
	f.Add(win2019, osWinSelWin, "mcr.microsoft.com/windows/nanoserver:ltsc2022", "@1", always|fzTolerate, uint64(0), "")                                                           // 2022 image on a 2019 host (B4)
	f.Add(linux, osWinSelWin, "mcr.microsoft.com/windows/nanoserver:ltsc2022", "@1", always, uint64(0), "")                                                                        // Windows pod on a Linux node (B1)
	f.Add(win2022, osLinSelLin, "nginx", "", always|fzTolerate, uint64(0), "")                                                                                                     // Linux pod on a Windows node (B1, B2)
	f.Add(win2022, osWinSelWin, "mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0", "@1", always|fzHostProcess|fzTolerate, uint64(0), "")        // HostProcess (B10)
	f.Add(win2022, osWinSelWin, "mcr.microsoft.com/windows/servercore/iis", "", always|fzHostNetwork|fzTolerate|fzPorts, uint64(0), "")                                            // hostNetwork without HostProcess (H7)
	f.Add(win2022, osWinSelWin, "mcr.microsoft.com/windows/nanoserver:ltsc2022", "@1", always|fzTolerate|fzRunAsUser|fzNonRoot, uint64(0), "ContainerAdministrator")               // B8
	f.Add(winOld, osWinSelWin, "mcr.microsoft.com/windows/nanoserver:ltsc2022", "@20", onFailure|fzTolerate|fzEmptyDir|fzConfigMap|fzReadOnly, uint64(0), "")                      // read-only mount write (B12)
	f.Add(win2022, osWinSelWin, "mcr.microsoft.com/windows/nanoserver:ltsc2022", "@1", always|fzTolerate|fzConfigMap|fzMissingCM, uint64(0), "")                                   // FailedMount
	f.Add(win2022, osWinSelWin, "registry.k8s.io/e2e-test-images/agnhost:2.59", "", always|fzTolerate|fzLiveness|fzStartup|fzReadiness, uint64(12345), "")                         // probes on agnhost pause
	f.Add(linux, osLinSelLin, "registry.k8s.io/e2e-test-images/busybox:1.37.0-1", "@6", onFailure|fzInit|fzSidecar|fzSecond|fzPostStart|fzPreStop|fzDelete, uint64(987654321), "") // init, sidecar, hooks, deletion
	f.Add(linOld, osNone, "busybox:1.36", "sh -c 'exit 1'", never|fzLimits|fzEnv, uint64(77), "")                                                                                  // Linux, random command words
	f.Add(win2025, osWinSelWin, "example.com/unknown/app:v1", "cmd.exe|/c|ping -n 3 127.0.0.1 & exit 5", always|fzTolerate|fzGMSA|fzRuntimeClass|fzReadyGate, uint64(3), "")       // unknown image, GMSA, RuntimeClass
	f.Add(win2022, uint8(3*5), "", "", uint32(0xffffffff), uint64(0xffffffffffffffff), "")                                                                                         // every flag
	f.Add(win2022, osWinSelWin, "mcr.microsoft.com/windows/servercore:latest", "@1", always|fzTolerate, uint64(0), "")                                                             // no latest tag: ErrImagePull / ImagePullBackOff
	f.Add(win2019, osWinSelWin, "mcr.microsoft.com/windows/nanoserver:ltsc2019", "@29", always|fzTolerate|fzDNSNone|fzDelete, uint64(1), "")                                       // sleeps then exit 7, restarted, deleted
	f.Fuzz(func(t *testing.T, nodeSel uint8, osSel uint8, image, command string, flags uint32, k uint64, user string) {
		if len(image) > 256 || len(command) > 512 || len(user) > 256 {
			t.Skip()
		}
		nodeIdx := int(nodeSel) % len(fuzzNodeKinds)
		node, _ := fuzzNode(t, nodeIdx)
		kn := knobs(k)
		forTime := time.Duration(2+kn.next(19)) * time.Second
		pod, del := fuzzPod(node, osSel, image, command, flags, kn, user)
		var problems []string
		fuzzBounded(t, 90*time.Second, "simulating the pod", func() {
			problems = fuzzRun(t, nodeIdx, pod, forTime, del)
		})
		if len(problems) > 0 {
			t.Errorf("node %s, pod spec:\n%s\nproblems:\n  %s", node.Name, fuzzDescribe(pod), strings.Join(problems, "\n  "))
		}
	})
}

func fuzzDescribe(pod *corev1.Pod) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  os=%v nodeSelector=%v restartPolicy=%s hostNetwork=%v grace=%v\n", pod.Spec.OS, pod.Spec.NodeSelector, pod.Spec.RestartPolicy, pod.Spec.HostNetwork, ptr.Deref(pod.Spec.TerminationGracePeriodSeconds, -1))
	if sc := pod.Spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		fmt.Fprintf(&b, "  pod windowsOptions: user=%q hostProcess=%v\n", ptr.Deref(sc.WindowsOptions.RunAsUserName, ""), ptr.Deref(sc.WindowsOptions.HostProcess, false))
	}
	for _, c := range append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
		fmt.Fprintf(&b, "  container %s image=%q command=%q args=%q probes(r,l,s)=%v,%v,%v mounts=%d\n", c.Name, c.Image, c.Command, c.Args, c.ReadinessProbe != nil, c.LivenessProbe != nil, c.StartupProbe != nil, len(c.VolumeMounts))
	}
	return b.String()
}

// ---- FuzzExec ----

type fuzzExecTarget struct {
	rig  *fuzzRig
	pod  *corev1.Pod
	os   string
	stop chan struct{}
}

var (
	fuzzExecMu      sync.Mutex
	fuzzExecTargets = map[int]*fuzzExecTarget{}
)

// fuzzExecContainer returns a running container on a Windows (0) or Linux
// (1) node, started once per process and restarted when an exec stopped it.
func fuzzExecContainer(t *testing.T, which int) *fuzzExecTarget {
	fuzzExecMu.Lock()
	defer fuzzExecMu.Unlock()
	if tg := fuzzExecTargets[which]; tg != nil {
		if tg.running() {
			return tg
		}
		close(tg.stop)
		tg.rig.close()
		delete(fuzzExecTargets, which)
	}
	nodeIdx := []int{0, 4}[which]
	node, info := fuzzNode(t, nodeIdx)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "exec", Namespace: "fuzz", UID: types.UID(fmt.Sprintf("exec-%d", which)), Labels: map[string]string{"app": "fuzz"}},
		Spec: corev1.PodSpec{
			NodeName: node.Name, RestartPolicy: corev1.RestartPolicyAlways,
			Volumes: []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		},
	}
	if which == 0 {
		pod.Spec.OS = &corev1.PodOS{Name: corev1.Windows}
		pod.Spec.Containers = []corev1.Container{{Name: "main", Image: "mcr.microsoft.com/windows/servercore:ltsc2022", Command: []string{"ping", "-t", "localhost"},
			VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: `C:\data`}}}}
	} else {
		pod.Spec.OS = &corev1.PodOS{Name: corev1.Linux}
		pod.Spec.Containers = []corev1.Container{{Name: "main", Image: "registry.k8s.io/e2e-test-images/busybox:1.37.0-1", Command: []string{"sleep", "3600000"},
			VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}}}
	}
	rig := newFuzzRig(t, node, info, pod)
	if err := rig.p.CreatePod(context.Background(), pod); err != nil {
		t.Fatal(err)
	}
	rig.step(5*time.Second, nil)
	tg := &fuzzExecTarget{rig: rig, pod: pod, os: string(info.OS), stop: make(chan struct{})}
	if !tg.running() {
		cur, _ := rig.p.GetPod(context.Background(), "fuzz", "exec")
		t.Fatalf("the exec target does not run: %+v", cur.Status)
	}
	// Simulated time passes while commands run (sleeps, timeouts, pings):
	// one simulated second per real millisecond.
	go func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-tg.stop:
				return
			case <-tick.C:
				rig.clk.Step(time.Second)
			}
		}
	}()
	fuzzExecTargets[which] = tg
	return tg
}

func (tg *fuzzExecTarget) running() bool {
	tg.rig.p.mu.Lock()
	defer tg.rig.p.mu.Unlock()
	_, _, err := tg.rig.p.containerFor("fuzz", "exec", "main")
	return err == nil
}

// FuzzExec: exec of any command line returns an exit code, without panic.
func FuzzExec(f *testing.F) {
	// target: 0 Windows, 1 Linux; how: 0 argv = fields, 1 cmd /c, 2 powershell -Command, 3 sh -c, 4 argv split on '|'.
	seeds := []struct {
		target, how uint8
		line        string
	}{
		{0, 0, "ipconfig /all"},
		{0, 1, "echo %PATH% & exit 4"},
		{0, 2, "Get-ChildItem C:\\ | Select-Object -First 3; exit 2"},
		{0, 1, "curl.exe -4 10.96.0.20 --connect-timeout 10 --fail"},
		{0, 0, "ping -n 2 -w 1000 8.8.8.8"},
		{0, 2, "Test-NetConnection -ComputerName kubernetes -Port 443"},
		{0, 1, "for /L %i in (1,1,5) do @echo %i"},
		{0, 2, "$x = 1/0"},
		{0, 1, "type nul > C:\\data\\x & dir C:\\data"},
		{0, 0, "whoami /all"},
		{0, 0, "nonexistent-command"},
		{1, 3, "nc -vz 10.96.0.20 80 -w 10; echo $?"},
		{1, 3, "cat /etc/resolv.conf; nslookup kubernetes.default"},
		{1, 0, "wget -q -O - -T 2 http://10.96.0.20"},
		{1, 3, "x=$((1/0)); exit 300"},
		{1, 3, "while true; do sleep 1; done"},
		{0, 4, "cmd|/c|\"unterminated"},
		{0, 2, "while ($true) { Start-Sleep -Milliseconds 100 }"},
		{1, 4, "sh|-c|exit 255"},
		{0, 1, "(((("},
		// hostile loops (issue 18)
		{1, 3, "x=x; while :; do x=$x$x; done"},
		{0, 2, "$s = 'x'; while ($true) { $s += $s }"},
		{0, 1, "set x=x& for /L %i in (1,0,2) do @call set x=%x%%x%"},
		{0, 1, ":a & goto a"},
		{1, 0, "yes"},
		{1, 3, "yes | cat"},
	}
	for _, s := range seeds {
		f.Add(s.target, s.how, s.line)
	}
	f.Fuzz(func(t *testing.T, target, how uint8, line string) {
		if len(line) > 1024 {
			t.Skip()
		}
		tg := fuzzExecContainer(t, int(target%2))
		var argv []string
		switch how % 5 {
		case 0:
			argv = strings.Fields(line)
		case 1:
			argv = []string{"cmd", "/c", line}
		case 2:
			argv = []string{"powershell", "-Command", line}
		case 3:
			argv = []string{"sh", "-c", line}
		case 4:
			argv = strings.Split(line, "|")
		}
		if len(argv) == 0 {
			argv = []string{""}
		}
		var err error
		var stdout, stderr fuzzbound.Writer
		what := fmt.Sprintf("exec %q on %s", argv, tg.os)
		fuzzBounded(t, 30*time.Second, what, func() {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			err = tg.rig.p.Exec(ctx, "fuzz", "exec", "main", argv, nil, &stdout, &stderr)
		})
		// What an exec writes comes at the pace of its simulated CPU, a
		// write at most process.MaxWrite.
		stdout.Check(t, what+" stdout", process.MaxWrite, 256<<20)
		stderr.Check(t, what+" stderr", process.MaxWrite, 256<<20)
		if err == nil {
			return
		}
		var exit utilexec.CodeExitError
		if errors.As(err, &exit) {
			return
		}
		// The container may have stopped meanwhile (an exec that kills it):
		// then "not running" is the right answer.
		if !tg.running() {
			return
		}
		t.Errorf("exec %q on %s returned %v (%T), not an exit code", argv, tg.os, err, err)
	})
}
