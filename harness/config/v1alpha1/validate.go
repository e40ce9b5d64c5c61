package v1alpha1

import (
	"errors"
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/version"
	kubeletapis "k8s.io/kubelet/pkg/apis"
	"wink.dev/wink/simnode/facts"
)

// Limits that Validate enforces.
const (
	// MaxNodes is the most simulated nodes a cluster may have: the largest
	// cluster Kubernetes supports.
	MaxNodes = 5000
	// MinNodeCIDRMaskSize and MaxNodeCIDRMaskSize bound nodeCIDRMaskSize:
	// from 65536 down to 16 pod addresses per node.
	MinNodeCIDRMaskSize = 16
	MaxNodeCIDRMaskSize = 28
	// MinKubeletMinor and MaxKubeletMinor bound the minor version of
	// kubeletVersion (v1.29.0 to v1.35.x): a kubelet may not be newer than
	// the v1.35 control plane.
	MinKubeletMinor = 29
	MaxKubeletMinor = 35
)

// ErrorType is the kind of problem a FieldError reports. Its text follows
// the path in the message, as in Kubernetes' field errors.
type ErrorType string

// The types of field errors.
const (
	// ErrorTypeRequired: a needed field is missing or empty.
	ErrorTypeRequired ErrorType = "Required value"
	// ErrorTypeInvalid: the value is malformed or out of range.
	ErrorTypeInvalid ErrorType = "Invalid value"
	// ErrorTypeNotSupported: the value is not one of a fixed set.
	ErrorTypeNotSupported ErrorType = "Unsupported value"
	// ErrorTypeDuplicate: the value must be unique and is not.
	ErrorTypeDuplicate ErrorType = "Duplicate value"
	// ErrorTypeForbidden: the field may not be set here.
	ErrorTypeForbidden ErrorType = "Forbidden"
	// ErrorTypeUnknownField: the file names a field that does not exist
	// (reported by the loader's strict decoding).
	ErrorTypeUnknownField ErrorType = "Unknown field"
)

// FieldError is one problem of a Cluster, at a field path such as
// nodePools[1].windowsBuild or nodePools[0].labels[example.com/team]: map
// entries are written in brackets, list items by index. Its message reads
//
//	<path>: <type>[: <value>][: <message>][; <fix>]
//
// for example
//
//	nodePools[0].windowsBuild: Unsupported value: "10.0.1": supported values: "10.0.17763" (Windows Server 2019), "10.0.20348" (2022), "10.0.26100" (2025)
//
// The value is left out for the Required, Forbidden and Unknown field types.
type FieldError struct {
	// Path of the field, e.g. nodePools[1].windowsBuild.
	Path string
	// Type of the problem.
	Type ErrorType
	// Value is the bad value: a string, an int or nil.
	Value any
	// Message says what is wrong, when the type alone does not.
	Message string
	// Fix says how to put it right.
	Fix string
}

// Error returns the message described at FieldError.
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	b.WriteString(": ")
	b.WriteString(string(e.Type))
	switch e.Type {
	case ErrorTypeRequired, ErrorTypeForbidden, ErrorTypeUnknownField:
	default:
		b.WriteString(": ")
		b.WriteString(formatValue(e.Value))
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Fix != "" {
		if e.Message != "" {
			b.WriteString("; ")
		} else {
			b.WriteString(": ")
		}
		b.WriteString(e.Fix)
	}
	return b.String()
}

func formatValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(v)
	case fmt.Stringer:
		return strconv.Quote(v.String())
	default:
		return fmt.Sprint(v)
	}
}

// Validate checks a defaulted Cluster (see Default) and returns every
// problem at once: errors.Join of *FieldError, or nil when c is valid. Use
// errors.As to get at the first FieldError; unwrap the join
// (interface{ Unwrap() []error }) to get them all.
func Validate(c *Cluster) error {
	var v validator
	v.cluster(c)
	return errors.Join(v.errs...)
}

type validator struct {
	errs []error
}

