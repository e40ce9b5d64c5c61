// Package containerenv is the kubelet's environment of a container
// (kubelet_pods.go makeEnvironmentVariables, B12, A23): envFrom and env
// with configMap, secret, field and resource references, the service
// variables, and `$(VAR)` expansion of env values, command and args
// (third_party/forked/golang/expansion, container/helpers.go
// ExpandContainerCommandAndArgs).
package containerenv

import (
	"bytes"
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
)

// Objects gives the runtime the namespaced objects containers refer to
// (informer listers in production; any may be nil).
type Objects struct {
	ConfigMaps corev1listers.ConfigMapLister
	Secrets    corev1listers.SecretLister
	Services   corev1listers.ServiceLister
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

// Input is what resolving a container's environment needs.
type Input struct {
	Pod         *corev1.Pod
	Container   *corev1.Container
	PodIP       string
	HostIP      string
	Allocatable corev1.ResourceList
	Objects     Objects
}

func notFound(resource, name string) error {
	// The kubelet's configmap/secret managers answer with an API NotFound
	// of resource "configmap"/"secret": `configmap "x" not found`.
	return apierrors.NewNotFound(schema.GroupResource{Resource: resource}, name)
}

func (in *Input) configMap(cache map[string]*corev1.ConfigMap, name string) (*corev1.ConfigMap, error) {
	if cm, ok := cache[name]; ok {
		return cm, nil
	}
	if in.Objects.ConfigMaps == nil {
		return nil, notFound("configmap", name)
	}
	cm, err := in.Objects.ConfigMaps.ConfigMaps(in.Pod.Namespace).Get(name)
	if err != nil {
		return nil, notFound("configmap", name)
	}
	cache[name] = cm
	return cm, nil
}

func (in *Input) secret(cache map[string]*corev1.Secret, name string) (*corev1.Secret, error) {
	if s, ok := cache[name]; ok {
		return s, nil
	}
	if in.Objects.Secrets == nil {
		return nil, notFound("secret", name)
	}
	s, err := in.Objects.Secrets.Secrets(in.Pod.Namespace).Get(name)
	if err != nil {
		return nil, notFound("secret", name)
	}
	cache[name] = s
	return s, nil
}

// Resolve is makeEnvironmentVariables: envFrom first, then env (which
// overrides), then the service variables not already set. The error text
// is the kubelet's (CreateContainerConfigError).
func Resolve(in *Input) (map[string]string, error) {
	pod, c := in.Pod, in.Container
	links := pod.Spec.EnableServiceLinks == nil || *pod.Spec.EnableServiceLinks
	svcEnv := serviceEnv(in.Objects.Services, pod.Namespace, links)
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
func (in *Input) fieldRef(path string) (string, error) {
	pod := in.Pod
	switch path {
	case "spec.nodeName":
		return pod.Spec.NodeName, nil
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName, nil
	case "status.hostIP", "status.hostIPs":
		return in.HostIP, nil
	case "status.podIP", "status.podIPs":
		return in.PodIP, nil
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
func (in *Input) resourceFieldRef(fs *corev1.ResourceFieldSelector) (string, error) {
	c := in.Container
	if fs.ContainerName != "" && fs.ContainerName != c.Name {
		c = nil
		for _, list := range [][]corev1.Container{in.Pod.Spec.Containers, in.Pod.Spec.InitContainers} {
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
		q, ok = in.Allocatable[corev1.ResourceName(name)]
	}
	if !ok {
		q = resource.Quantity{}
	}
	if name == "cpu" {
		return strconv.FormatInt(int64(math.Ceil(float64(q.MilliValue())/float64(divisor.MilliValue()))), 10), nil
	}
	return strconv.FormatInt(int64(math.Ceil(float64(q.Value())/float64(divisor.Value()))), 10), nil
}

// ExpandArgv is ExpandContainerCommandAndArgs.
func ExpandArgv(command, args []string, env map[string]string) []string {
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
