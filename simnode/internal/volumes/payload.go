package volumes

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Default file modes the apiserver defaults defaultMode to
// (corev1.ConfigMapVolumeSourceDefaultMode etc., 0644).
const defaultMode int32 = 0o644

// notFound normalises a Source's not-found error to the kubelet's wording:
// the kubelet's object managers answer with the singular resource name,
// `configmap "x" not found` / `secret "x" not found`.
func notFound(resourceName, name string, err error) error {
	if err == nil {
		return nil
	}
	if apierrors.IsNotFound(err) {
		return apierrors.NewNotFound(corev1.Resource(resourceName), name)
	}
	return err
}

func (p *Pod) getConfigMap(ns, name string) (*corev1.ConfigMap, error) {
	if p.src == nil {
		return nil, apierrors.NewNotFound(corev1.Resource("configmap"), name)
	}
	cm, err := p.src.ConfigMap(ns, name)
	if err == nil && cm == nil {
		err = apierrors.NewNotFound(corev1.Resource("configmap"), name)
	}
	return cm, notFound("configmap", name, err)
}

func (p *Pod) getSecret(ns, name string) (*corev1.Secret, error) {
	if p.src == nil {
		return nil, apierrors.NewNotFound(corev1.Resource("secret"), name)
	}
	s, err := p.src.Secret(ns, name)
	if err == nil && s == nil {
		err = apierrors.NewNotFound(corev1.Resource("secret"), name)
	}
	return s, notFound("secret", name, err)
}

func modeOr(m *int32, def int32) int32 {
	if m != nil {
		return *m
	}
	return def
}

// configMapPayload is MakePayload (pkg/volume/configmap/configmap.go:263).
func configMapPayload(items []corev1.KeyToPath, cm *corev1.ConfigMap, mode *int32, optional bool) (map[string]payloadFile, error) {
	dm := modeOr(mode, defaultMode)
	out := map[string]payloadFile{}
	if len(items) == 0 {
		for k, v := range cm.Data {
			out[k] = payloadFile{data: []byte(v), mode: dm}
		}
		for k, v := range cm.BinaryData {
			out[k] = payloadFile{data: v, mode: dm}
		}
		return out, nil
	}
	for _, it := range items {
		var data []byte
		if s, ok := cm.Data[it.Key]; ok {
			data = []byte(s)
		} else if b, ok := cm.BinaryData[it.Key]; ok {
			data = b
		} else {
			if optional {
				continue
			}
			return nil, fmt.Errorf("configmap references non-existent config key: %s", it.Key)
		}
		out[it.Path] = payloadFile{data: data, mode: modeOr(it.Mode, dm)}
	}
	return out, nil
}

// secretPayload is MakePayload (pkg/volume/secret/secret.go:280). Secrets
// are plain files on disk on Windows (no tmpfs; row B12).
func secretPayload(items []corev1.KeyToPath, s *corev1.Secret, mode *int32, optional bool) (map[string]payloadFile, error) {
	dm := modeOr(mode, defaultMode)
	out := map[string]payloadFile{}
	if len(items) == 0 {
		for k, v := range s.Data {
			out[k] = payloadFile{data: v, mode: dm}
		}
		return out, nil
	}
	for _, it := range items {
		v, ok := s.Data[it.Key]
		if !ok {
			if optional {
				continue
			}
			return nil, fmt.Errorf("references non-existent secret key: %s", it.Key)
		}
		out[it.Path] = payloadFile{data: v, mode: modeOr(it.Mode, dm)}
	}
	return out, nil
}

// downwardPayload is CollectData (pkg/volume/downwardapi/downwardapi.go:238).
func (p *Pod) downwardPayload(items []corev1.DownwardAPIVolumeFile, pod *corev1.Pod, mode *int32) (map[string]payloadFile, error) {
	dm := modeOr(mode, defaultMode)
	var errs []error
	out := map[string]payloadFile{}
	alloc, _, _, _ := p.node.settings()
	for _, it := range items {
		f := payloadFile{mode: modeOr(it.Mode, dm)}
		switch {
		case it.FieldRef != nil:
			v, err := extractFieldPath(pod, it.FieldRef.FieldPath)
			if err != nil {
				errs = append(errs, err)
			} else {
				f.data = []byte(v)
			}
		case it.ResourceFieldRef != nil:
			v, err := extractResource(it.ResourceFieldRef, pod, it.ResourceFieldRef.ContainerName, alloc)
			if err != nil {
				errs = append(errs, err)
			} else {
				f.data = []byte(v)
			}
		}
		out[it.Path] = f
	}
	return out, utilerrors.NewAggregate(errs)
}

