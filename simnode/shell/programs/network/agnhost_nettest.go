package network

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/simnode/agnhost"
	"wink.dev/wink/simnode/shell/process"
)

// nettestContactOthers is agnhost nettest's contactOthers
// (test/images/agnhost/nettest/nettest.go, v1.35.4), on the process's
// clock: the in-cluster client asks the apiserver for its version until it
// answers, then for the Endpoints of --service until they have --peers
// addresses (5 s apart, for at most 5 minutes each), then 15 times, 5 s
// apart, POSTs {"Dest", "Source": hostname} to every endpoint's /write and
// counts the hostname each answers in Sent; then /status says pass or fail
// (issue 21; row E, H1). A fatal error (no in-cluster config, no apiserver
// in 5 minutes) is returned as log.Fatalf's message: the program exits 1.
func nettestContactOthers(p *process.Proc, s *agnhost.NettestState, service, namespace string, peers int) (fatal string) {
	sleepTime := max(5*time.Second, time.Duration(peers/10)*time.Second)
	timeout := max(5*time.Minute, time.Duration(peers)*time.Second)
	defer s.DoneContactingPeers()
	c, err := inClusterClient(p)
	if err != nil {
		return fmt.Sprintf("Unable to create config; error: %v\n", err)
	}
	start := p.Now()
	for {
		var body []byte
		if body, err = c.get("/version"); err == nil {
			logf(p, "Server version: %s\n", strings.TrimSpace(string(body)))
			break
		}
		logf(p, "Unable to get server version: %v; retrying.\n", err)
		if !p.Sleep(time.Second) || !p.Sleep(sleepTime) {
			return ""
		}
		if p.Now().Sub(start) >= timeout {
			return fmt.Sprintf("Unable to contact Kubernetes: %v\n", err)
		}
	}
	endpoints := func() []string {
		body, err := c.get("/api/v1/namespaces/" + namespace + "/endpoints/" + service)
		if err != nil {
			s.Logf("Unable to read the endpoints for %v/%v: %v.", namespace, service, err)
			return nil
		}
		var ep struct {
			Subsets []struct {
				Addresses []struct{ IP string }
				Ports     []struct{ Port int }
			}
		}
		if err := json.Unmarshal(body, &ep); err != nil {
			s.Logf("Unable to read the endpoints for %v/%v: %v.", namespace, service, err)
			return nil
		}
		set := map[string]bool{}
		for _, ss := range ep.Subsets {
			for _, a := range ss.Addresses {
				for _, pt := range ss.Ports {
					set["http://"+net.JoinHostPort(a.IP, strconv.Itoa(pt.Port))] = true
				}
			}
		}
		out := make([]string, 0, len(set))
		for e := range set {
			out = append(out, e)
		}
		sort.Strings(out)
		return out
	}
	for start := p.Now(); p.Now().Sub(start) < timeout; {
		eps := endpoints()
		if len(eps) >= peers {
			break
		}
		s.Logf("%v/%v has %v endpoints (%v), which is less than %v as expected. Waiting for all endpoints to come up.", namespace, service, len(eps), eps, peers)
		if !p.Sleep(sleepTime) {
			return ""
		}
	}
	for range 15 {
		for _, e := range endpoints() {
			s.Logf("Attempting to contact %s", e)
			nettestContactSingle(p, s, e)
			if p.Done() {
				return ""
			}
		}
		if !p.Sleep(sleepTime) {
			return ""
		}
	}
	return ""
}

// nettestContactSingle is contactSingle: POST /write, count the answer's
// hostname.
func nettestContactSingle(p *process.Proc, s *agnhost.NettestState, e string) {
	body, _ := json.Marshal(map[string]string{"Dest": e, "Source": s.Hostname})
	resp, err := process.SendHTTP(p.Ctx, p.Net(), "POST", e+"/write", body, false)
	if err != nil {
		s.Logf("Warning: unable to contact the endpoint %q: %v", e, err)
		return
	}
	var wr struct{ Hostname string }
	if err := json.Unmarshal(bytes.TrimSpace(resp.Body), &wr); err != nil {
		s.Logf("Warning: unable to unmarshal response (%v) from '%v': '%v'", string(resp.Body), e, err)
		return
	}
	s.SentTo(wr.Hostname)
}

// inCluster is rest.InClusterConfig's client: the kubernetes Service from
// the environment, the service account's token and CA.
type inCluster struct {
	p      *process.Proc
	base   string
	bearer string
	ca     []byte
}

func inClusterClient(p *process.Proc) (*inCluster, error) {
	host, _ := p.Vars.Get("KUBERNETES_SERVICE_HOST")
	port, _ := p.Vars.Get("KUBERNETES_SERVICE_PORT")
	if host == "" || port == "" {
		return nil, fmt.Errorf("unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined")
	}
	token, err := p.ReadFile(inClusterDir + "token")
	if err != nil {
		return nil, fmt.Errorf("open %stoken: %s", inClusterDir, process.PosixFileError(err, false))
	}
	ca, _ := p.ReadFile(inClusterDir + "ca.crt")
	return &inCluster{p: p, base: "https://" + net.JoinHostPort(host, port), bearer: strings.TrimSpace(string(token)), ca: ca}, nil
}

// get is a GET of path; an answer other than 200 is an error.
func (c *inCluster) get(path string) ([]byte, error) {
	hc, ok := c.p.Net().(process.HTTPClient)
	if !ok {
		return nil, fmt.Errorf("Get %q: dial tcp: no network", c.base+path)
	}
	resp, err := hc.Do(c.p.Ctx, &process.HTTPRequest{Method: "GET", URL: c.base + path,
		Header: map[string]string{"Authorization": "Bearer " + c.bearer, "Accept": "application/json"}, RootCAs: c.ca})
	if err != nil {
		return nil, fmt.Errorf("Get %q: %v", c.base+path, err)
	}
	if resp.Status != 200 {
		return nil, fmt.Errorf("the server returned %d %s", resp.Status, httpStatusText(resp.Status))
	}
	return resp.Body, nil
}
