package kindcluster

import (
	"net/netip"
	"strings"
	"testing"

	"wink.dev/wink/harness/internal/kindgateway"
)

func TestChooseBlock(t *testing.T) {
	kind := netip.MustParsePrefix("172.18.0.0/16")
	blk := func(s string) kindgateway.Block {
		b, err := kindgateway.ParseBlock(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name       string
		subnet     netip.Prefix
		count      int
		used       []kindgateway.Block
		configured string
		want       string
		wantErr    string
	}{
		{name: "the top of the subnet", subnet: kind, count: 4, want: "172.18.255.251+4"},
		{name: "containers low are no matter", subnet: kind, count: 2, used: []kindgateway.Block{blk("172.18.0.2+1"), blk("172.18.0.3+1")}, want: "172.18.255.253+2"},
		{name: "below another gateway's block", subnet: kind, count: 3, used: []kindgateway.Block{blk("172.18.255.251+4")}, want: "172.18.255.248+3"},
		{name: "below a container at the top", subnet: kind, count: 1, used: []kindgateway.Block{blk("172.18.255.254+1")}, want: "172.18.255.253+1"},
		{name: "a small subnet that fits", subnet: netip.MustParsePrefix("10.9.0.0/29"), count: 5, want: "10.9.0.2+5"},
		{name: "a small subnet that does not", subnet: netip.MustParsePrefix("10.9.0.0/29"), count: 7, wantErr: "no 7 free addresses"},
		{name: "configured", subnet: kind, count: 2, configured: "172.18.7.1", want: "172.18.7.1+2"},
		{name: "configured outside", subnet: kind, count: 2, configured: "192.168.5.10", wantErr: "do not fit"},
		{name: "configured over a container", subnet: kind, count: 2, configured: "172.18.0.1", used: []kindgateway.Block{blk("172.18.0.2+1")}, wantErr: "overlap"},
		{name: "configured not an address", subnet: kind, count: 1, configured: "host.docker.internal", wantErr: "not an IPv4 address"},
		{name: "IPv6 network", subnet: netip.MustParsePrefix("fc00::/64"), count: 1, wantErr: "no IPv4 subnet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := chooseBlock(tt.subnet, tt.count, tt.used, tt.configured)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, %v; want an error mentioning %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