// formatMap is fieldpath.FormatMap (pkg/fieldpath/fieldpath.go): sorted
// `key="value"` lines, values quoted with strconv.Quote, no trailing newline.
func formatMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b []byte
	for _, k := range keys {
		if len(b) > 0 {
			b = append(b, '\n')
		}
		b = append(b, k...)
		b = append(b, '=')
		b = strconv.AppendQuote(b, m[k])
	}
	return string(b)
}

// extractFieldPath is fieldpath.ExtractFieldPathAsString
// (pkg/fieldpath/fieldpath.go), the metadata paths a downwardAPI volume may use.
func extractFieldPath(pod *corev1.Pod, fieldPath string) (string, error) {
	if path, sub, ok := splitSubscript(fieldPath); ok {
		switch path {
		case "metadata.annotations":
			if errs := validation.IsQualifiedName(strings.ToLower(sub)); len(errs) != 0 {
				return "", fmt.Errorf("invalid key subscript in %s: %s", fieldPath, strings.Join(errs, ";"))
			}
			return pod.Annotations[sub], nil
		case "metadata.labels":
			if errs := validation.IsQualifiedName(sub); len(errs) != 0 {
				return "", fmt.Errorf("invalid key subscript in %s: %s", fieldPath, strings.Join(errs, ";"))
			}
			return pod.Labels[sub], nil
		default:
			return "", fmt.Errorf("fieldPath %q does not support subscript", fieldPath)
		}
	}
	switch fieldPath {
	case "metadata.annotations":
		return formatMap(pod.Annotations), nil
	case "metadata.labels":
		return formatMap(pod.Labels), nil
	case "metadata.name":
		return pod.Name, nil
	case "metadata.namespace":
		return pod.Namespace, nil
	case "metadata.uid":
		return string(pod.UID), nil
	}
	return "", fmt.Errorf("unsupported fieldPath: %v", fieldPath)
}

func splitSubscript(fieldPath string) (string, string, bool) {
	if !strings.HasSuffix(fieldPath, "']") {
		return fieldPath, "", false
	}
	s := strings.TrimSuffix(fieldPath, "']")
	parts := strings.SplitN(s, "['", 2)
	if len(parts) < 2 || len(parts[0]) == 0 {
		return fieldPath, "", false
	}
	return parts[0], parts[1], true
}

// extractResource is ExtractResourceValueByContainerNameAndNodeAllocatable
// (pkg/api/v1/resource/helpers.go:90): limits default to node allocatable,
// the value is divided by the divisor (default 1) and rounded up.
func extractResource(fs *corev1.ResourceFieldSelector, pod *corev1.Pod, containerName string, alloc corev1.ResourceList) (string, error) {
	var c *corev1.Container
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == containerName {
			c = pod.Spec.Containers[i].DeepCopy()
		}
	}
	if c == nil {
		for i := range pod.Spec.InitContainers {
			if pod.Spec.InitContainers[i].Name == containerName {
				c = pod.Spec.InitContainers[i].DeepCopy()
			}
		}
	}
	if c == nil {
		return "", fmt.Errorf("container %s not found", containerName)
	}
	if c.Resources.Limits == nil {
		c.Resources.Limits = corev1.ResourceList{}
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage} {
		if q, ok := c.Resources.Limits[r]; !ok || q.IsZero() {
			if a, ok := alloc[r]; ok {
				c.Resources.Limits[r] = a.DeepCopy()
			}
		}
	}
	divisor := resource.MustParse("1")
	if !fs.Divisor.IsZero() {
		divisor = fs.Divisor
	}
	ceil := func(q *resource.Quantity, milli bool) string {
		if milli {
			return strconv.FormatInt(int64(math.Ceil(float64(q.MilliValue())/float64(divisor.MilliValue()))), 10)
		}
		return strconv.FormatInt(int64(math.Ceil(float64(q.Value())/float64(divisor.Value()))), 10)
	}
	switch fs.Resource {
	case "limits.cpu":
		return ceil(c.Resources.Limits.Cpu(), true), nil
	case "limits.memory":
		return ceil(c.Resources.Limits.Memory(), false), nil
	case "limits.ephemeral-storage":
		return ceil(c.Resources.Limits.StorageEphemeral(), false), nil
	case "requests.cpu":
		return ceil(c.Resources.Requests.Cpu(), true), nil
	case "requests.memory":
		return ceil(c.Resources.Requests.Memory(), false), nil
	case "requests.ephemeral-storage":
		return ceil(c.Resources.Requests.StorageEphemeral(), false), nil
	}
	for _, pre := range []string{"requests.", "limits."} {
		if name, ok := strings.CutPrefix(fs.Resource, pre); ok && strings.HasPrefix(name, corev1.ResourceHugePagesPrefix) {
			list := c.Resources.Requests
			if pre == "limits." {
				list = c.Resources.Limits
			}
			return ceil(list.Name(corev1.ResourceName(name), resource.BinarySI), false), nil
		}
	}
	return "", fmt.Errorf("unsupported container resource : %v", fs.Resource)
}

