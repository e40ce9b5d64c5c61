package pods

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1listers "k8s.io/client-go/listers/core/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/rules"
)

// This file is the kubelet's container configuration: environment
// variables (kubelet_pods.go makeEnvironmentVariables, B12, A23), `$(VAR)`
// expansion of env values, command and args (third_party/forked/golang/
// expansion, container/helpers.go ExpandContainerCommandAndArgs), the user
// a container runs as (B8, B9), HostProcess (B10) and GMSA.

// Objects gives the runtime the namespaced objects containers refer to
// (informer listers in production; any may be nil).
type Objects struct {
	ConfigMaps corev1listers.ConfigMapLister
	Secrets    corev1listers.SecretLister
	Services   corev1listers.ServiceLister
}

// podFormat is format.Pod: <name>_<namespace>(<uid>).
func podFormat(pod *corev1.Pod) string {
	return fmt.Sprintf("%s_%s(%s)", pod.Name, pod.Namespace, pod.UID)
}

// expand is expansion.Expand: $(VAR) is replaced when mapping knows VAR
// and kept as is otherwise; $$ is an escaped $.
func expand(input string, mapping func(string) (string, bool)) string {
	var buf bytes.Buffer
	checkpoint := 0
	for cursor := 0; cursor < len(input); cursor++ {
		if input[cursor] == '$' && cursor+1 < len(input) {
			buf.WriteString(input[checkpoint:cursor])
			read, isVar, advance := readVariableName(input[cursor+1:])
			if isVar {
				if v, ok := mapping(read); ok {
					buf.WriteString(v)
				} else {
					buf.WriteString("$(" + read + ")")
				}
			} else {
				buf.WriteString(read)
			}
			cursor += advance
			checkpoint = cursor + 1
		}
	}
	return buf.String() + input[checkpoint:]
}

func readVariableName(input string) (string, bool, int) {
	switch input[0] {
	case '$':
		return "$", false, 1
	case '(':
		for i := 1; i < len(input); i++ {
			if input[i] == ')' {
				return input[1:i], true, i + 1
			}
		}
		return "$(", false, 1
	default:
		return "$" + string(input[0]), false, 1
	}
}

func mappingFor(maps ...map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		for _, m := range maps {
			if v, ok := m[k]; ok {
				return v, true
			}
		}
		return "", false
	}
}

// serviceEnv is getServiceEnvVarMap + envvars.FromServices (A23): the
// services of the pod's namespace (with enableServiceLinks) and the
// master service "kubernetes" of the default namespace.
func serviceEnv(lister corev1listers.ServiceLister, ns string, links bool) map[string]string {
	m := map[string]string{}
	if lister == nil {
		return m
	}
	all, err := lister.List(labels.Everything())
	if err != nil {
		return m
	}
	chosen := map[string]*corev1.Service{}
	for _, s := range all {
		if s.Spec.ClusterIP == "" || s.Spec.ClusterIP == corev1.ClusterIPNone || len(s.Spec.Ports) == 0 {
			continue
		}
		if s.Namespace == "default" && s.Name == "kubernetes" {
			if _, ok := chosen[s.Name]; !ok {
				chosen[s.Name] = s
			}
		} else if s.Namespace == ns && links {
			chosen[s.Name] = s
		}
	}
	for _, s := range chosen {
		prefix := envName(s.Name)
		m[prefix+"_SERVICE_HOST"] = s.Spec.ClusterIP
		m[prefix+"_SERVICE_PORT"] = strconv.Itoa(int(s.Spec.Ports[0].Port))
		for _, p := range s.Spec.Ports {
			if p.Name != "" {
				m[prefix+"_SERVICE_PORT_"+envName(p.Name)] = strconv.Itoa(int(p.Port))
			}
		}
		for i, p := range s.Spec.Ports {
			proto := string(corev1.ProtocolTCP)
			if p.Protocol != "" {
				proto = string(p.Protocol)
			}
			hp := net.JoinHostPort(s.Spec.ClusterIP, strconv.Itoa(int(p.Port)))
			url := strings.ToLower(proto) + "://" + hp
			if i == 0 {
				m[prefix+"_PORT"] = url
			}
			pp := fmt.Sprintf("%s_PORT_%d_%s", prefix, p.Port, strings.ToUpper(proto))
			m[pp] = url
			m[pp+"_PROTO"] = strings.ToLower(proto)
			m[pp+"_PORT"] = strconv.Itoa(int(p.Port))
			m[pp+"_ADDR"] = s.Spec.ClusterIP
		}
	}
	return m
}

