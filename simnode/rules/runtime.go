package rules

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"text/template"
	"time"

	"sigs.k8s.io/yaml"
	"wink.dev/wink/simnode/facts"
)

// Backoff is a kubelet back-off (client-go util/flowcontrol.Backoff): the
// first delay, the maximum, and the quiet time after which the next failure
// starts again from the first delay.
type Backoff struct {
	Cites   []string `json:"cites"`
	Initial Duration `json:"initial"`
	Max     Duration `json:"max"`
	Reset   Duration `json:"reset"`
}

// Duration is a time.Duration written as "10s" in the tables.
type Duration struct{ time.Duration }

// UnmarshalJSON implements json.Unmarshaler.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := yaml.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// Users are the accounts a simulated Windows container can run as (B8-B10).
type Users struct {
	Cites       []string `json:"cites"`
	DefaultUser string   `json:"defaultUser"`
	RootUser    string   `json:"rootUser"`
	Known       []string `json:"known"`
	HostProcess []string `json:"hostProcess"`
	NodeLabel   string   `json:"nodeLabel"`
}

// StartError is how a container that could not start terminates (B9).
type StartError struct {
	Cites           []string `json:"cites"`
	Reason          string   `json:"reason"`
	ExitCode        int32    `json:"exitCode"`
	UnknownUser     string   `json:"unknownUser"`
	NotFoundWindows string   `json:"notFoundWindows"`
	NotFoundLinux   string   `json:"notFoundLinux"`
}

// RuntimeRules are runtime.yaml.
type RuntimeRules struct {
	CrashLoopBackOff          Backoff             `json:"crashLoopBackOff"`
	ImagePullBackOff          Backoff             `json:"imagePullBackOff"`
	SyncRetry                 Duration            `json:"syncRetry"`
	CrashLoopMessage          string              `json:"crashLoopMessage"`
	PullBackoffMessage        string              `json:"pullBackoffMessage"`
	Users                     Users               `json:"users"`
	NonRootUserNameMessage    string              `json:"nonRootUserNameMessage"`
	NonRootImageUserMessage   string              `json:"nonRootImageUserMessage"`
	NonRootLinuxUIDMessage    string              `json:"nonRootLinuxUIDMessage"`
	NonRootLinuxImageMessage  string              `json:"nonRootLinuxImageMessage"`
	SandboxUnknownUserMessage string              `json:"sandboxUnknownUserMessage"`
	StartError                StartError          `json:"startError"`
	PullFailureResync         Duration            `json:"pullFailureResync"`
	ProbeRefused              map[facts.OS]string `json:"probeRefused"`
	HTTPProbeError            string              `json:"httpProbeError"`
	HTTPProbeStatus           string              `json:"httpProbeStatus"`
	KillPod                   KillPod             `json:"killPod"`

	// Pod lifecycle details of the kubelet (podlife.go, row B13).
	TerminationMessage TerminationMessage `json:"terminationMessage"`
	ActiveDeadline     ActiveDeadline     `json:"activeDeadline"`

	tmpl map[string]*template.Template
}

// KillPod are the grace periods of a pod the kubelet kills on its own
// (eviction B6, node shutdown B15).
type KillPod struct {
	Cites []string `json:"cites"`
	// MinimumGracePeriod is the least time a container gets between the
	// stop signal and the kill, whatever the override.
	MinimumGracePeriod Duration `json:"minimumGracePeriod"`
	// EvictionGracePeriod is the override of a hard eviction.
	EvictionGracePeriod Duration `json:"evictionGracePeriod"`
	// StopExitCode is, per OS, the exit code of a container that ends on
	// the stop signal of such a kill.
	StopExitCode map[facts.OS]int32 `json:"stopExitCode"`
}

// MessageData is what runtime.yaml message templates see.
type MessageData struct {
	Container, Pod, Image, User, ID, Program, Backoff, Reason, Message string
}

