package pods

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	utilexec "k8s.io/utils/exec"
	"k8s.io/utils/ptr"

	"wink.dev/wink/simnode/internal/pods/containerenv"
)

func objects(t *testing.T, objs ...any) containerenv.Objects {
	t.Helper()
	cms := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	secrets := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	svcs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, o := range objs {
		var err error
		switch o.(type) {
		case *corev1.ConfigMap:
			err = cms.Add(o)
		case *corev1.Secret:
			err = secrets.Add(o)
		case *corev1.Service:
			err = svcs.Add(o)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return containerenv.Objects{ConfigMaps: corev1listers.NewConfigMapLister(cms), Secrets: corev1listers.NewSecretLister(secrets), Services: corev1listers.NewServiceLister(svcs)}
}

func newFixtureWith(t *testing.T, os string, mod func(*Config)) *fixture {
	f := newFixture(t, os, "10.244.1.0/24")
	cfg := f.p.cfg
	mod(&cfg)
	p := NewProvider(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	p.NotifyPods(ctx, func(pod *corev1.Pod) {
		f.mu.Lock()
		f.notified = append(f.notified, pod)
		f.mu.Unlock()
	})
	f.p = p
	return f
}

// B12, A23: env from values, ConfigMaps, Secrets, the downward API, envFrom
// with prefixes, $(VAR) expansion and the Service variables.
func TestEnvironment(t *testing.T) {
	f := newFixtureWith(t, "windows", func(c *Config) {
		c.Objects = objects(t,
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cm"}, Data: map[string]string{"color": "blue", "size": "L"}},
			&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "s"}, Data: map[string][]byte{"pw": []byte("hunter2")}},
			&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "kubernetes"}, Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.1", Ports: []corev1.ServicePort{{Name: "https", Port: 443, Protocol: corev1.ProtocolTCP}}}},
			&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-svc"}, Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.20", Ports: []corev1.ServicePort{{Port: 80}}}},
			&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "hidden"}, Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.30", Ports: []corev1.ServicePort{{Port: 80}}}},
		)
	})
	pod := simplePod("env", "cmd", "/c", "ping -t localhost")
	pod.Labels = map[string]string{"app": "web"}
	pod.Spec.ServiceAccountName = "default"
	pod.Spec.Containers[0].EnvFrom = []corev1.EnvFromSource{{Prefix: "CM_", ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}}}}
	pod.Spec.Containers[0].Env = []corev1.EnvVar{
		{Name: "GREETING", Value: "hello $(CM_color) $$(CM_color) $(MISSING)"},
		{Name: "COLOR", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Key: "color"}}},
		{Name: "PW", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}, Key: "pw"}}},
		{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
		{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}},
		{Name: "NODE", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "spec.nodeName"}}},
		{Name: "APP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels['app']"}}},
		{Name: "SA", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "spec.serviceAccountName"}}},
	}
	f.start(pod)
	var out strings.Builder
	if err := f.p.Exec(context.Background(), "default", "env", "c", []string{"cmd", "/c", "echo %GREETING%"}, nil, &out, nil); err != nil {
		t.Fatal(err)
	}
	f.p.mu.Lock()
	vars := f.p.pods["default/env"].containers[0].env.Vars
	f.p.mu.Unlock()
	for k, want := range map[string]string{
		"GREETING": "hello blue $(CM_color) $(MISSING)", "COLOR": "blue", "PW": "hunter2", "CM_size": "L",
		"POD_NAME": "env", "POD_IP": "10.244.1.2", "NODE": f.info.Name, "APP": "web", "SA": "default",
		"KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443", "KUBERNETES_SERVICE_PORT_HTTPS": "443",
		"KUBERNETES_PORT": "tcp://10.96.0.1:443", "KUBERNETES_PORT_443_TCP_ADDR": "10.96.0.1",
		"WEB_SVC_SERVICE_HOST": "10.96.0.20", "WEB_SVC_PORT_80_TCP": "tcp://10.96.0.20:80",
	} {
		if vars[k] != want {
			t.Errorf("%s = %q, want %q", k, vars[k], want)
		}
	}
	if _, ok := vars["HIDDEN_SERVICE_HOST"]; ok {
		t.Error("a Service of another namespace leaked")
	}
	if got := strings.TrimSpace(out.String()); got != "hello blue $(CM_color) $(MISSING)" {
		t.Errorf("echo %%GREETING%% = %q", got)
	}
}