func envName(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "-", "_")) }

// envInput is what resolving a container's environment needs.
type envInput struct {
	pod         *corev1.Pod
	container   *corev1.Container
	podIP       string
	hostIP      string
	allocatable corev1.ResourceList
	objects     Objects
}

func notFound(resource, name string) error {
	// The kubelet's configmap/secret managers answer with an API NotFound
	// of resource "configmap"/"secret": `configmap "x" not found`.
	return apierrors.NewNotFound(schema.GroupResource{Resource: resource}, name)
}

func (in *envInput) configMap(cache map[string]*corev1.ConfigMap, name string) (*corev1.ConfigMap, error) {
	if cm, ok := cache[name]; ok {
		return cm, nil
	}
	if in.objects.ConfigMaps == nil {
		return nil, notFound("configmap", name)
	}
	cm, err := in.objects.ConfigMaps.ConfigMaps(in.pod.Namespace).Get(name)
	if err != nil {
		return nil, notFound("configmap", name)
	}
	cache[name] = cm
	return cm, nil
}

func (in *envInput) secret(cache map[string]*corev1.Secret, name string) (*corev1.Secret, error) {
	if s, ok := cache[name]; ok {
		return s, nil
	}
	if in.objects.Secrets == nil {
		return nil, notFound("secret", name)
	}
	s, err := in.objects.Secrets.Secrets(in.pod.Namespace).Get(name)
	if err != nil {
		return nil, notFound("secret", name)
	}
	cache[name] = s
	return s, nil
}

// resolveEnv is makeEnvironmentVariables: envFrom first, then env (which
// overrides), then the service variables not already set. The error text
// is the kubelet's (CreateContainerConfigError).
func resolveEnv(in *envInput) (map[string]string, error) {
	pod, c := in.pod, in.container
	links := pod.Spec.EnableServiceLinks == nil || *pod.Spec.EnableServiceLinks
	svcEnv := serviceEnv(in.objects.Services, pod.Namespace, links)
	cms := map[string]*corev1.ConfigMap{}
	secrets := map[string]*corev1.Secret{}
	tmp := map[string]string{}
	for _, from := range c.EnvFrom {
		switch {
		case from.ConfigMapRef != nil:
			cm, err := in.configMap(cms, from.ConfigMapRef.Name)
			if err != nil {
				if from.ConfigMapRef.Optional != nil && *from.ConfigMapRef.Optional {
					continue
				}
				return nil, err
			}
			for k, v := range cm.Data {
				tmp[from.Prefix+k] = v
			}
		case from.SecretRef != nil:
			s, err := in.secret(secrets, from.SecretRef.Name)
			if err != nil {
				if from.SecretRef.Optional != nil && *from.SecretRef.Optional {
					continue
				}
				return nil, err
			}
			for k, v := range s.Data {
				tmp[from.Prefix+k] = string(v)
			}
		}
	}
	mapping := mappingFor(tmp, svcEnv)
	for _, e := range c.Env {
		val := e.Value
		if val != "" {
			val = expand(val, mapping)
		} else if e.ValueFrom != nil {
			vf := e.ValueFrom
			switch {
			case vf.FieldRef != nil:
				v, err := in.fieldRef(vf.FieldRef.FieldPath)
				if err != nil {
					return nil, err
				}
				val = v
			case vf.ResourceFieldRef != nil:
				v, err := in.resourceFieldRef(vf.ResourceFieldRef)
				if err != nil {
					return nil, err
				}
				val = v
			case vf.ConfigMapKeyRef != nil:
				ref := vf.ConfigMapKeyRef
				optional := ref.Optional != nil && *ref.Optional
				cm, err := in.configMap(cms, ref.Name)
				if err != nil {
					if optional {
						continue
					}
					return nil, err
				}
				v, ok := cm.Data[ref.Key]
				if !ok {
					if optional {
						continue
					}
					return nil, fmt.Errorf("couldn't find key %v in ConfigMap %v/%v", ref.Key, pod.Namespace, ref.Name)
				}
				val = v
			case vf.SecretKeyRef != nil:
				ref := vf.SecretKeyRef
				optional := ref.Optional != nil && *ref.Optional
				s, err := in.secret(secrets, ref.Name)
				if err != nil {
					if optional {
						continue
					}
					return nil, err
				}
				v, ok := s.Data[ref.Key]
				if !ok {
					if optional {
						continue
					}
					return nil, fmt.Errorf("couldn't find key %v in Secret %v/%v", ref.Key, pod.Namespace, ref.Name)
				}
				val = string(v)
			}
		}
		tmp[e.Name] = val
	}
	for k, v := range svcEnv {
		if _, ok := tmp[k]; !ok {
			tmp[k] = v
		}
	}
	return tmp, nil
}

