package profile

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// RequestKey is one series of apiserver_request_total, response code and
// scope folded in.
type RequestKey struct {
	Verb, Group, Resource, Subresource string
}

// Path is group/resource/subresource as kubectl would name it, e.g.
// pods/status, events.events.k8s.io, serviceaccounts/token.
func (k RequestKey) Path() string {
	s := k.Resource
	if k.Group != "" {
		s += "." + k.Group
	}
	if k.Subresource != "" {
		s += "/" + k.Subresource
	}
	if s == "" {
		return "(non-resource)"
	}
	return s
}

// Write reports whether the verb changes state (and so reaches etcd).
func (k RequestKey) Write() bool {
	switch k.Verb {
	case "POST", "PUT", "PATCH", "APPLY", "DELETE", "DELETECOLLECTION", "CREATE", "UPDATE":
		return true
	}
	return false
}

// Requests count the apiserver's requests by RequestKey.
type Requests map[RequestKey]float64

// Sub is r minus before, series that did not move left out.
func (r Requests) Sub(before Requests) Requests {
	out := Requests{}
	for k, v := range r {
		if d := v - before[k]; d > 0 {
			out[k] = d
		}
	}
	return out
}

// Keys are r's keys, writes first, then by count, largest first.
func (r Requests) Keys() []RequestKey {
	keys := make([]RequestKey, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.Write() != b.Write() {
			return a.Write()
		}
		if r[a] != r[b] {
			return r[a] > r[b]
		}
		return a.Verb+a.Path() < b.Verb+b.Path()
	})
	return keys
}

// Writes is the number of state-changing requests in r.
func (r Requests) Writes() float64 {
	var n float64
	for k, v := range r {
		if k.Write() {
			n += v
		}
	}
	return n
}

func readRequests(ctx context.Context, g Getter) (Requests, error) {
	data, err := g.Get(ctx, "/metrics")
	if err != nil {
		return nil, fmt.Errorf("apiserver /metrics: %w", err)
	}
	return ParseRequests(data)
}

// ParseRequests sums the apiserver_request_total series of a Prometheus
// text exposition by RequestKey.
func ParseRequests(text []byte) (Requests, error) {
	const metric = "apiserver_request_total{"
	out := Requests{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, metric)
		if !ok {
			continue
		}
		end := strings.LastIndexByte(rest, '}')
		if end < 0 {
			return nil, fmt.Errorf("apiserver_request_total: no closing brace in %q", line)
		}
		labels, err := parseLabels(rest[:end])
		if err != nil {
			return nil, fmt.Errorf("apiserver_request_total: %w in %q", err, line)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rest[end+1:]), 64)
		if err != nil {
			return nil, fmt.Errorf("apiserver_request_total: value of %q: %w", line, err)
		}
		out[RequestKey{Verb: labels["verb"], Group: labels["group"], Resource: labels["resource"], Subresource: labels["subresource"]}] += v
	}
	return out, sc.Err()
}

// parseLabels reads name="value",... with Prometheus' escapes (\\, \",
// \n) in values.
func parseLabels(s string) (map[string]string, error) {
	out := map[string]string{}
	for s != "" {
		name, rest, ok := strings.Cut(s, "=\"")
		if !ok {
			return nil, fmt.Errorf("label without a quoted value at %q", s)
		}
		var v strings.Builder
		i := 0
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' && i+1 < len(rest) {
				i++
				if rest[i] == 'n' {
					v.WriteByte('\n')
					continue
				}
			}
			v.WriteByte(rest[i])
		}
		if i == len(rest) {
			return nil, fmt.Errorf("unterminated value of label %s", name)
		}
		out[strings.TrimSpace(name)] = v.String()
		s = strings.TrimPrefix(rest[i+1:], ",")
	}
	return out, nil
}