// Missing references: CreateContainerConfigError with the kubelet's
// messages and a Failed event "Error: <message>".
func TestCreateContainerConfigError(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  corev1.EnvVar
		want string
	}{
		{"missing configmap", corev1.EnvVar{Name: "X", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "nope"}, Key: "k"}}}, `configmap "nope" not found`},
		{"missing key", corev1.EnvVar{Name: "X", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Key: "k"}}}, `couldn't find key k in ConfigMap default/cm`},
		{"missing secret", corev1.EnvVar{Name: "X", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}, Key: "k"}}}, `secret "s" not found`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureWith(t, "windows", func(c *Config) {
				c.Objects = objects(t, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cm"}})
			})
			pod := simplePod("cfg", "cmd", "/c", "ping -t localhost")
			pod.Spec.Containers[0].Env = []corev1.EnvVar{tc.env}
			f.start(pod)
			w := f.get("cfg").Status.ContainerStatuses[0].State.Waiting
			if w == nil || w.Reason != "CreateContainerConfigError" || w.Message != tc.want {
				t.Fatalf("waiting %+v", w)
			}
			ev := f.eventsOf("Failed")
			if len(ev) == 0 || ev[0].Type != "Warning" || ev[0].Message != "Error: "+tc.want {
				t.Fatalf("events %+v", ev)
			}
		})
	}
}

// B8: runAsNonRoot with ContainerAdministrator (any case).
func TestRunAsNonRootAdministrator(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := simplePod("nonroot", "cmd", "/c", "ping -t localhost")
	pod.Spec.SecurityContext = &corev1.PodSecurityContext{RunAsNonRoot: ptr.To(true), WindowsOptions: &corev1.WindowsSecurityContextOptions{RunAsUserName: ptr.To("CONTAINERADMINISTRATOR")}}
	f.start(pod)
	want := `container's runAsUserName (CONTAINERADMINISTRATOR) which will be regarded as root identity and will break non-root policy (pod: "nonroot_default(uid-nonroot)", container: c)`
	w := f.get("nonroot").Status.ContainerStatuses[0].State.Waiting
	if w == nil || w.Reason != "CreateContainerConfigError" || w.Message != want {
		t.Fatalf("waiting %+v", w)
	}
	if ev := f.eventsOf("Failed"); len(ev) == 0 || ev[0].Message != "Error: "+want {
		t.Fatalf("events %+v", ev)
	}
}

// B9: container user overrides the pod user; an unknown pod-level user
// fails the sandbox, an unknown container-level user is a StartError.
func TestRunAsUserName(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := withPolicy(simplePod("users", "cmd", "/S", "/C", "echo %username%"), corev1.RestartPolicyNever)
	pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{RunAsUserName: ptr.To("ContainerAdministrator")}}
	second := pod.Spec.Containers[0]
	second.Name = "c2"
	second.SecurityContext = &corev1.SecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{RunAsUserName: ptr.To("ContainerUser")}}
	pod.Spec.Containers = append(pod.Spec.Containers, second)
	f.start(pod)
	if l := f.logLines("users", "c", 0); len(l) != 1 || l[0] != "ContainerAdministrator" {
		t.Fatalf("c log %q", l)
	}
	if l := f.logLines("users", "c2", 0); len(l) != 1 || l[0] != "ContainerUser" {
		t.Fatalf("c2 log %q", l)
	}

	bad := withPolicy(simplePod("foolish", "cmd", "/S", "/C", "echo %username%"), corev1.RestartPolicyNever)
	bad.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{RunAsUserName: ptr.To("FooLish")}}
	f.start(bad)
	found := false
	for _, e := range f.eventsOf("FailedCreatePodSandBox") {
		found = found || strings.Contains(e.Message, "The user name or password is incorrect.") && strings.HasPrefix(e.Message, "Failed to create pod sandbox: ")
	}
	if got := f.get("foolish"); !found || got.Status.Phase != corev1.PodPending {
		t.Fatalf("sandbox events %+v, phase %s", f.eventsOf("FailedCreatePodSandBox"), got.Status.Phase)
	}

	ctr := withPolicy(simplePod("ctrfoolish", "cmd", "/S", "/C", "echo %username%"), corev1.RestartPolicyNever)
	ctr.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{RunAsUserName: ptr.To("ContainerUser")}}
	ctr.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{RunAsUserName: ptr.To("FooLish")}}
	f.start(ctr)
	got := f.get("ctrfoolish")
	term := got.Status.ContainerStatuses[0].State.Terminated
	if got.Status.Phase != corev1.PodFailed || term == nil || term.Reason != "StartError" || !strings.Contains(term.Message, "The user name or password is incorrect.") {
		t.Fatalf("status %+v", got.Status)
	}
}

