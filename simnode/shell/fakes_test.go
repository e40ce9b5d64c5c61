package shell

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net/netip"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// memFS is an in-memory container file system with read-only mounts.
type memFS struct {
	mu       sync.Mutex
	win      bool
	files    map[string][]byte // key: normalised path
	names    map[string]string // key → path as created
	dirs     map[string]bool
	links    map[string]string // key → target of a symbolic link or junction
	junction map[string]bool   // key → the link is a Windows junction
	dacls    map[string]process.DACL
	ro       []string // read-only mount points
}

func newMemFS(win bool) *memFS {
	m := &memFS{win: win, files: map[string][]byte{}, names: map[string]string{}, dirs: map[string]bool{}, links: map[string]string{}, junction: map[string]bool{}, dacls: map[string]process.DACL{}}
	if win {
		m.dirs[m.key(`C:\`)] = true
		m.names[m.key(`C:\`)] = `C:\`
	} else {
		m.dirs["/"] = true
		m.names["/"] = "/"
	}
	return m
}

func (m *memFS) key(p string) string {
	if m.win {
		return strings.ToLower(strings.TrimRight(p, `\`))
	}
	if p != "/" {
		p = strings.TrimRight(p, "/")
	}
	return p
}

func (m *memFS) sep() string {
	if m.win {
		return `\`
	}
	return "/"
}

func (m *memFS) parent(p string) string {
	i := strings.LastIndex(p, m.sep())
	if i < 0 {
		return ""
	}
	if m.win && i == 2 {
		return p[:3]
	}
	if !m.win && i == 0 {
		return "/"
	}
	return p[:i]
}

func (m *memFS) mkdirAll(p string) {
	for p != "" {
		k := m.key(p)
		if m.dirs[k] {
			return
		}
		m.dirs[k] = true
		m.names[k] = p
		next := m.parent(p)
		if next == p {
			return
		}
		p = next
	}
}

// add creates a file (and its directories) regardless of mounts.
func (m *memFS) add(p, content string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mkdirAll(m.parent(p))
	m.files[m.key(p)] = []byte(content)
	m.names[m.key(p)] = p
}

func (m *memFS) mkdir(p string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mkdirAll(p)
}

func (m *memFS) readOnly(p string) {
	m.mkdir(p)
	m.ro = append(m.ro, m.key(p))
}

func (m *memFS) get(p string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[m.key(p)]
	return string(b), ok
}

func (m *memFS) ReadFile(p string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p = m.follow(p)
	if b, ok := m.files[m.key(p)]; ok {
		return append([]byte{}, b...), nil
	}
	if m.dirs[m.key(p)] {
		return nil, &fs.PathError{Op: "read", Path: p, Err: errors.New("is a directory")}
	}
	return nil, fs.ErrNotExist
}

func (m *memFS) WriteFile(p string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p = m.follow(p)
	k := m.key(p)
	for _, r := range m.ro {
		if k == r || strings.HasPrefix(k, r+m.sep()) {
			return fs.ErrPermission
		}
	}
	if m.dirs[k] {
		return fs.ErrPermission
	}
	if !m.dirs[m.key(m.parent(p))] {
		return fs.ErrNotExist
	}
	m.files[k] = append([]byte{}, data...)
	m.names[k] = p
	return nil
}

func (m *memFS) Remove(p string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.key(p)
	for _, r := range m.ro {
		if k == r || strings.HasPrefix(k, r+m.sep()) {
			return fs.ErrPermission
		}
	}
	if _, ok := m.links[k]; ok {
		delete(m.links, k)
		delete(m.junction, k)
		return nil
	}
	_, file := m.files[k]
	if !file && !m.dirs[k] {
		return fs.ErrNotExist
	}
	for ck := range m.files {
		if ck == k || strings.HasPrefix(ck, k+m.sep()) {
			delete(m.files, ck)
		}
	}
	for ck := range m.dirs {
		if ck == k || strings.HasPrefix(ck, k+m.sep()) {
			delete(m.dirs, ck)
		}
	}
	return nil
}

// Symlink implements process.Symlinks.
func (m *memFS) Symlink(target, link string) error {
	return m.link(target, link, false)
}

// Junction implements process.Junctions.
func (m *memFS) Junction(target, link string) error {
	return m.link(target, link, true)
}

func (m *memFS) link(target, link string, junction bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.key(link)
	if _, ok := m.files[k]; ok || m.dirs[k] || m.links[k] != "" {
		return fs.ErrExist
	}
	for _, r := range m.ro {
		if strings.HasPrefix(k, r+m.sep()) {
			return fs.ErrPermission
		}
	}
	if !m.dirs[m.key(m.follow(m.parent(link)))] {
		return fs.ErrNotExist
	}
	m.links[k] = target
	m.junction[k] = junction
	m.names[k] = link
	return nil
}

// Readlink implements process.Symlinks.
func (m *memFS) Readlink(link string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.key(m.clean(m.follow(m.parent(link)) + m.sep() + m.base(link)))
	if t, ok := m.links[k]; ok {
		return t, nil
	}
	if _, ok := m.files[k]; ok || m.dirs[k] {
		return "", fs.ErrInvalid
	}
	return "", fs.ErrNotExist
}

// Stat implements process.Symlinks: what p leads to.
func (m *memFS) Stat(p string) (fs.FileInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p = m.follow(p)
	if b, ok := m.files[m.key(p)]; ok {
		return memInfo{name: m.base(p), size: int64(len(b))}, nil
	}
	if m.dirs[m.key(p)] {
		return memInfo{name: m.base(p), dir: true}, nil
	}
	return nil, fs.ErrNotExist
}

// Lstat implements process.Symlinks: a link is itself.
func (m *memFS) Lstat(p string) (fs.FileInfo, error) {
	if t, err := m.Readlink(p); err == nil {
		m.mu.Lock()
		defer m.mu.Unlock()
		return memInfo{name: m.base(p), size: int64(len(t)), link: true, junction: m.junction[m.key(m.clean(m.follow(m.parent(p))+m.sep()+m.base(p)))]}, nil
	}
	return m.Stat(p)
}

// follow resolves the symbolic links and junctions in path p (at most 40,
// as Linux before ELOOP): a Windows target may be absolute (C:\x), rooted
// on the link's drive (\x) or relative to the link's directory, with `\`
// or `/`.
func (m *memFS) follow(p string) string {
	if len(m.links) == 0 {
		return p
	}
	p = m.clean(p)
	for hops := 0; hops < 40; hops++ {
		changed := false
		for q := p; ; q = m.parent(q) {
			if t, ok := m.links[m.key(q)]; ok {
				p = m.clean(m.target(q, t) + m.sep() + p[len(q):])
				changed = true
				break
			}
			if up := m.parent(q); up == q || up == "" {
				break
			}
		}
		if !changed {
			return p
		}
	}
	return p
}

// target is where the link at q pointing at t leads.
func (m *memFS) target(q, t string) string {
	if !m.win {
		if !strings.HasPrefix(t, "/") {
			t = path.Dir(q) + "/" + t
		}
		return t
	}
	t = strings.ReplaceAll(t, "/", `\`)
	switch {
	case len(t) >= 2 && t[1] == ':':
		return t
	case strings.HasPrefix(t, `\`):
		return q[:2] + t
	}
	return m.parent(q) + `\` + t
}

// clean folds `.`, `..` and doubled separators of an absolute path.
func (m *memFS) clean(p string) string {
	if !m.win {
		return path.Clean(p)
	}
	if len(p) < 3 || p[1] != ':' {
		return p
	}
	return process.WinClean(p)
}

// base is the last element of p.
func (m *memFS) base(p string) string { return p[strings.LastIndex(p, m.sep())+1:] }

// DACL implements process.ACLs.
func (m *memFS) DACL(p string) (process.DACL, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.key(m.follow(p))
	if _, ok := m.files[k]; !ok && !m.dirs[k] {
		return process.DACL{}, fs.ErrNotExist
	}
	return m.dacls[k], nil
}

// SetDACL implements process.ACLs.
func (m *memFS) SetDACL(p string, d process.DACL) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.key(m.follow(p))
	for _, r := range m.ro {
		if k == r || strings.HasPrefix(k, r+m.sep()) {
			return fs.ErrPermission
		}
	}
	if _, ok := m.files[k]; !ok && !m.dirs[k] {
		return fs.ErrNotExist
	}
	m.dacls[k] = d
	return nil
}

// MkdirAll implements process.Mkdirer.
func (m *memFS) MkdirAll(p string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p = m.follow(p)
	k := m.key(p)
	if m.dirs[k] {
		return nil
	}
	for _, r := range m.ro {
		if k == r || strings.HasPrefix(k, r+m.sep()) {
			return fs.ErrPermission
		}
	}
	for q := p; q != ""; q = m.parent(q) {
		if _, file := m.files[m.key(q)]; file {
			return fs.ErrExist
		}
		if m.parent(q) == q {
			break
		}
	}
	m.mkdirAll(p)
	return nil
}

type memInfo struct {
	name     string
	size     int64
	dir      bool
	link     bool
	junction bool
}

func (i memInfo) Name() string { return i.name }

func (i memInfo) Size() int64 { return i.size }

func (i memInfo) Mode() fs.FileMode {
	if i.junction {
		return fs.ModeIrregular | 0o777
	}
	if i.link {
		return fs.ModeSymlink | 0o777
	}
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}

func (i memInfo) ModTime() time.Time { return fakeEpoch }

func (i memInfo) IsDir() bool { return i.dir }

func (i memInfo) Sys() any { return nil }

func (m *memFS) ReadDir(p string) ([]fs.DirEntry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p = m.follow(p)
	k := m.key(p)
	if !m.dirs[k] {
		if _, ok := m.files[k]; ok {
			return nil, &fs.PathError{Op: "readdir", Path: p, Err: errors.New("not a directory")}
		}
		return nil, fs.ErrNotExist
	}
	var out []fs.DirEntry
	child := func(ck string) (string, bool) {
		par := m.key(m.parent(m.names[ck]))
		if ck == k || par != k {
			return "", false
		}
		n := m.names[ck]
		return n[strings.LastIndex(n, m.sep())+1:], true
	}
	for ck := range m.dirs {
		if name, ok := child(ck); ok {
			out = append(out, fs.FileInfoToDirEntry(memInfo{name: name, dir: true}))
		}
	}
	for ck, b := range m.files {
		if name, ok := child(ck); ok {
			out = append(out, fs.FileInfoToDirEntry(memInfo{name: name, size: int64(len(b))}))
		}
	}
	for ck, target := range m.links {
		if name, ok := child(ck); ok {
			out = append(out, fs.FileInfoToDirEntry(memInfo{name: name, size: int64(len(target)), link: true, junction: m.junction[ck]}))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// fakeNet answers from tables configured per test.
type fakeNet struct {
	names   map[string][]netip.Addr // lower-case name → addresses
	dial    map[string]error        // "ip:port" → result; missing: ErrRefused
	open    map[string]bool         // "ip:port" listening
	ping    map[string]error        // ip → result; missing: reply
	rtt     time.Duration
	http    map[string]*HTTPResponse // "ip-or-host:port/path" or "host:port" → response
	httpErr map[string]error
	mu      sync.Mutex
	calls   []string
}

func (n *fakeNet) log(s string) {
	n.mu.Lock()
	n.calls = append(n.calls, s)
	n.mu.Unlock()
}

func (n *fakeNet) Resolve(ctx context.Context, name string) ([]netip.Addr, error) {
	n.log("resolve " + name)
	if a, ok := n.names[strings.ToLower(strings.TrimSuffix(name, "."))]; ok {
		return a, nil
	}
	return nil, ErrNameNotFound
}

func (n *fakeNet) Dial(ctx context.Context, proto string, addr netip.Addr, port int) error {
	key := addr.String() + ":" + strconv.Itoa(port)
	n.log("dial " + proto + " " + key)
	if n.open[key] {
		return nil
	}
	if err, ok := n.dial[key]; ok {
		return err
	}
	return ErrRefused
}

func (n *fakeNet) Ping(ctx context.Context, addr netip.Addr) (time.Duration, error) {
	n.log("ping " + addr.String())
	if err, ok := n.ping[addr.String()]; ok {
		return 0, err
	}
	return n.rtt, nil
}

// HTTPBody records the body sent (BodySender) and answers as HTTP.
func (n *fakeNet) HTTPBody(ctx context.Context, method, url string, body []byte, insecure bool) (*HTTPResponse, error) {
	n.log("body " + string(body))
	return n.HTTP(ctx, method, url, insecure)
}

func (n *fakeNet) HTTP(ctx context.Context, method, url string, insecure bool) (*HTTPResponse, error) {
	n.log(method + " " + url)
	_, host, port, path, _ := process.ParseURL(url)
	hp := host + ":" + strconv.Itoa(port)
	if err, ok := n.httpErr[hp]; ok {
		return nil, err
	}
	if r, ok := n.http[hp+path]; ok {
		return r, nil
	}
	if r, ok := n.http[hp]; ok {
		return r, nil
	}
	addrs, err := n.Resolve(ctx, host)
	if a, perr := netip.ParseAddr(host); perr == nil {
		addrs, err = []netip.Addr{a}, nil
	}
	if err != nil {
		return nil, err
	}
	if a, ok := process.Pick(addrs, 0); ok {
		if err := n.Dial(ctx, "tcp", a, port); err != nil {
			return nil, err
		}
	}
	return &HTTPResponse{Status: 404, Body: []byte("404 page not found\n")}, nil
}

var fakeEpoch = time.Date(2024, 4, 23, 10, 0, 0, 0, time.UTC)

// fakeClock advances on Sleep; past limit it ends the test's context, so
// endless loops end deterministically.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	limit  time.Time
	cancel context.CancelFunc
	slept  time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.slept += d
	over := c.now.After(c.limit)
	c.mu.Unlock()
	if over && c.cancel != nil {
		c.cancel()
		return context.Canceled
	}
	return ctx.Err()
}

type fixture struct {
	env   *Env
	fs    *memFS
	net   *fakeNet
	clock *fakeClock
}

var (
	podIP     = netip.MustParseAddr("10.244.1.5")
	peerIP    = netip.MustParseAddr("10.244.1.6")
	kubeDNS   = netip.MustParseAddr("10.96.0.10")
	kubeAPI   = netip.MustParseAddr("10.96.0.1")
	webSvc    = netip.MustParseAddr("10.96.0.20")
	blackhole = netip.MustParseAddr("10.0.0.99")
	google    = netip.MustParseAddr("8.8.8.8")
)

// newFixture is a pod in namespace default on a Windows or Linux node.
func newFixture(os OS) *fixture {
	win := os == Windows
	f := &fixture{fs: newMemFS(win), clock: &fakeClock{now: fakeEpoch, limit: fakeEpoch.Add(24 * time.Hour)}}
	f.net = &fakeNet{
		names: map[string][]netip.Addr{
			// row H2: Windows resolves the bare service name and the FQDN
			"kubernetes":                           {kubeAPI},
			"kubernetes.default.svc.cluster.local": {kubeAPI},
			"web":                                  {webSvc},
			"web.default.svc.cluster.local":        {webSvc},
			"example.com":                          {netip.MustParseAddr("93.184.216.34")},
			"k8sgmsa.lan":                          {netip.MustParseAddr("10.1.0.4")},
		},
		open: map[string]bool{"10.96.0.1:443": true, "10.244.1.6:80": true, "10.96.0.20:80": true, "10.244.1.5:80": true, "93.184.216.34:443": true},
		dial: map[string]error{"10.0.0.99:80": ErrTimeout, "10.244.9.9:80": ErrUnreachable},
		ping: map[string]error{"8.8.8.8": ErrTimeout, "93.184.216.34": ErrTimeout},
		http: map[string]*HTTPResponse{
			"10.244.1.6:80":      {Status: 200, Headers: map[string]string{"Content-Type": "text/plain"}, Body: []byte("hello")},
			"10.96.0.20:80":      {Status: 200, Headers: map[string]string{"Content-Type": "text/plain"}, Body: []byte("web-1")},
			"web:80":             {Status: 200, Headers: map[string]string{"Content-Type": "text/plain"}, Body: []byte("web-1")},
			"10.96.0.20:80/nope": {Status: 404, Body: []byte("404 page not found\n")},
			"kubernetes:443":     {Status: 403, Headers: map[string]string{"Content-Type": "application/json"}, Body: []byte(`{"kind":"Status","code":403}`)},
			"10.96.0.1:443":      {Status: 200, Body: []byte("ok")},
		},
		httpErr: map[string]error{"10.0.0.99:80": ErrTimeout},
	}
	f.env = &Env{
		OS:       os,
		Hostname: "win-pod-1",
		Vars:     map[string]string{"GREETING": "hello world"},
		Files:    f.fs,
		Net:      f.net,
		Interfaces: NetConfig{
			IP: podIP, Gateway: netip.MustParseAddr("10.244.1.1"), PrefixLen: 24,
			DNSServers:  []netip.Addr{kubeDNS},
			DNSSuffixes: []string{"default.svc.cluster.local"},
			Ndots:       5,
		},
		Now:   f.clock.Now,
		Sleep: f.clock.Sleep,
	}
	if win {
		f.fs.readOnly(`C:\test-volume`)
		f.fs.add(`C:\test-volume\readme.txt`, "read only\r\n")
		f.fs.mkdir(`C:\rw`)
		f.fs.add(`C:\data\hello.txt`, "hello from a configmap\r\n")
		f.fs.mkdir(`C:\Windows\System32`)
	} else {
		f.env.Hostname = "linux-pod-1"
		f.env.Interfaces.DNSSuffixes = []string{"default.svc.cluster.local", "svc.cluster.local", "cluster.local"}
		f.fs.readOnly("/ro")
		f.fs.add("/ro/readme.txt", "read only\n")
		f.fs.add("/data/hello.txt", "hello from a configmap\n")
		f.fs.mkdir("/tmp")
	}
	return f
}

type result struct {
	stdout, stderr string
	code           int
}

// run runs argv with the fixture; the fake clock ends endless commands
// after a simulated day, a real 5 s timeout guards against hangs.
func (f *fixture) run(t testing.TB, argv []string, stdin string) result {
	t.Helper()
	return f.runFor(t, argv, stdin, 5*time.Second)
}

// runCtx runs argv until it returns or ctx ends.
func (f *fixture) runCtx(ctx context.Context, argv []string) result {
	var out, errb bytes.Buffer
	code := Run(ctx, f.env, argv, strings.NewReader(""), &out, &errb)
	return result{out.String(), errb.String(), code}
}

func (f *fixture) runFor(t testing.TB, argv []string, stdin string, real time.Duration) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), real)
	defer cancel()
	f.clock.cancel = cancel
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- Run(ctx, f.env, argv, strings.NewReader(stdin), &out, &errb) }()
	select {
	case code := <-done:
		return result{out.String(), errb.String(), code}
	case <-time.After(real + 5*time.Second):
		t.Fatalf("%q did not return after its context ended", argv)
		return result{}
	}
}
