package profile

import (
	"math"
	"testing"
)

func TestParseRequests(t *testing.T) {
	text := []byte(`# HELP apiserver_request_total [STABLE] Counter of apiserver requests
# TYPE apiserver_request_total counter
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="binding",verb="POST",version="v1"} 30
apiserver_request_total{code="409",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="binding",verb="POST",version="v1"} 2
apiserver_request_total{code="200",component="apiserver",dry_run="",group="events.k8s.io",resource="events",scope="resource",subresource="",verb="POST",version="v1"} 7
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="",scope="",subresource="/metrics",verb="GET",version=""} 1
apiserver_request_sli_duration_seconds_count{verb="POST",resource="pods"} 99
`)
	got, err := ParseRequests(text)
	if err != nil {
		t.Fatal(err)
	}
	want := Requests{
		{Verb: "POST", Resource: "pods", Subresource: "binding"}:   32,
		{Verb: "POST", Group: "events.k8s.io", Resource: "events"}: 7,
		{Verb: "GET", Subresource: "/metrics"}:                     1,
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%v: got %v, want %v", k, got[k], v)
		}
	}
	if w := got.Writes(); w != 39 {
		t.Errorf("Writes() = %v, want 39", w)
	}
	if keys := got.Keys(); keys[0].Path() != "pods/binding" || keys[2].Verb != "GET" {
		t.Errorf("Keys() = %v: want writes first, largest first", keys)
	}
}

func TestParseRequestsErrors(t *testing.T) {
	for _, text := range []string{
		`apiserver_request_total{verb="POST" 3`,
		`apiserver_request_total{verb="POST} 3`,
		`apiserver_request_total{verb="POST"} three`,
	} {
		if _, err := ParseRequests([]byte(text)); err == nil {
			t.Errorf("ParseRequests(%q): no error", text)
		}
	}
}

func TestRequestsSub(t *testing.T) {
	k1, k2 := RequestKey{Verb: "PATCH", Resource: "pods", Subresource: "status"}, RequestKey{Verb: "GET", Resource: "pods"}
	before := Requests{k1: 10, k2: 5}
	after := Requests{k1: 13, k2: 5, {Verb: "POST", Resource: "events"}: 2}
	got := after.Sub(before)
	if len(got) != 2 || got[k1] != 3 || got[RequestKey{Verb: "POST", Resource: "events"}] != 2 {
		t.Errorf("Sub = %v, want pods/status 3 and events 2, the GET that did not move left out", got)
	}
}

func TestParseStatCPU(t *testing.T) {
	// A command name with a space and a parenthesis: fields count after
	// the last ')'. utime 250, stime 50 ticks: 3 s.
	stat := "4242 (wink (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 12 0 1000 1000000 100"
	got, err := parseStatCPU(stat)
	if err != nil {
		t.Fatal(err)
	}
	if got != 3 {
		t.Errorf("parseStatCPU = %v, want 3", got)
	}
	if _, err := parseStatCPU("4242 (wink) S 1 2"); err == nil {
		t.Error("a short stat line: no error")
	}
}

func TestMachineBusy(t *testing.T) {
	a := parseMachine("cpu  100 0 100 700 100 0 0 0 0 0")
	b := parseMachine("cpu  200 0 200 1300 300 0 0 0 0 0")
	// busy moved 200 of 1000 ticks.
	if got := b.busySince(a); math.Abs(got-0.2) > 1e-9 {
		t.Errorf("busySince = %v, want 0.2", got)
	}
	if got := parseMachine("intr 1 2 3"); got.total != 0 {
		t.Errorf("a line that is not cpu: %v", got)
	}
}