// fieldRef is podFieldSelectorRuntimeValue + fieldpath.ExtractFieldPathAsString.
func (in *envInput) fieldRef(path string) (string, error) {
	pod := in.pod
	switch path {
	case "spec.nodeName":
		return pod.Spec.NodeName, nil
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName, nil
	case "status.hostIP", "status.hostIPs":
		return in.hostIP, nil
	case "status.podIP", "status.podIPs":
		return in.podIP, nil
	case "metadata.name":
		return pod.Name, nil
	case "metadata.namespace":
		return pod.Namespace, nil
	case "metadata.uid":
		return string(pod.UID), nil
	case "metadata.labels":
		return formatMap(pod.Labels), nil
	case "metadata.annotations":
		return formatMap(pod.Annotations), nil
	}
	if k, ok := subscript(path, "metadata.labels"); ok {
		return pod.Labels[k], nil
	}
	if k, ok := subscript(path, "metadata.annotations"); ok {
		return pod.Annotations[k], nil
	}
	return "", fmt.Errorf("unsupported fieldPath: %v", path)
}

func subscript(path, prefix string) (string, bool) {
	if !strings.HasPrefix(path, prefix+"['") || !strings.HasSuffix(path, "']") {
		return "", false
	}
	return path[len(prefix)+2 : len(path)-2], true
}

// formatMap is fieldpath.FormatMap: sorted key="value" lines.
func formatMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%v=%q\n", k, m[k])
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// resourceFieldRef is containerResourceRuntimeValue with the limits
// defaulted to the node's allocatable (defaultPodLimitsForDownwardAPI).
func (in *envInput) resourceFieldRef(fs *corev1.ResourceFieldSelector) (string, error) {
	c := in.container
	if fs.ContainerName != "" && fs.ContainerName != c.Name {
		c = nil
		for _, list := range [][]corev1.Container{in.pod.Spec.Containers, in.pod.Spec.InitContainers} {
			for i := range list {
				if list[i].Name == fs.ContainerName {
					c = &list[i]
				}
			}
		}
		if c == nil {
			return "", fmt.Errorf("container %s not found", fs.ContainerName)
		}
	}
	divisor := fs.Divisor
	if divisor.IsZero() {
		divisor = resource.MustParse("1")
	}
	kind, name, _ := strings.Cut(fs.Resource, ".")
	var list corev1.ResourceList
	switch kind {
	case "limits":
		list = c.Resources.Limits
	case "requests":
		list = c.Resources.Requests
	default:
		return "", fmt.Errorf("unsupported container resource : %v", fs.Resource)
	}
	q, ok := list[corev1.ResourceName(name)]
	if !ok && kind == "limits" {
		q, ok = in.allocatable[corev1.ResourceName(name)]
	}
	if !ok {
		q = resource.Quantity{}
	}
	if name == "cpu" {
		return strconv.FormatInt(int64(math.Ceil(float64(q.MilliValue())/float64(divisor.MilliValue()))), 10), nil
	}
	return strconv.FormatInt(int64(math.Ceil(float64(q.Value())/float64(divisor.Value()))), 10), nil
}

// expandArgv is ExpandContainerCommandAndArgs.
func expandArgv(command, args []string, env map[string]string) []string {
	mapping := mappingFor(env)
	var out []string
	for _, c := range command {
		out = append(out, expand(c, mapping))
	}
	for _, a := range args {
		out = append(out, expand(a, mapping))
	}
	return out
}

// argvOf is the process a container runs: its command and args, with the
// image's entrypoint and cmd where they are unset (the OCI/CRI rule: a
// command replaces entrypoint and cmd; args alone replace cmd). For an
// image whose ENTRYPOINT and CMD wink does not know, a container that sets
// neither runs the image's unknown default process: argv is empty (the
// shell runs it until stopped), not the catalog's guess for unknown images.
func argvOf(c *corev1.Container, img Image, env map[string]string) []string {
	command, args := c.Command, c.Args
	if !img.Known && len(command) == 0 && len(args) == 0 {
		return nil
	}
	if len(command) == 0 {
		command = img.Entrypoint
		if len(args) == 0 {
			args = img.Cmd
		}
	}
	return expandArgv(command, args, env)
}