// projectedPayload is collectData (pkg/volume/projected/projected.go:247).
func (p *Pod) projectedPayload(ctx context.Context, vs *volumeState, src *corev1.ProjectedVolumeSource, pod *corev1.Pod) (map[string]payloadFile, error) {
	dm := modeOr(src.DefaultMode, defaultMode)
	var errs []error
	out := map[string]payloadFile{}
	merge := func(m map[string]payloadFile) {
		for k, v := range m {
			out[k] = v
		}
	}
	for i, s := range src.Sources {
		switch {
		case s.Secret != nil:
			optional := s.Secret.Optional != nil && *s.Secret.Optional
			sec, err := p.getSecret(pod.Namespace, s.Secret.Name)
			if err != nil {
				if !(apierrors.IsNotFound(err) && optional) {
					errs = append(errs, err)
					continue
				}
				sec = &corev1.Secret{}
			}
			m, err := secretPayload(s.Secret.Items, sec, &dm, optional)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			merge(m)
		case s.ConfigMap != nil:
			optional := s.ConfigMap.Optional != nil && *s.ConfigMap.Optional
			cm, err := p.getConfigMap(pod.Namespace, s.ConfigMap.Name)
			if err != nil {
				if !(apierrors.IsNotFound(err) && optional) {
					errs = append(errs, err)
					continue
				}
				cm = &corev1.ConfigMap{}
			}
			m, err := configMapPayload(s.ConfigMap.Items, cm, &dm, optional)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			merge(m)
		case s.DownwardAPI != nil:
			m, err := p.downwardPayload(s.DownwardAPI.Items, pod, &dm)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			merge(m)
		case s.ServiceAccountToken != nil:
			tok, err := p.token(ctx, vs, i, s.ServiceAccountToken, pod)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out[s.ServiceAccountToken.Path] = payloadFile{data: []byte(tok), mode: dm}
		case s.ClusterTrustBundle != nil:
			if s.ClusterTrustBundle.Optional != nil && *s.ClusterTrustBundle.Optional {
				out[s.ClusterTrustBundle.Path] = payloadFile{mode: dm}
				continue
			}
			errs = append(errs, errors.New("ClusterTrustBundle projection is not simulated"))
		case s.PodCertificate != nil:
			errs = append(errs, errors.New("PodCertificate projection is not simulated"))
		}
	}
	return out, utilerrors.NewAggregate(errs)
}

// token returns the service account token of source i, asking the Source
// again once 80% of its lifetime has passed (the kubelet's token manager
// refreshes at 80% of the TTL).
func (p *Pod) token(ctx context.Context, vs *volumeState, i int, t *corev1.ServiceAccountTokenProjection, pod *corev1.Pod) (string, error) {
	exp := int64(3600)
	if t.ExpirationSeconds != nil {
		exp = *t.ExpirationSeconds
	}
	now := p.node.clock()
	if c, ok := vs.tokens[i]; ok && now.Sub(c.at).Seconds() < 0.8*float64(exp) {
		return c.token, nil
	}
	if p.src == nil {
		return "", errors.New("no token source")
	}
	sa := pod.Spec.ServiceAccountName
	if sa == "" {
		sa = "default"
	}
	tok, err := p.src.ServiceAccountToken(ctx, pod.Namespace, sa, t.Audience, exp, pod)
	if err != nil {
		return "", err
	}
	if vs.tokens == nil {
		vs.tokens = map[int]cachedToken{}
	}
	vs.tokens[i] = cachedToken{token: tok, at: now}
	return tok, nil
}