func (r *RuntimeRules) compile() error {
	for name, b := range map[string]Backoff{"crashLoopBackOff": r.CrashLoopBackOff, "imagePullBackOff": r.ImagePullBackOff} {
		if err := checkCites(name, b.Cites); err != nil {
			return err
		}
		if b.Initial.Duration <= 0 || b.Max.Duration < b.Initial.Duration || b.Reset.Duration <= 0 {
			return fmt.Errorf("%s: need 0 < initial <= max and reset > 0", name)
		}
	}
	if r.SyncRetry.Duration <= 0 {
		return fmt.Errorf("syncRetry must be positive")
	}
	if err := checkCites("users", r.Users.Cites); err != nil {
		return err
	}
	if r.Users.DefaultUser == "" || r.Users.RootUser == "" {
		return fmt.Errorf("users: defaultUser and rootUser are required")
	}
	if err := checkCites("killPod", r.KillPod.Cites); err != nil {
		return err
	}
	if r.KillPod.MinimumGracePeriod.Duration <= 0 || r.KillPod.EvictionGracePeriod.Duration <= 0 {
		return fmt.Errorf("killPod: minimumGracePeriod and evictionGracePeriod must be positive")
	}
	for _, os := range facts.OSes {
		if _, ok := r.KillPod.StopExitCode[os]; !ok {
			return fmt.Errorf("killPod: stopExitCode.%s is required", os)
		}
	}
	if err := checkCites("startError", r.StartError.Cites); err != nil {
		return err
	}
	if r.StartError.Reason == "" {
		return fmt.Errorf("startError: reason is required")
	}
	r.tmpl = map[string]*template.Template{}
	sample := MessageData{Container: "c", Pod: "p_ns(u)", Image: "i", User: "u", ID: "id", Program: "p", Backoff: "10s", Reason: "r", Message: "m"}
	for name, text := range map[string]string{
		"crashLoopMessage": r.CrashLoopMessage, "pullBackoffMessage": r.PullBackoffMessage,
		"nonRootUserNameMessage": r.NonRootUserNameMessage, "nonRootImageUserMessage": r.NonRootImageUserMessage,
		"nonRootLinuxUIDMessage": r.NonRootLinuxUIDMessage, "nonRootLinuxImageMessage": r.NonRootLinuxImageMessage,
		"sandboxUnknownUserMessage": r.SandboxUnknownUserMessage, "startError.unknownUser": r.StartError.UnknownUser,
		"startError.notFoundWindows": r.StartError.NotFoundWindows, "startError.notFoundLinux": r.StartError.NotFoundLinux,
		"probeRefused.windows": r.ProbeRefused[facts.Windows], "probeRefused.linux": r.ProbeRefused[facts.Linux],
		"httpProbeError": r.HTTPProbeError, "httpProbeStatus": r.HTTPProbeStatus,
	} {
		if text == "" {
			return fmt.Errorf("%s is required", name)
		}
		t, err := template.New(name).Option("missingkey=error").Parse(text)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := t.Execute(&bytes.Buffer{}, sample); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		r.tmpl[name] = t
	}
	if err := r.TerminationMessage.check(); err != nil {
		return err
	}
	if err := r.ActiveDeadline.check(); err != nil {
		return err
	}
	return nil
}

// Message renders the runtime.yaml message name (e.g. "crashLoopMessage",
// "startError.unknownUser") with d.
func (r *RuntimeRules) Message(name string, d MessageData) string {
	t, ok := r.tmpl[name]
	if !ok {
		panic(fmt.Sprintf("rules: unknown runtime message %q", name))
	}
	var b bytes.Buffer
	_ = t.Execute(&b, d) // checked in compile
	return b.String()
}

// KnownUser reports whether a container may run as user (case-insensitive):
// the image accounts, for HostProcess containers the host accounts, and
// the users a node adds through its label (B9, B10).
func (r *RuntimeRules) KnownUser(user string, hostProcess bool, nodeLabels map[string]string) bool {
	list := append([]string(nil), r.Users.Known...)
	if hostProcess {
		list = append(list, r.Users.HostProcess...)
	}
	if r.Users.NodeLabel != "" {
		for _, u := range strings.Split(nodeLabels[r.Users.NodeLabel], ",") {
			if u = strings.TrimSpace(u); u != "" {
				list = append(list, u)
			}
		}
	}
	for _, k := range list {
		if strings.EqualFold(k, user) {
			return true
		}
	}
	return false
}

// HTTPMatch selects the containers an HTTPResponse applies to.
type HTTPMatch struct {
	Image string `json:"image,omitempty"`
	Argv  string `json:"argv,omitempty"`
	Port  int    `json:"port,omitempty"`
	Path  string `json:"path,omitempty"`
}

// HTTPResponse is a simulated server's answer (http.yaml).
type HTTPResponse struct {
	ID      string            `json:"id"`
	Cites   []string          `json:"cites"`
	Match   HTTPMatch         `json:"match"`
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body"`
	Log     []string          `json:"log,omitempty"`
	// Location is the Location header of a redirect, a template.
	Location string `json:"location,omitempty"`
	// Unhealthy: once the container has run longer than After, the server
	// answers Status and Body of Unhealthy instead (agnhost liveness:
	// /healthz fails after 10 s).
	Unhealthy *HTTPUnhealthy `json:"unhealthy,omitempty"`

	body     *template.Template
	log      []*template.Template
	location *template.Template
}