func podUserName(pod *corev1.Pod) *string {
	if sc := pod.Spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		return sc.WindowsOptions.RunAsUserName
	}
	return nil
}

func containerUserName(c *corev1.Container) *string {
	if sc := c.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		return sc.WindowsOptions.RunAsUserName
	}
	return nil
}

// userFor is the user a Windows container runs as (B9): its runAsUserName,
// else the pod's, else the image's user, else the default.
func userFor(r *rules.RuntimeRules, pod *corev1.Pod, c *corev1.Container, img Image) string {
	if u := containerUserName(c); u != nil {
		return *u
	}
	if u := podUserName(pod); u != nil {
		return *u
	}
	if facts.HostProcess(pod) && len(r.Users.HostProcess) > 0 {
		return r.Users.HostProcess[0]
	}
	if img.User != "" {
		return img.User
	}
	return r.Users.DefaultUser
}

// verifyRunAsNonRoot is security_context_windows.go (B8) and, on Linux
// nodes, security_context_others.go.
func verifyRunAsNonRoot(r *rules.RuntimeRules, os facts.OS, pod *corev1.Pod, c *corev1.Container, img Image) error {
	var nonRoot *bool
	if sc := pod.Spec.SecurityContext; sc != nil && sc.RunAsNonRoot != nil {
		nonRoot = sc.RunAsNonRoot
	}
	if sc := c.SecurityContext; sc != nil && sc.RunAsNonRoot != nil {
		nonRoot = sc.RunAsNonRoot
	}
	if nonRoot == nil || !*nonRoot {
		return nil
	}
	d := rules.MessageData{Pod: podFormat(pod), Container: c.Name}
	if os.IsWindows() {
		if facts.HostProcess(pod) {
			return nil
		}
		name := containerUserName(c)
		if name == nil {
			name = podUserName(pod)
		}
		if name != nil {
			if strings.EqualFold(*name, r.Users.RootUser) {
				d.User = *name
				return fmt.Errorf("%s", r.Message("nonRootUserNameMessage", d))
			}
			return nil
		}
		if strings.EqualFold(img.User, r.Users.RootUser) {
			d.User = img.User
			return fmt.Errorf("%s", r.Message("nonRootImageUserMessage", d))
		}
		return nil
	}
	var uid *int64
	if sc := pod.Spec.SecurityContext; sc != nil && sc.RunAsUser != nil {
		uid = sc.RunAsUser
	}
	if sc := c.SecurityContext; sc != nil && sc.RunAsUser != nil {
		uid = sc.RunAsUser
	}
	if uid != nil {
		if *uid == 0 {
			return fmt.Errorf("%s", r.Message("nonRootLinuxUIDMessage", d))
		}
		return nil
	}
	if img.User == "" || img.User == "0" || img.User == "root" || strings.HasPrefix(img.User, "0:") {
		return fmt.Errorf("%s", r.Message("nonRootLinuxImageMessage", d))
	}
	return nil
}

// gmsaDomain is the DNS domain of the pod's (or container's) GMSA
// credential spec (DomainJoinConfig.DnsName), what `nltest /PARENTDOMAIN`
// prints.
func gmsaDomain(pod *corev1.Pod, c *corev1.Container) string {
	var spec *string
	if sc := pod.Spec.SecurityContext; sc != nil && sc.WindowsOptions != nil && sc.WindowsOptions.GMSACredentialSpec != nil {
		spec = sc.WindowsOptions.GMSACredentialSpec
	}
	if sc := c.SecurityContext; sc != nil && sc.WindowsOptions != nil && sc.WindowsOptions.GMSACredentialSpec != nil {
		spec = sc.WindowsOptions.GMSACredentialSpec
	}
	if spec == nil {
		return ""
	}
	var cs struct {
		DomainJoinConfig struct {
			DNSName string `json:"DnsName"`
		} `json:"DomainJoinConfig"`
	}
	if err := json.Unmarshal([]byte(*spec), &cs); err != nil {
		return ""
	}
	return cs.DomainJoinConfig.DNSName
}

// SandboxMountPoint is where a HostProcess container's volumes and image
// files are (B10): %CONTAINER_SANDBOX_MOUNT_POINT%.
func SandboxMountPoint(containerID string) string {
	id := strings.TrimPrefix(containerID, "containerd://")
	return `C:\C\` + id + `\`
}
