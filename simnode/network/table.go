package network

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
	"wink.dev/wink/simnode/facts"
)

//go:embed rules.yaml
var rulesYAML []byte

// Source kinds, destination kinds, protocols and outcomes of the rule
// tables (rules.yaml); their OS is facts.OS.
const (
	// SrcPod is a container with a network namespace of its own.
	SrcPod = "pod"
	// SrcHost is the node's host network namespace.
	SrcHost = "host"

	DstSelf              = "self"
	DstPod               = "pod"
	DstNodeOwn           = "node-own"
	DstNodeOther         = "node-other"
	DstNodePortOwn       = "nodeport-own"
	DstNodePortOther     = "nodeport-other"
	DstServiceVIP        = "service-vip"
	DstClusterUnassigned = "cluster-unassigned"
	DstExternal          = "external"
	DstIPv6              = "ipv6"

	ProtoTCP  = "tcp"
	ProtoUDP  = "udp"
	ProtoICMP = "icmp"

	OutcomeDeliver     = "deliver"
	OutcomeTimeout     = "timeout"
	OutcomeRefused     = "refused"
	OutcomeUnreachable = "unreachable"

	AspectNoEndpoints    = "no-ready-endpoints"
	AspectUnknownPort    = "unknown-service-port"
	AspectAffinity       = "session-affinity"
	AspectAffinityTTL    = "affinity-timeout"
	AspectETPLocal       = "external-traffic-policy-local"
	OutcomeHonoured      = "honoured"
	OutcomeIgnored       = "ignored"
	hostServiceVIPsLabel = "hostServiceVIPs"
)

var (
	allOS     = facts.OSes
	allSrc    = []string{SrcPod, SrcHost}
	allDst    = []string{DstSelf, DstPod, DstNodeOwn, DstNodeOther, DstNodePortOwn, DstNodePortOther, DstServiceVIP, DstClusterUnassigned, DstExternal, DstIPv6}
	allProto  = []string{ProtoTCP, ProtoUDP, ProtoICMP}
	allAspect = []string{AspectNoEndpoints, AspectUnknownPort, AspectAffinity, AspectAffinityTTL, AspectETPLocal}
	outcomes  = map[string]bool{OutcomeDeliver: true, OutcomeTimeout: true, OutcomeRefused: true, OutcomeUnreachable: true}
)

// SourceRule classifies a container's network namespace.
type SourceRule struct {
	ID          string   `json:"id"`
	OS          facts.OS `json:"os"`
	HostNetwork bool     `json:"hostNetwork"`
	HostProcess bool     `json:"hostProcess"`
	Kind        string   `json:"kind"`
	Note        string   `json:"note"`
}

// PathRule is one entry of the path table; its lists expand to one
// (os, src, dst, proto) combination each.
type PathRule struct {
	ID              string     `json:"id"`
	OS              []facts.OS `json:"os"`
	Src             []string   `json:"src"`
	Dst             []string   `json:"dst"`
	Proto           []string   `json:"proto"`
	HostServiceVIPs *bool      `json:"hostServiceVIPs,omitempty"`
	Outcome         string     `json:"outcome"`
	Note            string     `json:"note"`
}

// ProxyRule is one entry of the service-proxy table.
type ProxyRule struct {
	ID              string   `json:"id"`
	OS              facts.OS `json:"os"`
	Aspect          string   `json:"aspect"`
	MinWindowsBuild int      `json:"minWindowsBuild,omitempty"`
	MaxWindowsBuild int      `json:"maxWindowsBuild,omitempty"`
	Outcome         string   `json:"outcome"`
	Note            string   `json:"note"`
}

// Table is the whole rule set of rules.yaml.
type Table struct {
	Sources []SourceRule `json:"sources"`
	Paths   []PathRule   `json:"paths"`
	Proxy   []ProxyRule  `json:"proxy"`
	// HostVIPs decides the hostServiceVIPs of a node's paths (H6).
	HostVIPs []HostVIPRule `json:"hostServiceVIPs"`

	paths map[pathKey]*PathRule
}

type pathKey struct {
	os              facts.OS
	src, dst, proto string
	hostVIPs        bool
}

// Decision is the outcome of a table lookup and the entry that made it.
type Decision struct {
	Outcome string
	ID      string
	Note    string
}

var defaultTable = mustLoad(rulesYAML)

// Rules returns the rule table the package evaluates (read-only).
func Rules() *Table { return defaultTable }

func mustLoad(data []byte) *Table {
	t, err := LoadTable(data)
	if err != nil {
		panic("simnode/network: rules.yaml: " + err.Error())
	}
	return t
}

// LoadTable parses and validates a rule table: every source combination and
// every path combination must be covered by exactly one entry.
func LoadTable(data []byte) (*Table, error) {
	var t Table
	if err := yaml.UnmarshalStrict(data, &t); err != nil {
		return nil, err
	}
	if err := t.compile(); err != nil {
		return nil, err
	}
	return &t, nil
}

