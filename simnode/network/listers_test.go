package network_test

import (
	"testing"

	"k8s.io/client-go/tools/cache"

	corelisters "k8s.io/client-go/listers/core/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"

	"wink.dev/wink/simnode/network"
)

// The provider's Source: informer listers.
func TestListersSource(t *testing.T) {
	c := newCluster()
	idx := func(objs ...any) cache.Indexer {
		i := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		for _, o := range objs {
			if err := i.Add(o); err != nil {
				t.Fatal(err)
			}
		}
		return i
	}
	var pods, svcs, eps, nodes []any
	for _, o := range c.objs.PodList {
		pods = append(pods, o)
	}
	for _, o := range c.objs.ServiceList {
		svcs = append(svcs, o)
	}
	for _, o := range c.objs.EndpointSliceList {
		eps = append(eps, o)
	}
	for _, o := range c.objs.NodeList {
		nodes = append(nodes, o)
	}
	src := &network.Listers{
		PodLister:           corelisters.NewPodLister(idx(pods...)),
		ServiceLister:       corelisters.NewServiceLister(idx(svcs...)),
		EndpointSliceLister: discoverylisters.NewEndpointSliceLister(idx(eps...)),
		NodeLister:          corelisters.NewNodeLister(idx(nodes...)),
	}
	m := network.New(src, network.Options{})
	got, err := m.From(c.pods["win-client"]).Resolve(ctx, "kubernetes")
	if err != nil || len(got) != 1 || got[0].String() != kubeAPI {
		t.Fatalf("Resolve through listers: %v %v", got, err)
	}
	if err := m.From(c.pods["linux-client"]).Dial(ctx, "tcp", addr("10.96.0.30"), 80); err != nil {
		t.Fatalf("Dial through listers: %v", err)
	}
}
