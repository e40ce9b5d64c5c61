package ipam

import (
	"errors"
	"testing"
)

func TestIPAM(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, a *IPAM)
	}{
		{"skips network and gateway", func(t *testing.T, a *IPAM) {
			ip, err := a.Allocate("10.244.1.0/24", "a")
			if err != nil || ip != "10.244.1.2" {
				t.Fatalf("%s %v", ip, err)
			}
		}},
		{"same owner same IP", func(t *testing.T, a *IPAM) {
			ip1, _ := a.Allocate("10.244.1.0/24", "a")
			ip2, _ := a.Allocate("10.244.1.0/24", "a")
			if ip1 != ip2 {
				t.Fatalf("%s != %s", ip1, ip2)
			}
		}},
		{"never a live IP, next-fit after release", func(t *testing.T, a *IPAM) {
			ip1, _ := a.Allocate("10.244.1.0/24", "a")
			ip2, _ := a.Allocate("10.244.1.0/24", "b")
			a.Release(ip1, "a")
			ip3, _ := a.Allocate("10.244.1.0/24", "c")
			if ip3 == ip1 || ip3 == ip2 || ip3 != "10.244.1.4" {
				t.Fatalf("got %s after %s, %s", ip3, ip1, ip2)
			}
		}},
		{"adopted IP not handed out", func(t *testing.T, a *IPAM) {
			if err := a.MarkUsed("10.244.1.2", "old"); err != nil {
				t.Fatal(err)
			}
			ip, _ := a.Allocate("10.244.1.0/24", "new")
			if ip != "10.244.1.3" {
				t.Fatalf("got %s", ip)
			}
			if err := a.MarkUsed("10.244.1.3", "other"); err == nil {
				t.Fatal("double use accepted")
			}
		}},
		{"exhaustion", func(t *testing.T, a *IPAM) {
			// /29: .0 network, .1 gateway, .7 broadcast: .2-.6 usable.
			for i, o := range []string{"a", "b", "c", "d", "e"} {
				if _, err := a.Allocate("10.0.0.0/29", o); err != nil {
					t.Fatalf("%d: %v", i, err)
				}
			}
			if _, err := a.Allocate("10.0.0.0/29", "f"); err == nil {
				t.Fatal("no exhaustion")
			}
		}},
		{"no podCIDR", func(t *testing.T, a *IPAM) {
			if _, err := a.Allocate("", "a"); !errors.Is(err, ErrNoPodCIDR) {
				t.Fatal(err)
			}
		}},
		{"ipv6", func(t *testing.T, a *IPAM) {
			ip, err := a.Allocate("fd00:10:244:1::/64", "a")
			if err != nil || ip != "fd00:10:244:1::2" {
				t.Fatalf("%s %v", ip, err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, New()) })
	}
}