// HTTPUnhealthy is a response's answer after a while (HTTPResponse).
type HTTPUnhealthy struct {
	After  Duration `json:"after"`
	Status int      `json:"status"`
	Body   string   `json:"body"`

	body *template.Template
}

// HTTPData is what http.yaml templates see.
type HTTPData struct {
	PodName, PodIP, Namespace, Container, Path, URL, ClientIP, Now string
	Count                                                          int
	// Uptime is how long the container has been running, in seconds.
	Uptime float64
}

// RedirectTo is the Location h answers for d; "" when h is no redirect.
func (h *HTTPResponse) RedirectTo(d HTTPData) string {
	if h.location == nil {
		return ""
	}
	var b bytes.Buffer
	_ = h.location.Execute(&b, d)
	return b.String()
}

// Answer is h's status and body for d: Unhealthy's once the container has
// run longer than its After.
func (h *HTTPResponse) Answer(d HTTPData) (status int, body string, logLines []string) {
	body, logLines = h.Render(d)
	if u := h.Unhealthy; u != nil && d.Uptime > u.After.Seconds() {
		var b bytes.Buffer
		_ = u.body.Execute(&b, d)
		return u.Status, b.String(), logLines
	}
	return h.Status, body, logLines
}

var validHTTPID = regexp.MustCompile(`^[a-z0-9-]+$`)

func compileHTTP(list []HTTPResponse) error {
	sample := HTTPData{PodName: "p", PodIP: "10.0.0.1", Namespace: "ns", Container: "c", Path: "/", URL: "http://x/", ClientIP: "10.0.0.2", Now: "now", Count: 1}
	for i := range list {
		h := &list[i]
		what := fmt.Sprintf("httpResponses[%d] %s", i, h.ID)
		if !validHTTPID.MatchString(h.ID) {
			return fmt.Errorf("%s: bad id", what)
		}
		if err := checkCites(what, h.Cites); err != nil {
			return err
		}
		if h.Match == (HTTPMatch{}) {
			return fmt.Errorf("%s: empty match", what)
		}
		if h.Status == 0 {
			h.Status = 200
		}
		t, err := template.New(h.ID).Option("missingkey=error").Parse(h.Body)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if err := t.Execute(&bytes.Buffer{}, sample); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		h.body = t
		h.location = nil
		if h.Location != "" {
			if h.location, err = template.New(h.ID + ".location").Option("missingkey=error").Parse(h.Location); err != nil {
				return fmt.Errorf("%s: location: %w", what, err)
			}
		}
		if u := h.Unhealthy; u != nil {
			if u.After.Duration <= 0 || u.Status == 0 {
				return fmt.Errorf("%s: unhealthy: want after > 0 and a status", what)
			}
			if u.body, err = template.New(h.ID + ".unhealthy").Option("missingkey=error").Parse(u.Body); err != nil {
				return fmt.Errorf("%s: unhealthy.body: %w", what, err)
			}
		}
		h.log = nil
		for j, l := range h.Log {
			lt, err := template.New(fmt.Sprintf("%s.log%d", h.ID, j)).Option("missingkey=error").Parse(l)
			if err != nil {
				return fmt.Errorf("%s: log[%d]: %w", what, j, err)
			}
			h.log = append(h.log, lt)
		}
	}
	return nil
}

// FindHTTP returns the first response whose match holds for a container
// of image running argv (joined by spaces), asked for path on port.
func (r *Rules) FindHTTP(image, argv string, port int, path string) *HTTPResponse {
	for i := range r.HTTPResponses {
		h := &r.HTTPResponses[i]
		m := h.Match
		if m.Image != "" && !strings.Contains(image, m.Image) {
			continue
		}
		if m.Argv != "" && !strings.Contains(argv, m.Argv) {
			continue
		}
		if m.Port != 0 && m.Port != port {
			continue
		}
		if m.Path != "" && !strings.HasPrefix(path, m.Path) {
			continue
		}
		return h
	}
	return nil
}

// Render returns the body and the log lines of h for d.
func (h *HTTPResponse) Render(d HTTPData) (body string, logLines []string) {
	var b bytes.Buffer
	_ = h.body.Execute(&b, d)
	for _, t := range h.log {
		var l bytes.Buffer
		_ = t.Execute(&l, d)
		logLines = append(logLines, l.String())
	}
	return b.String(), logLines
}