// B10: HostProcess containers see the node's name and IP and get
// CONTAINER_SANDBOX_MOUNT_POINT.
func TestHostProcess(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := simplePod("hpc", "cmd", "/c", "ping -t localhost")
	pod.Spec.HostNetwork = true
	pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: ptr.To(true), RunAsUserName: ptr.To(`NT AUTHORITY\SYSTEM`)}}
	f.start(pod)
	got := f.get("hpc")
	if got.Status.PodIP != f.info.InternalIP || got.Status.Phase != corev1.PodRunning {
		t.Fatalf("status %+v", got.Status)
	}
	var out strings.Builder
	if err := f.p.Exec(context.Background(), "default", "hpc", "c", []string{"cmd", "/c", "hostname"}, nil, &out, nil); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out.String()) != f.info.Name {
		t.Fatalf("hostname %q", out.String())
	}
	out.Reset()
	if err := f.p.Exec(context.Background(), "default", "hpc", "c", []string{"cmd", "/c", "echo %CONTAINER_SANDBOX_MOUNT_POINT%"}, nil, &out, nil); err != nil {
		t.Fatal(err)
	}
	if mp := strings.TrimSpace(out.String()); !strings.HasPrefix(mp, `C:\`) || !strings.HasSuffix(mp, `\`) {
		t.Fatalf("mount point %q", mp)
	}
}

// B16: exec returns the command's exit code the way virtual-kubelet
// reports it (utilexec.ExitError).
func TestExecExitCode(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	f.start(simplePod("ex", "cmd", "/c", "ping -t localhost"))
	err := f.p.Exec(context.Background(), "default", "ex", "c", []string{"cmd", "/c", "exit 3"}, nil, nil, nil)
	var ee utilexec.ExitError
	if !errors.As(err, &ee) || !ee.Exited() || ee.ExitStatus() != 3 {
		t.Fatalf("exec error %v", err)
	}
	var out strings.Builder
	if err := f.p.Exec(context.Background(), "default", "ex", "c", []string{"whoami"}, nil, &out, nil); err != nil || strings.TrimSpace(out.String()) != `user manager\containeruser` {
		t.Fatalf("whoami %q %v", out.String(), err)
	}
	if err := f.p.Exec(context.Background(), "default", "ex", "nope", []string{"whoami"}, nil, nil, nil); err == nil {
		t.Fatal("exec in an unknown container succeeded")
	}
}

// GMSA: the credential spec's DNS domain reaches the shell.
func TestGMSADomain(t *testing.T) {
	pod := simplePod("g", "x")
	pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{GMSACredentialSpec: ptr.To(`{"CmsPlugins":["ActiveDirectory"],"DomainJoinConfig":{"DnsName":"contoso.com","NetBiosName":"CONTOSO"}}`)}}
	if d := gmsaDomain(pod, &pod.Spec.Containers[0]); d != "contoso.com" {
		t.Fatalf("domain %q", d)
	}
}
