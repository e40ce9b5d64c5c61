package kindgateway

import (
	"net/netip"
	"strings"
	"testing"
)

func TestParseBlock(t *testing.T) {
	tests := []struct {
		in, wantAll, wantErr string
	}{
		{in: "172.18.255.253+2", wantAll: "172.18.255.253 172.18.255.254"},
		{in: "10.0.0.255+2", wantAll: "10.0.0.255 10.0.1.0"},
		{in: "10.0.0.1", wantErr: "want <first address>+<count"},
		{in: "10.0.0.1+0", wantErr: "want <first address>+<count"},
		{in: "10.0.0.1+70000", wantErr: "want <first address>+<count"},
		{in: "kind+2", wantErr: "want <first address>+<count"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			b, err := ParseBlock(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var all []string
			for _, a := range b.All() {
				all = append(all, a.String())
			}
			if got := strings.Join(all, " "); got != tt.wantAll {
				t.Errorf("All() = %s, want %s", got, tt.wantAll)
			}
			if b.String() != tt.in {
				t.Errorf("String() = %s, want %s", b, tt.in)
			}
		})
	}
}

func TestOverlaps(t *testing.T) {
	b := func(s string) Block {
		x, err := ParseBlock(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"10.0.0.1+4", "10.0.0.4+1", true},
		{"10.0.0.1+4", "10.0.0.5+1", false},
		{"10.0.0.5+1", "10.0.0.1+4", false},
		{"10.0.0.1+1", "10.0.0.1+1", true},
	} {
		if got := b(tt.a).Overlaps(b(tt.b)); got != tt.want {
			t.Errorf("%s overlaps %s = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestParseRoute(t *testing.T) {
	r, err := ParseRoute("10.244.0.7/24=172.18.0.2")
	if err != nil || r.String() != "10.244.0.0/24=172.18.0.2" {
		t.Fatalf("got %v, %v", r, err)
	}
	for _, bad := range []string{"10.244.0.0/24", "10.244.0.0/24=node", "x=172.18.0.2"} {
		if _, err := ParseRoute(bad); err == nil {
			t.Errorf("ParseRoute(%q) succeeded", bad)
		}
	}
}

func TestNatRules(t *testing.T) {
	own := netip.MustParseAddr("172.18.0.5")
	got := NatRules(own, 15001, []netip.AddrPort{
		netip.MustParseAddrPort("172.18.255.254:10250"),
		netip.MustParseAddrPort("10.244.1.2:9376"),
		netip.MustParseAddrPort("172.18.0.5:80"), // the gateway's own: never redirected
		netip.MustParseAddrPort("[fd00::1]:80"),  // IPv6: not relayed
	})
	want := `*nat
:WINK-GATEWAY - [0:0]
-A WINK-GATEWAY -d 172.18.0.5/32 -j RETURN
-A WINK-GATEWAY -d 172.18.255.254/32 -p tcp -m tcp --dport 10250 -j REDIRECT --to-ports 15001
-A WINK-GATEWAY -d 10.244.1.2/32 -p tcp -m tcp --dport 9376 -j REDIRECT --to-ports 15001
COMMIT
`
	if got != want {
		t.Errorf("NatRules:\n%s\nwant:\n%s", got, want)
	}
}