func in(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// validCombination reports whether a path combination can occur: nodePorts
// have ports, ICMP has none.
func validCombination(dst, proto string) bool {
	return !(proto == ProtoICMP && (dst == DstNodePortOwn || dst == DstNodePortOther))
}

func (t *Table) compile() error {
	// Every entry's id is the behaviour catalog row it implements.
	for _, ids := range [][]string{
		idsOf(t.Sources, func(r SourceRule) string { return r.ID }),
		idsOf(t.Paths, func(r PathRule) string { return r.ID }),
		idsOf(t.Proxy, func(r ProxyRule) string { return r.ID }),
	} {
		if err := facts.CheckCites(ids); err != nil {
			return fmt.Errorf("rules.yaml: %w", err)
		}
	}
	seenSrc := map[string]bool{}
	for i, r := range t.Sources {
		if r.ID == "" || !r.OS.Valid() || !in(allSrc, r.Kind) {
			return fmt.Errorf("sources[%d]: needs id, os in %v, kind in %v", i, allOS, allSrc)
		}
		k := fmt.Sprint(r.OS, r.HostNetwork, r.HostProcess)
		if seenSrc[k] {
			return fmt.Errorf("sources[%d]: duplicate entry for os=%s hostNetwork=%t hostProcess=%t", i, r.OS, r.HostNetwork, r.HostProcess)
		}
		seenSrc[k] = true
	}
	for _, os := range allOS {
		for _, hn := range []bool{false, true} {
			for _, hp := range []bool{false, true} {
				if !seenSrc[fmt.Sprint(os, hn, hp)] {
					return fmt.Errorf("sources: no entry for os=%s hostNetwork=%t hostProcess=%t", os, hn, hp)
				}
			}
		}
	}

	t.paths = map[pathKey]*PathRule{}
	for i := range t.Paths {
		r := &t.Paths[i]
		if r.ID == "" || !outcomes[r.Outcome] {
			return fmt.Errorf("paths[%d]: needs an id and an outcome (deliver, timeout, refused, unreachable)", i)
		}
		if len(r.OS) == 0 {
			return fmt.Errorf("paths[%d] (%s): empty os", i, r.ID)
		}
		for _, os := range r.OS {
			if !os.Valid() {
				return fmt.Errorf("paths[%d] (%s): os %q not one of %v", i, r.ID, os, allOS)
			}
		}
		for field, pair := range map[string][2][]string{"src": {r.Src, allSrc}, "dst": {r.Dst, allDst}, "proto": {r.Proto, allProto}} {
			if len(pair[0]) == 0 {
				return fmt.Errorf("paths[%d] (%s): empty %s", i, r.ID, field)
			}
			for _, v := range pair[0] {
				if !in(pair[1], v) {
					return fmt.Errorf("paths[%d] (%s): %s %q not one of %v", i, r.ID, field, v, pair[1])
				}
			}
		}
		vips := []bool{false, true}
		if r.HostServiceVIPs != nil {
			vips = []bool{*r.HostServiceVIPs}
		}
		for _, os := range r.OS {
			for _, src := range r.Src {
				for _, dst := range r.Dst {
					for _, proto := range r.Proto {
						if !validCombination(dst, proto) {
							return fmt.Errorf("paths[%d] (%s): %s to %s cannot occur", i, r.ID, proto, dst)
						}
						for _, v := range vips {
							k := pathKey{os, src, dst, proto, v}
							if prev, ok := t.paths[k]; ok {
								return fmt.Errorf("paths[%d] (%s): os=%s src=%s dst=%s proto=%s %s=%t already decided by an entry of %s", i, r.ID, os, src, dst, proto, hostServiceVIPsLabel, v, prev.ID)
							}
							t.paths[k] = r
						}
					}
				}
			}
		}
	}
	for _, k := range allPathKeys() {
		if _, ok := t.paths[k]; !ok {
			return fmt.Errorf("paths: no entry for os=%s src=%s dst=%s proto=%s %s=%t", k.os, k.src, k.dst, k.proto, hostServiceVIPsLabel, k.hostVIPs)
		}
	}

	if err := t.compileHostVIPs(); err != nil {
		return err
	}
	for i, r := range t.Proxy {
		if r.ID == "" || !r.OS.Valid() || !in(allAspect, r.Aspect) || r.Outcome == "" {
			return fmt.Errorf("proxy[%d]: needs id, os in %v, aspect in %v and an outcome", i, allOS, allAspect)
		}
	}
	// Every aspect must be decided for every OS and for the builds around
	// each build boundary the table names.
	builds := []int{0}
	for _, r := range t.Proxy {
		for _, b := range []int{r.MinWindowsBuild, r.MaxWindowsBuild} {
			if b > 0 {
				builds = append(builds, b-1, b)
			}
		}
	}
	for _, os := range allOS {
		for _, a := range allAspect {
			for _, b := range builds {
				if n := len(t.proxyMatches(os, a, b)); n != 1 {
					return fmt.Errorf("proxy: %d entries for os=%s aspect=%s windowsBuild=%d, want exactly 1", n, os, a, b)
				}
			}
		}
	}
	return nil
}

func allPathKeys() []pathKey {
	var keys []pathKey
	for _, v := range []bool{false, true} {
		for _, os := range allOS {
			for _, src := range allSrc {
				for _, dst := range allDst {
					for _, proto := range allProto {
						if validCombination(dst, proto) {
							keys = append(keys, pathKey{os, src, dst, proto, v})
						}
					}
				}
			}
		}
	}
	return keys
}

// DecidePath looks up what the network does with proto traffic from a source of
// kind src on an os node to a destination of kind dst.
func (t *Table) DecidePath(os facts.OS, src, dst, proto string, hostServiceVIPs bool) Decision {
	r, ok := t.paths[pathKey{os, src, dst, proto, hostServiceVIPs}]
	if !ok {
		// Unreachable after compile(); fail closed.
		return Decision{Outcome: OutcomeTimeout, ID: "?", Note: "no rule"}
	}
	return Decision{Outcome: r.Outcome, ID: r.ID, Note: r.Note}
}

// SourceKind classifies a container's network namespace.
func (t *Table) SourceKind(os facts.OS, hostNetwork, hostProcess bool) Decision {
	for _, r := range t.Sources {
		if r.OS == os && r.HostNetwork == hostNetwork && r.HostProcess == hostProcess {
			return Decision{Outcome: r.Kind, ID: r.ID, Note: r.Note}
		}
	}
	return Decision{Outcome: SrcPod, ID: "?", Note: "no rule"}
}

func (t *Table) proxyMatches(os facts.OS, aspect string, build int) []*ProxyRule {
	var out []*ProxyRule
	for i := range t.Proxy {
		r := &t.Proxy[i]
		if r.OS != os || r.Aspect != aspect {
			continue
		}
		if r.MinWindowsBuild > 0 && build < r.MinWindowsBuild {
			continue
		}
		if r.MaxWindowsBuild > 0 && build >= r.MaxWindowsBuild {
			continue
		}
		out = append(out, r)
	}
	return out
}

// DecideProxy looks up what the service proxy of an os node (Windows build
// windowsBuild, 0 when unknown or Linux) does for aspect.
func (t *Table) DecideProxy(os facts.OS, aspect string, windowsBuild int) Decision {
	m := t.proxyMatches(os, aspect, windowsBuild)
	if len(m) == 0 {
		return Decision{Outcome: OutcomeIgnored, ID: "?", Note: "no rule"}
	}
	return Decision{Outcome: m[0].Outcome, ID: m[0].ID, Note: m[0].Note}
}

// Expand renders the whole expanded path and proxy tables, one line per
// combination, sorted: the golden form of the rules.
func (t *Table) Expand() string {
	var b strings.Builder
	b.WriteString("# sources: os hostNetwork hostProcess -> kind (row)\n")
	for _, os := range allOS {
		for _, hn := range []bool{false, true} {
			for _, hp := range []bool{false, true} {
				d := t.SourceKind(os, hn, hp)
				fmt.Fprintf(&b, "%-7s hostNetwork=%-5t hostProcess=%-5t -> %-4s (%s)\n", os, hn, hp, d.Outcome, d.ID)
			}
		}
	}
	b.WriteString("\n# paths: hostServiceVIPs os src dst proto -> outcome (row)\n")
	var lines []string
	for _, k := range allPathKeys() {
		d := t.DecidePath(k.os, k.src, k.dst, k.proto, k.hostVIPs)
		lines = append(lines, fmt.Sprintf("%s=%-5t %-7s %-4s %-18s %-4s -> %-11s (%s)", hostServiceVIPsLabel, k.hostVIPs, k.os, k.src, k.dst, k.proto, d.Outcome, d.ID))
	}
	sort.Strings(lines)
	b.WriteString(strings.Join(lines, "\n"))
	b.WriteString("\n\n# hostServiceVIPs: kubelet containerRuntime -> reach (row)\n")
	for _, kv := range []string{"v1.21.14", "v1.22.0", "v1.29.0", "v1.35.4"} {
		for _, rv := range []string{"containerd://1.5.18", "containerd://1.6.0", "containerd://1.7.27", "containerd://2.1.4"} {
			reach, d := t.DecideHostVIPs(kv, rv)
			fmt.Fprintf(&b, "kubelet=%-8s %-19s -> %-5t (%s)\n", kv, rv, reach, d.ID)
		}
	}
	b.WriteString("\n# proxy: os windowsBuild aspect -> outcome (row)\n")
	for _, os := range allOS {
		builds := []int{0}
		if os.IsWindows() {
			builds = []int{17763, 20348, 26100}
		}
		for _, build := range builds {
			for _, a := range allAspect {
				d := t.DecideProxy(os, a, build)
				fmt.Fprintf(&b, "%-7s build=%-5d %-29s -> %-8s (%s)\n", os, build, a, d.Outcome, d.ID)
			}
		}
	}
	return b.String()
}

// idsOf lists the id of each entry of a rule list.
func idsOf[R any](rules []R, id func(R) string) []string {
	ids := make([]string, 0, len(rules))
	for _, r := range rules {
		ids = append(ids, id(r))
	}
	return ids
}
