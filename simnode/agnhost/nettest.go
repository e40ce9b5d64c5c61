package agnhost

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
)

// agnhost nettest (test/images/agnhost/nettest, v1.35.4): a web server
// whose state other pods change. POST /write with {"Source": S} counts S
// in Received; GET /read answers the state as indented JSON; /status says
// pass, running or fail; /quit ends the program. Upstream's PreStop spec
// (test/e2e/node/pre_stop.go) posts {"Source": "prestop"} from a preStop
// hook and reads Received["prestop"] through pods/proxy. Row E (the e2e
// images' programs; kubelet versions: all). Its peer search (contactOthers:
// the Endpoints of --service through the in-cluster client, a POST /write
// to each) is the program's own (simnode/shell/programs), reporting here
// through Sent, Logf and DoneContactingPeers (issue 21).

// NettestState is nettest's State: the JSON /read answers.
type NettestState struct {
	Hostname             string
	Sent                 map[string]int
	Received             map[string]int
	Errors               []string
	Log                  []string
	StillContactingPeers bool

	mu    sync.Mutex
	peers int
}

type nettestWrite struct {
	Source string
	Dest   string
}

type nettestWriteResp struct {
	Hostname string
}

// NettestHandler is nettest's server for a container whose hostname is
// hostname, expecting peers peers (--peers, default 8); quit is called on
// /quit (the program exits 0).
func NettestHandler(hostname string, peers int, quit func()) http.Handler {
	return NewNettestState(hostname, peers).Handler(quit)
}

// NewNettestState is a nettest's state before it contacts its peers.
func NewNettestState(hostname string, peers int) *NettestState {
	return &NettestState{Hostname: hostname, StillContactingPeers: true, peers: peers}
}

// SentTo counts a successful /write to the peer whose hostname answered.
func (s *NettestState) SentTo(hostname string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Sent == nil {
		s.Sent = map[string]int{}
	}
	s.Sent[hostname]++
}

// Logf adds a line to the state's Log (its last 500 lines).
func (s *NettestState) Logf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Log = append(s.Log, fmt.Sprintf(format, args...))
	if len(s.Log) > 500 {
		s.Log = s.Log[1:]
	}
}

// DoneContactingPeers ends the peer search: /status is then pass or fail.
func (s *NettestState) DoneContactingPeers() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.StillContactingPeers = false
}

// Handler is the state's web server; quit is called on /quit.
func (s *NettestState) Handler(quit func()) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/quit", func(http.ResponseWriter, *http.Request) { quit() })
	mux.HandleFunc("/read", s.read)
	mux.HandleFunc("/write", s.write)
	mux.HandleFunc("/status", s.status)
	return mux
}

func (s *NettestState) appendErr(err error) {
	if err != nil {
		s.Errors = append(s.Errors, err.Error())
	}
}

func (s *NettestState) read(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
	b, err := json.MarshalIndent(s, "", "\t")
	s.appendErr(err)
	_, err = w.Write(b)
	s.appendErr(err)
}

func (s *NettestState) write(w http.ResponseWriter, r *http.Request) {
	defer r.Body.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
	var wp nettestWrite
	s.appendErr(json.NewDecoder(r.Body).Decode(&wp))
	if wp.Source == "" {
		s.appendErr(fmt.Errorf("%v: Got request with no source", s.Hostname))
	} else {
		if s.Received == nil {
			s.Received = map[string]int{}
		}
		s.Received[wp.Source]++
	}
	s.appendErr(json.NewEncoder(w).Encode(&nettestWriteResp{Hostname: s.Hostname}))
}

func (s *NettestState) status(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case len(s.Sent) >= s.peers && len(s.Received) >= s.peers:
		fmt.Fprint(w, "pass")
	case s.StillContactingPeers:
		fmt.Fprint(w, "running")
	default:
		fmt.Fprint(w, "fail")
	}
}