func (v *validator) add(path string, typ ErrorType, value any, message, fix string) {
	v.errs = append(v.errs, &FieldError{Path: path, Type: typ, Value: value, Message: message, Fix: fix})
}

func field(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func index(parent string, i int) string { return fmt.Sprintf("%s[%d]", parent, i) }

func key(parent, k string) string { return parent + "[" + k + "]" }

// quoteList returns "a", "b", "c".
func quoteList[T ~string](values ...T) string {
	quoted := make([]string, len(values))
	for i, s := range values {
		quoted[i] = strconv.Quote(string(s))
	}
	return strings.Join(quoted, ", ")
}

const (
	dns1123LabelMessage = "must be a DNS-1123 label"
	dns1123LabelFix     = "use at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit"
)

// ValidateName checks a cluster name: a DNS-1123 label, since it names the
// cluster's state directory, its nodes and its etcd member. path is where
// the name came from ("name" in wink.yaml, "--name" on the command line).
// It returns a *FieldError, or nil.
func ValidateName(path, name string) error {
	switch {
	case name == "" && strings.HasPrefix(path, "-"):
		return &FieldError{Path: path, Type: ErrorTypeRequired, Fix: "give a cluster name, e.g. " + path + " " + DefaultName}
	case name == "":
		return &FieldError{Path: path, Type: ErrorTypeRequired, Fix: "set " + path + ", e.g. " + path + ": " + DefaultName}
	case len(validation.IsDNS1123Label(name)) > 0:
		return &FieldError{Path: path, Type: ErrorTypeInvalid, Value: name, Message: dns1123LabelMessage, Fix: dns1123LabelFix + `, e.g. "wink"`}
	}
	return nil
}

// windowsBuildsFix lists the Windows Server builds (N2).
var windowsBuildsFix = fmt.Sprintf("supported values: %q (Windows Server 2019), %q (2022), %q (2025)",
	WindowsServer2019, WindowsServer2022, WindowsServer2025)

var windowsBuilds = facts.WindowsBuilds()

func (v *validator) cluster(c *Cluster) {
	switch {
	case c.APIVersion == "":
		v.add("apiVersion", ErrorTypeRequired, nil, "", "set apiVersion: "+APIVersion)
	case c.APIVersion != APIVersion:
		message := ""
		if strings.HasPrefix(c.APIVersion, "kind.x-k8s.io/") {
			message = "this is a kind cluster config, wink.yaml has its own format (see fixtures/wink.yaml)"
		}
		v.add("apiVersion", ErrorTypeNotSupported, c.APIVersion, message, "supported values: "+quoteList(APIVersion))
	}
	switch {
	case c.Kind == "":
		v.add("kind", ErrorTypeRequired, nil, "", "set kind: "+Kind)
	case c.Kind != Kind:
		v.add("kind", ErrorTypeNotSupported, c.Kind, "", "supported values: "+quoteList(Kind))
	}

	nameOK := false
	if err := ValidateName("name", c.Name); err != nil {
		v.errs = append(v.errs, err)
	} else {
		nameOK = true
	}

	switch c.Backend {
	case BackendEmbedded, BackendKind:
	case BackendExisting:
		if c.Kubeconfig == "" {
			v.add("kubeconfig", ErrorTypeRequired, nil, "backend existing joins the cluster of a kubeconfig",
				"set kubeconfig to the path of that cluster's kubeconfig")
		}
	case "":
		v.add("backend", ErrorTypeRequired, nil, "", "set backend: embedded, kind or existing")
	default:
		v.add("backend", ErrorTypeNotSupported, string(c.Backend), "",
			`supported values: "embedded" (control plane in wink, no Docker), "kind" (a kind cluster), "existing" (the cluster of kubeconfig)`)
	}

	switch {
	case c.Simnode.Shards < 0:
		v.add("simnode.shards", ErrorTypeInvalid, c.Simnode.Shards, "", "set simnode.shards to 1 or more, or leave it out (1)")
	case c.Simnode.Shards > 1 && c.Backend == BackendEmbedded:
		v.add("simnode.shards", ErrorTypeInvalid, c.Simnode.Shards, "the embedded apiserver reaches its nodes through one simnode's egress proxy",
			"use backend existing (kubeconfig of the embedded cluster) or kind to shard, or leave simnode.shards out")
	}

	switch c.Images.Resolve {
	case ImageResolveRegistry, ImageResolveOffline:
	case "":
		v.add("images.resolve", ErrorTypeRequired, nil, "", `set images.resolve: registry or offline`)
	default:
		v.add("images.resolve", ErrorTypeNotSupported, string(c.Images.Resolve), "",
			`supported values: "registry" (ask the image's registry, cache the answer under $WINK_HOME/cache/images), "offline" (the cache and fixtures/images.yaml only, no network)`)
	}

	total := NodeCount(c.NodePools)
	v.networking("networking", &c.Networking, total)

	names := make(map[string]int, len(c.NodePools))
	for i := range c.NodePools {
		p := &c.NodePools[i]
		path := index("nodePools", i)
		if first, dup := names[p.Name]; dup && p.Name != "" {
			v.add(field(path, "name"), ErrorTypeDuplicate, p.Name, fmt.Sprintf("nodePools[%d] has the same name", first),
				"give every pool a name of its own")
		} else {
			names[p.Name] = i
		}
		v.nodePool(path, p, c.Name, nameOK)
	}
	if total > MaxNodes {
		v.add("nodePools", ErrorTypeInvalid, total,
			fmt.Sprintf("the pools have %d nodes, more than %d, the largest cluster Kubernetes supports", total, MaxNodes),
			"lower the counts")
	}
}

func (v *validator) networking(path string, n *Networking, nodes int) {
	pods, podsOK := v.cidr(field(path, "podSubnet"), n.PodSubnet, DefaultPodSubnet)
	services, servicesOK := v.cidr(field(path, "serviceSubnet"), n.ServiceSubnet, DefaultServiceSubnet)

	maskPath := field(path, "nodeCIDRMaskSize")
	maskOK := false
	switch {
	case n.NodeCIDRMaskSize < MinNodeCIDRMaskSize || n.NodeCIDRMaskSize > MaxNodeCIDRMaskSize:
		v.add(maskPath, ErrorTypeInvalid, n.NodeCIDRMaskSize,
			fmt.Sprintf("must be from %d to %d", MinNodeCIDRMaskSize, MaxNodeCIDRMaskSize),
			"e.g. 24, a /24 (256 pod addresses) per node")
	case podsOK && n.NodeCIDRMaskSize <= pods.Bits():
		v.add(maskPath, ErrorTypeInvalid, n.NodeCIDRMaskSize,
			fmt.Sprintf("must be larger than the prefix length of podSubnet (/%d), each node gets a part of it", pods.Bits()),
			fmt.Sprintf("set nodeCIDRMaskSize above %d, or give podSubnet a shorter prefix", pods.Bits()))
	default:
		maskOK = true
	}
	if podsOK && maskOK {
		if room := 1 << (n.NodeCIDRMaskSize - pods.Bits()); nodes > room {
			v.add(field(path, "podSubnet"), ErrorTypeInvalid, n.PodSubnet,
				fmt.Sprintf("has room for %d node podCIDRs of /%d, but the pools have %d nodes", room, n.NodeCIDRMaskSize, nodes),
				"give podSubnet a shorter prefix or raise nodeCIDRMaskSize")
		}
	}

	if servicesOK && services.Bits() < 12 {
		v.add(field(path, "serviceSubnet"), ErrorTypeInvalid, n.ServiceSubnet,
			"is larger than kube-apiserver allows (the prefix must be /12 or longer)",
			"use a /12 or smaller range, e.g. "+DefaultServiceSubnet)
	} else if servicesOK && podsOK && services.Overlaps(pods) {
		v.add(field(path, "serviceSubnet"), ErrorTypeInvalid, n.ServiceSubnet,
			"overlaps podSubnet "+n.PodSubnet,
			fmt.Sprintf("choose ranges apart, e.g. the defaults %s and %s", DefaultPodSubnet, DefaultServiceSubnet))
	}

	switch {
	case n.DNSDomain == "":
		v.add(field(path, "dnsDomain"), ErrorTypeRequired, nil, "", "set dnsDomain, e.g. dnsDomain: "+DefaultDNSDomain)
	case len(validation.IsDNS1123Subdomain(n.DNSDomain)) > 0:
		v.add(field(path, "dnsDomain"), ErrorTypeInvalid, n.DNSDomain, "must be a DNS-1123 subdomain",
			"use lower-case labels separated by dots, e.g. "+DefaultDNSDomain)
	}

	if n.NodeAddressBase != "" {
		basePath := field(path, "nodeAddressBase")
		addr, err := netip.ParseAddr(n.NodeAddressBase)
		switch {
		case err != nil || !addr.Is4():
			v.add(basePath, ErrorTypeInvalid, n.NodeAddressBase, "must be an IPv4 address",
				"write an address such as 127.10.0.2, or leave it out and let wink choose")
		case addr.IsUnspecified() || addr.IsMulticast() || addr == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
			v.add(basePath, ErrorTypeInvalid, n.NodeAddressBase, "cannot be a node address",
				"use a unicast address such as 127.10.0.2")
		case podsOK && pods.Contains(addr):
			v.add(basePath, ErrorTypeInvalid, n.NodeAddressBase, "lies inside podSubnet "+n.PodSubnet,
				"use an address outside podSubnet and serviceSubnet, e.g. 127.10.0.2")
		case servicesOK && services.Contains(addr):
			v.add(basePath, ErrorTypeInvalid, n.NodeAddressBase, "lies inside serviceSubnet "+n.ServiceSubnet,
				"use an address outside podSubnet and serviceSubnet, e.g. 127.10.0.2")
		}
	}
}

// cidr parses an IPv4 CIDR and reports what is wrong with it.
func (v *validator) cidr(path, value, example string) (netip.Prefix, bool) {
	if value == "" {
		v.add(path, ErrorTypeRequired, nil, "", "set an IPv4 CIDR, e.g. "+example)
		return netip.Prefix{}, false
	}
	p, err := netip.ParsePrefix(value)
	switch {
	case err != nil:
		v.add(path, ErrorTypeInvalid, value, "must be a CIDR", "write an IPv4 CIDR, e.g. "+example)
		return p, false
	case !p.Addr().Is4():
		v.add(path, ErrorTypeInvalid, value, "IPv6 is not supported", "write an IPv4 CIDR, e.g. "+example)
		return p, false
	case p != p.Masked():
		v.add(path, ErrorTypeInvalid, value, "has host bits set", fmt.Sprintf("did you mean %q?", p.Masked().String()))
		return p, false
	}
	return p, true
}

// kubeletOwnedLabels are the labels wink sets from the pool itself (N1, N2).
var kubeletOwnedLabels = []string{
	corev1.LabelHostname,
	corev1.LabelOSStable,
	kubeletapis.LabelOS,
	corev1.LabelArchStable,
	kubeletapis.LabelArch,
	corev1.LabelWindowsBuild,
}

var (
	taintEffects = []corev1.TaintEffect{
		corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute,
	}
	capacityResources = []corev1.ResourceName{
		corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourcePods, corev1.ResourceEphemeralStorage,
	}
	// reservedResources are what --kube-reserved and --system-reserved take
	// of these four: the kubelet reserves no pods.
	reservedResources = []corev1.ResourceName{
		corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage,
	}
	// evictionSignals are the evictionHard keys wink knows.
	evictionSignals = []string{
		EvictionMemoryAvailable, EvictionNodeFSAvailable, "nodefs.inodesFree",
		"imagefs.available", "imagefs.inodesFree", "pid.available",
	}
	runtimeVersionRE = regexp.MustCompile(`^[a-z][a-z0-9.+-]*://[A-Za-z0-9][A-Za-z0-9.+_~-]*$`)
)

func (v *validator) nodePool(path string, p *NodePool, clusterName string, clusterNameOK bool) {
	namePath := field(path, "name")
	switch {
	case p.Name == "":
		v.add(namePath, ErrorTypeRequired, nil, "", `set name, e.g. name: win2022`)
	case len(validation.IsDNS1123Label(p.Name)) > 0:
		v.add(namePath, ErrorTypeInvalid, p.Name, dns1123LabelMessage, dns1123LabelFix+`, e.g. "win2022"`)
	case clusterNameOK && p.Count != nil && *p.Count > 0:
		longest := fmt.Sprintf("%s-%s-%d", clusterName, p.Name, *p.Count-1)
		if len(longest) > validation.LabelValueMaxLength {
			v.add(namePath, ErrorTypeInvalid, p.Name,
				fmt.Sprintf("node names such as %q would have %d characters, more than the %d of a kubernetes.io/hostname label",
					longest, len(longest), validation.LabelValueMaxLength),
				"shorten the pool or the cluster name")
		}
	}

	buildPath := field(path, "windowsBuild")
	switch p.OS {
	case OSWindows:
		switch {
		case p.WindowsBuild == "":
			v.add(buildPath, ErrorTypeRequired, nil, "", windowsBuildsFix)
		case !slices.Contains(windowsBuilds, p.WindowsBuild):
			v.add(buildPath, ErrorTypeNotSupported, p.WindowsBuild, "", windowsBuildsFix)
		}
	case OSLinux:
		if p.WindowsBuild != "" {
			v.add(buildPath, ErrorTypeForbidden, nil, "only windows pools have a Windows build", "remove it, or set os: windows")
		}
	case "":
		v.add(field(path, "os"), ErrorTypeRequired, nil, "", "set os: windows or os: linux")
	default:
		v.add(field(path, "os"), ErrorTypeNotSupported, string(p.OS), "", "supported values: "+quoteList(OSWindows, OSLinux))
	}

	if p.Count != nil && *p.Count < 0 {
		v.add(field(path, "count"), ErrorTypeInvalid, *p.Count, "must not be negative", "set count to 0 or more")
	}

	v.labels(field(path, "labels"), p.Labels)
	v.taints(field(path, "taints"), p.Taints)
	v.resources(field(path, "capacity"), p.Capacity, capacityResources, true)
	v.resources(field(path, "kubeReserved"), p.KubeReserved, reservedResources, false)
	v.resources(field(path, "systemReserved"), p.SystemReserved, reservedResources, false)
	v.evictionHard(field(path, "evictionHard"), p.EvictionHard)
	v.allocatable(path, p)

	if p.KubeletVersion != "" {
		v.kubeletVersion(field(path, "kubeletVersion"), p.KubeletVersion)
	}
	if p.ContainerRuntimeVersion != "" && !runtimeVersionRE.MatchString(p.ContainerRuntimeVersion) {
		v.add(field(path, "containerRuntimeVersion"), ErrorTypeInvalid, p.ContainerRuntimeVersion,
			"must have the shape <runtime>://<version>", `e.g. "`+DefaultWindowsContainerRuntimeVersion+`"`)
	}
	v.shutdownGracePeriods(path, p)
	v.kubeletWritePath(field(path, "kubelet"), p.Kubelet)
}

// kubeletWritePath checks a pool's kubelet write-path settings as the
// kubelet's config validation does (validation.go: eventRecordQPS and
// eventBurst not negative, nodeLeaseDurationSeconds above zero,
// nodeStatusReportFrequency not negative).
func (v *validator) kubeletWritePath(path string, k *KubeletWritePath) {
	if k == nil {
		return
	}
	for _, f := range []struct {
		name string
		n    *int32
	}{{"eventRecordQPS", k.EventRecordQPS}, {"eventBurst", k.EventBurst}} {
		if f.n != nil && *f.n < 0 {
			v.add(field(path, f.name), ErrorTypeInvalid, *f.n, "must not be negative", "write a number such as 50, or leave it out for the kubelet's default")
		}
	}
	if n := k.NodeLeaseDurationSeconds; n != nil && *n <= 0 {
		v.add(field(path, "nodeLeaseDurationSeconds"), ErrorTypeInvalid, *n, "must be above zero", "write seconds such as 40 (the kubelet's default), or leave it out")
	}
	if d := k.NodeStatusReportFrequency; d != nil && d.Duration <= 0 {
		v.add(field(path, "nodeStatusReportFrequency"), ErrorTypeInvalid, d.Duration.String(), "must be above zero", `write a duration such as "5m" (the kubelet's default), or leave it out`)
	}
	// The container log manager's (NewContainerLogManager, validation.go).
	if s := k.ContainerLogMaxSize; s != "" {
		if q, err := resource.ParseQuantity(s); err != nil || q.Sign() <= 0 {
			v.add(field(path, "containerLogMaxSize"), ErrorTypeInvalid, s, "must be a positive quantity", `write a size such as "10Mi" (the kubelet's default), or leave it out`)
		}
	}
	if n := k.ContainerLogMaxFiles; n != nil && *n <= 1 {
		v.add(field(path, "containerLogMaxFiles"), ErrorTypeInvalid, *n, "must be greater than 1", "write a number such as 5 (the kubelet's default), or leave it out")
	}
	if n := k.ContainerLogMaxWorkers; n != nil && *n < 1 {
		v.add(field(path, "containerLogMaxWorkers"), ErrorTypeInvalid, *n, "must be greater than or equal to 1", "write a number such as 1 (the kubelet's default), or leave it out")
	}
	if d := k.ContainerLogMonitorInterval; d != nil && d.Duration < 3*time.Second {
		v.add(field(path, "containerLogMonitorInterval"), ErrorTypeInvalid, d.Duration.String(), "must be a positive time duration greater than or equal to 3s", `write a duration such as "10s" (the kubelet's default), or leave it out`)
	}
}

// shutdownGracePeriods checks shutdownGracePeriod and
// shutdownGracePeriodCriticalPods as the kubelet's config validation does
// (B15): each zero or at least 1s, and the critical pods' part not longer
// than the whole. Unset (nil) fields are Default's; they pass.
func (v *validator) shutdownGracePeriods(path string, p *NodePool) {
	ok := func(name string, d *metav1.Duration) bool {
		switch {
		case d == nil:
			return false
		case d.Duration < 0:
			v.add(field(path, name), ErrorTypeInvalid, d.Duration.String(), "must not be negative",
				`write a duration such as "30s", or "0s" to turn graceful node shutdown off`)
			return false
		case d.Duration > 0 && d.Duration < time.Second:
			v.add(field(path, name), ErrorTypeInvalid, d.Duration.String(),
				"must be zero or at least 1s, as the kubelet's (its grace periods are whole seconds)",
				`write whole seconds such as "1s" or "30s", or "0s"`)
			return false
		}
		return true
	}
	totalOK := ok("shutdownGracePeriod", p.ShutdownGracePeriod)
	criticalOK := ok("shutdownGracePeriodCriticalPods", p.ShutdownGracePeriodCriticalPods)
	if !totalOK || !criticalOK {
		return
	}
	if total, critical := p.ShutdownGracePeriod.Duration, p.ShutdownGracePeriodCriticalPods.Duration; critical > total {
		message := fmt.Sprintf("longer than shutdownGracePeriod %s: critical pods get the last part of it", total)
		fix := fmt.Sprintf("lower shutdownGracePeriodCriticalPods to at most %s, or raise shutdownGracePeriod to at least %s", total, critical)
		if total == 0 {
			fix = fmt.Sprintf("set shutdownGracePeriodCriticalPods to \"0s\" to keep graceful node shutdown off, or set shutdownGracePeriod to at least %s", critical)
		}
		v.add(field(path, "shutdownGracePeriodCriticalPods"), ErrorTypeInvalid, critical.String(), message, fix)
	}
}

func (v *validator) labels(path string, labels map[string]string) {
	for _, k := range sortedKeys(labels) {
		value := labels[k]
		p := key(path, k)
		if errs := validation.IsQualifiedName(k); len(errs) > 0 {
			v.add(p, ErrorTypeInvalid, k, "not a label key: "+strings.Join(errs, "; "),
				"use a key such as example.com/team")
			continue
		}
		switch {
		case slices.Contains(kubeletOwnedLabels, k):
			v.add(p, ErrorTypeForbidden, nil, "wink sets this label from the pool's os and windowsBuild (N1, N2)",
				"remove it, and set os or windowsBuild instead")
			continue
		case isKubernetesLabel(k) && !kubeletapis.IsKubeletLabel(k):
			v.add(p, ErrorTypeForbidden, nil,
				"the kubelet refuses kubernetes.io and k8s.io labels other than its own in --node-labels",
				"use a key under node.kubernetes.io/ or a prefix of your own such as example.com/")
			continue
		}
		if errs := validation.IsValidLabelValue(value); len(errs) > 0 {
			v.add(p, ErrorTypeInvalid, value, strings.Join(errs, "; "),
				"use at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit")
		}
	}
}

// isKubernetesLabel reports whether key is in the kubernetes.io or k8s.io
// namespace, as the kubelet's --node-labels check does.
func isKubernetesLabel(key string) bool {
	namespace, _, ok := strings.Cut(key, "/")
	if !ok {
		return false
	}
	return namespace == "kubernetes.io" || strings.HasSuffix(namespace, ".kubernetes.io") ||
		namespace == "k8s.io" || strings.HasSuffix(namespace, ".k8s.io")
}

func (v *validator) taints(path string, taints []corev1.Taint) {
	seen := make(map[string]int, len(taints))
	for i, t := range taints {
		p := index(path, i)
		switch {
		case t.Key == "":
			v.add(field(p, "key"), ErrorTypeRequired, nil, "", "set key, e.g. key: os")
		case len(validation.IsQualifiedName(t.Key)) > 0:
			v.add(field(p, "key"), ErrorTypeInvalid, t.Key,
				"not a taint key: "+strings.Join(validation.IsQualifiedName(t.Key), "; "),
				"use a key such as os or example.com/dedicated")
		}
		if t.Value != "" {
			if errs := validation.IsValidLabelValue(t.Value); len(errs) > 0 {
				v.add(field(p, "value"), ErrorTypeInvalid, t.Value, strings.Join(errs, "; "),
					"use at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit")
			}
		}
		switch {
		case t.Effect == "":
			v.add(field(p, "effect"), ErrorTypeRequired, nil, "", "set effect: "+quoteList(taintEffects...))
		case !slices.Contains(taintEffects, t.Effect):
			v.add(field(p, "effect"), ErrorTypeNotSupported, string(t.Effect), "", "supported values: "+quoteList(taintEffects...))
		}
		if t.TimeAdded != nil {
			v.add(field(p, "timeAdded"), ErrorTypeForbidden, nil, "the node lifecycle controller sets it", "remove timeAdded")
		}
		id := t.Key + ":" + string(t.Effect)
		if first, dup := seen[id]; dup {
			v.add(p, ErrorTypeDuplicate, id, fmt.Sprintf("%s has the same key and effect", index(path, first)),
				"taints must be unique by key and effect: remove one")
		} else {
			seen[id] = i
		}
	}
}

func (v *validator) resources(path string, list corev1.ResourceList, allowed []corev1.ResourceName, positive bool) {
	for _, name := range sortedKeys(list) {
		q := list[name]
		p := key(path, string(name))
		switch {
		case !slices.Contains(allowed, name):
			v.add(p, ErrorTypeNotSupported, string(name), "", "supported values: "+quoteList(allowed...))
		case q.Sign() < 0:
			v.add(p, ErrorTypeInvalid, q.String(), "must not be negative", "write 0 or more")
		case positive && q.Sign() == 0:
			v.add(p, ErrorTypeInvalid, q.String(), "must be positive", "write a capacity above 0")
		}
	}
}

func (v *validator) evictionHard(path string, thresholds map[string]string) {
	for _, signal := range sortedKeys(thresholds) {
		value := thresholds[signal]
		p := key(path, signal)
		if !slices.Contains(evictionSignals, signal) {
			v.add(p, ErrorTypeNotSupported, signal, "", "supported values: "+quoteList(evictionSignals...))
			continue
		}
		if _, err := parseThreshold(value); err != nil {
			v.add(p, ErrorTypeInvalid, value, err.Error(), `write a quantity such as "500Mi" or a percentage such as "10%"`)
		}
	}
}

// threshold is an evictionHard value: a quantity or a percentage.
type threshold struct {
	quantity   resource.Quantity
	percentage float64 // used when isPercent
	isPercent  bool
}

func parseThreshold(value string) (threshold, error) {
	if number, ok := strings.CutSuffix(value, "%"); ok {
		pct, err := strconv.ParseFloat(number, 64)
		if err != nil || pct < 0 || pct > 100 {
			return threshold{}, errors.New("must be a percentage from 0% to 100%")
		}
		return threshold{percentage: pct, isPercent: true}, nil
	}
	q, err := resource.ParseQuantity(value)
	if err != nil {
		return threshold{}, errors.New("must be a quantity or a percentage")
	}
	if q.Sign() < 0 {
		return threshold{}, errors.New("must not be negative")
	}
	return threshold{quantity: q}, nil
}

// of returns the threshold as an amount of capacity.
func (t threshold) of(capacity resource.Quantity) resource.Quantity {
	if !t.isPercent {
		return t.quantity
	}
	return *resource.NewQuantity(int64(float64(capacity.Value())*t.percentage/100), capacity.Format)
}

// allocatable checks that capacity − kubeReserved − systemReserved −
// evictionHard stays positive for cpu, memory and ephemeral-storage (N5).
func (v *validator) allocatable(path string, p *NodePool) {
	evictions := map[corev1.ResourceName]string{
		corev1.ResourceMemory:           EvictionMemoryAvailable,
		corev1.ResourceEphemeralStorage: EvictionNodeFSAvailable,
	}
	for _, name := range reservedResources {
		capacity, ok := p.Capacity[name]
		if !ok || capacity.Sign() <= 0 {
			continue
		}
		kube, system := p.KubeReserved[name], p.SystemReserved[name]
		if kube.Sign() < 0 || system.Sign() < 0 {
			continue // reported by resources
		}
		left := capacity.DeepCopy()
		left.Sub(kube)
		left.Sub(system)
		terms := fmt.Sprintf("capacity %s - kubeReserved %s - systemReserved %s", capacity.String(), kube.String(), system.String())
		if signal, ok := evictions[name]; ok {
			if value, ok := p.EvictionHard[signal]; ok {
				t, err := parseThreshold(value)
				if err != nil {
					continue // reported by evictionHard
				}
				left.Sub(t.of(capacity))
				terms += fmt.Sprintf(" - evictionHard %s %s", signal, value)
			}
		}
		if left.Sign() <= 0 {
			v.add(key(field(path, "capacity"), string(name)), ErrorTypeInvalid, capacity.String(),
				fmt.Sprintf("allocatable %s would be %s (%s)", name, left.String(), terms),
				fmt.Sprintf("raise capacity[%s] or lower the reservations (N5)", name))
		}
	}
}

func (v *validator) kubeletVersion(path, value string) {
	const fix = "write a version from v1.29.0 to v1.35.x as the node reports it, e.g. \"v1.30.2\", or leave it out for the control plane's"
	if !strings.HasPrefix(value, "v") {
		v.add(path, ErrorTypeInvalid, value, "must start with v", fix)
		return
	}
	ver, err := version.ParseSemantic(value)
	if err != nil {
		v.add(path, ErrorTypeInvalid, value, "must be a semantic version vX.Y.Z", fix)
		return
	}
	if ver.Major() != 1 || ver.Minor() < MinKubeletMinor || ver.Minor() > MaxKubeletMinor {
		v.add(path, ErrorTypeInvalid, value,
			fmt.Sprintf("outside the supported kubelet versions v1.%d to v1.%d (a kubelet may not be newer than the control plane)",
				MinKubeletMinor, MaxKubeletMinor), fix)
	}
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
