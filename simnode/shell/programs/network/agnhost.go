package network

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/simnode/agnhost"
	"wink.dev/wink/simnode/shell/process"
)

// This file is the servers containers run: the agnhost subcommands of the
// e2e test images, pause, and what Listens reports about them.

// Listener is a port a container command listens on.
type Listener struct {
	Proto string // "tcp" or "udp"
	Port  int
}

// agnhostServers are agnhost's long-running subcommands: the flag naming
// each port and its default (upstream test/images/agnhost/*).
var agnhostServers = map[string][]struct {
	proto, flag string
	port        int
}{
	"serve-hostname": {{"tcp", "--port", 9376}},
	"netexec":        {{"tcp", "--http-port", 8080}, {"udp", "--udp-port", 8081}},
	"test-webserver": {{"tcp", "--port", 80}},
	"nettest":        {{"tcp", "--port", 8080}},
	"liveness":       {{"tcp", "", 8080}},
	"fake-gitserver": {{"tcp", "", 8000}},
	"grpc-health-checking": {
		{"tcp", "--port", 5000}, {"tcp", "--http-port", 8080},
	},
	"pause": {},
	// agnhost's image carries CoreDNS as /coredns (e2e network/dns_common.go
	// generateCoreDNSServerPod); it serves DNS on 53 (issue 21, H1).
	"coredns": {{"tcp", "", 53}},
}

// Listens reports the TCP ports the command argv would listen on: agnhost
// servers (serve-hostname 9376, netexec 8080, test-webserver 80 ...), the
// docs' win-webserver PowerShell HttpListener script (fixtures/docs/
// win-webserver.yaml: `Prefixes.Add('http://*:80/')`, row S5) and `nc -l`.
func Listens(argv []string) []int {
	var ports []int
	for _, l := range Listeners(argv) {
		if l.Proto == "tcp" {
			ports = append(ports, l.Port)
		}
	}
	return ports
}

// ShutdownDelay reports how long argv keeps running after SIGTERM
// (CTRL_SHUTDOWN_EVENT on Windows) before it exits by itself with 0:
// agnhost netexec --delay-shutdown N sleeps N seconds first
// (test/images/agnhost/netexec: registerHandlers' SIGTERM handler; used by
// e2e's graceful node shutdown specs, node_shutdown.go, with 9999). Row B13
// (termination grace period; kubelet versions: all): the kubelet kills it
// when the grace period ends first.
func ShutdownDelay(argv []string) (time.Duration, bool) {
	for i, w := range argv {
		if process.ProgramName(w, true) != "netexec" || (i > 0 && process.ProgramName(argv[i-1], true) != "agnhost") {
			continue
		}
		if n, err := strconv.Atoi(parseLongFlags(argv[i+1:])["--delay-shutdown"]); err == nil && n > 0 {
			return time.Duration(n) * time.Second, true
		}
	}
	return 0, false
}

// HTTPListenerPrefix matches an HttpListener prefix of a PowerShell script.
var HTTPListenerPrefix = regexp.MustCompile(`(?i)Prefixes\.Add\(\s*['"](https?)://[^:/'"]*(?::(\d+))?/?[^'"]*['"]\s*\)`)

// Listeners is Listens with protocols (netexec's UDP port too).
func Listeners(argv []string) []Listener {
	if len(argv) == 0 {
		return nil
	}
	joined := strings.Join(argv, " ")
	if strings.Contains(joined, "System.Net.HttpListener") {
		var out []Listener
		for _, m := range HTTPListenerPrefix.FindAllStringSubmatch(joined, -1) {
			port := 80
			if strings.EqualFold(m[1], "https") {
				port = 443
			}
			if m[2] != "" {
				port, _ = strconv.Atoi(m[2])
			}
			out = appendListener(out, Listener{"tcp", port})
		}
		return out
	}
	// Inside a shell, look at the words of the script.
	words := argv
	switch process.ProgramName(argv[0], true) {
	case "cmd", "powershell", "pwsh", "sh", "bash", "ash", "/bin/sh":
		words = strings.FieldsFunc(joined, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '&' || r == '|' || r == '"' || r == '\''
		})
	}
	var out []Listener
	for i, w := range words {
		name := process.ProgramName(w, true)
		if name == "agnhost" && i+1 < len(words) {
			continue
		}
		if specs, ok := agnhostServers[name]; ok && (i == 0 || process.ProgramName(words[i-1], true) == "agnhost") {
			flags := parseLongFlags(words[i+1:])
			for _, s := range specs {
				port := s.port
				if v, ok := flags[s.flag]; ok && s.flag != "" {
					if n, err := strconv.Atoi(v); err == nil {
						port = n
					}
				}
				if port > 0 {
					out = appendListener(out, Listener{s.proto, port})
				}
			}
		}
		if name == "nc" || name == "netcat" {
			if l, ok := ncListen(words[i+1:]); ok {
				out = appendListener(out, l)
			}
		}
	}
	return out
}

func appendListener(ls []Listener, l Listener) []Listener {
	for _, x := range ls {
		if x == l {
			return ls
		}
	}
	return append(ls, l)
}

// parseLongFlags reads --name=value and --name value.
func parseLongFlags(args []string) map[string]string {
	m := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			continue
		}
		if !strings.HasPrefix(a, "--") {
			a = "-" + a
		}
		if k, v, ok := strings.Cut(a, "="); ok {
			m[k] = v
		} else if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			m[a] = args[i+1]
			i++
		} else {
			m[a] = "true"
		}
	}
	return m
}

// ncListen reads `nc -l [-p] N`, `nc -lk N`, `nc -l -u N`.
func ncListen(args []string) (Listener, bool) {
	listen, proto, port := false, "tcp", 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			listen = listen || strings.Contains(a, "l")
			if strings.Contains(a, "u") {
				proto = "udp"
			}
			if strings.HasSuffix(a, "p") && i+1 < len(args) {
				port, _ = strconv.Atoi(args[i+1])
				i++
			}
			continue
		}
		if n, err := strconv.Atoi(a); err == nil {
			port = n
		} else {
			break
		}
	}
	return Listener{proto, port}, listen && port > 0 && port < 65536
}

// Pause is the pause container: it waits until stopped.
func Pause(p *process.Proc, argv []string) int { return p.Block() }

// AgnhostSub runs an agnhost subcommand named as argv[0] (the image's
// entrypoint is agnhost, the pod gives only args: upstream
// hybrid_network.go:61 `Args: test-webserver`).
func AgnhostSub(p *process.Proc, argv []string) int {
	return Agnhost(p, append([]string{"agnhost"}, argv...))
}

// logf writes a Go log line (log.Printf: date and time prefix) to stderr.
func logf(p *process.Proc, format string, a ...any) {
	p.Eprintln(p.Now().Format("2006/01/02 15:04:05 ") + fmt.Sprintf(format, a...))
}

// klogf writes a klog info line to stderr.
func klogf(p *process.Proc, level byte, file string, format string, a ...any) {
	p.Eprintln(fmt.Sprintf("%c%s       1 %s] %s", level, p.Now().Format("0102 15:04:05.000000"), file, fmt.Sprintf(format, a...)))
}

// Agnhost is agnhost: the server subcommands log what upstream logs and
// then serve (block) until ctx is done; the client subcommands answer
// through env.Net.
func Agnhost(p *process.Proc, argv []string) int {
	if len(argv) < 2 {
		p.Println("agnhost: a multi-call test binary. Usage: agnhost [command]")
		return 0
	}
	sub, args := argv[1], argv[2:]
	flags := parseLongFlags(args)
	port := func(flag string, def int) int {
		if n, err := strconv.Atoi(flags[flag]); err == nil {
			return n
		}
		return def
	}
	switch sub {
	case "serve-hostname":
		logf(p, "Serving on port %d.", port("--port", 9376))
		return p.Block()
	case "netexec":
		logf(p, "Started HTTP server on port %d", port("--http-port", 8080))
		logf(p, "Started UDP server on port  %d", port("--udp-port", 8081))
		return p.Block()
	case "nettest":
		return agnhostNettest(p, flags)
	case "pause":
		// test/images/agnhost/pause/pause.go: the image's default CMD
		// (common/node/containers.go expects "Paused" in the log); Go's
		// fmt.Println ends lines with "\n" on Windows too.
		p.Stdout.Write([]byte("Paused\nSignals registered\n"))
		return p.Block()
	case "test-webserver", "liveness", "fake-gitserver", "grpc-health-checking":
		return p.Block()
	case "porter":
		return agnhostPorter(p, flags)
	case "webhook":
		return agnhostWebhook(p, flags)
	case "crd-conversion-webhook":
		return agnhostTLSServer(p, flags, agnhost.ConversionHandler())
	case "dns-suffix":
		p.Println(strings.Join(p.Env.Interfaces.DNSSuffixes, ","))
		return 0
	case "dns-server-list":
		var s []string
		for _, a := range p.Env.Interfaces.DNSServers {
			s = append(s, a.String())
		}
		p.Println(strings.Join(s, ","))
		return 0
	case "etc-hosts":
		data, _ := p.ReadFile(map[bool]string{true: `C:\Windows\System32\drivers\etc\hosts`, false: "/etc/hosts"}[p.Win])
		p.Println(string(data))
		return 0
	case "connect":
		return agnhostConnect(p, args, flags)
	case "inclusterclient":
		return agnhostInClusterClient(p, port("--poll-interval", 30))
	case "test-service-account-issuer-discovery":
		return agnhostOIDC(p, flags)
	case "mounttest":
		return agnhostMounttest(p, flags)
	case "logs-generator":
		return agnhostLogsGenerator(p, flags)
	case "entrypoint-tester":
		// test/images/agnhost/entrypoint-tester: prints os.Args
		// (containers.go checks "[/agnhost-2 entrypoint-tester ...]").
		p.Println("[" + strings.Join(argv, " ") + "]")
		return 0
	}
	p.Eprintln(fmt.Sprintf("Error: unknown command %q for \"agnhost\"", sub))
	p.Eprintln("Run 'agnhost --help' for usage.")
	return 1
}

// agnhostConnect is `agnhost connect host:port [--timeout 5s]`
// (upstream test/images/agnhost/connect: TIMEOUT, REFUSED, DNS, OTHER).
func agnhostConnect(p *process.Proc, args []string, flags map[string]string) int {
	dest := ""
	for i, a := range args {
		if !strings.HasPrefix(a, "-") && (i == 0 || !strings.HasPrefix(args[i-1], "--") || strings.Contains(args[i-1], "=")) {
			dest = a
			break
		}
	}
	host, ps, ok := strings.Cut(dest, ":")
	if i := strings.LastIndex(dest, ":"); i >= 0 {
		host, ps, ok = dest[:i], dest[i+1:], true
	}
	port, err := strconv.Atoi(ps)
	if !ok || err != nil {
		p.Eprintln(fmt.Sprintf("UNKNOWN: address %s: missing port in address", dest))
		return 1
	}
	proto := flags["--protocol"]
	if proto == "" || proto == "true" {
		proto = "tcp"
	}
	addrs, err := p.Resolve(strings.Trim(host, "[]"))
	addr, found := process.Pick(addrs, 0)
	if err != nil || !found {
		p.Eprintln(fmt.Sprintf("DNS: lookup %s: no such host", host))
		return 1
	}
	err = p.Net().Dial(p.Ctx, proto, addr, port)
	switch {
	case p.Done():
		return p.Killed()
	case err == nil:
		return 0
	case errors.Is(err, process.ErrTimeout):
		if d, perr := time.ParseDuration(flags["--timeout"]); perr == nil && !p.Sleep(d) {
			return p.Killed()
		}
		p.Eprintln("TIMEOUT")
	case errors.Is(err, process.ErrRefused):
		p.Eprintln("REFUSED")
	default:
		p.Eprintln(fmt.Sprintf("OTHER: dial %s %s: %v", proto, dest, err))
	}
	return 1
}

// agnhostInClusterClient polls the apiserver's /healthz (upstream
// host_process.go:730 expects "calling /healthz" and no "status=failed").
func agnhostInClusterClient(p *process.Proc, interval int) int {
	klogf(p, 'I', "main.go:61", "started")
	host, _ := p.Vars.Get("KUBERNETES_SERVICE_HOST")
	port, _ := p.Vars.Get("KUBERNETES_SERVICE_PORT")
	if host == "" {
		host = "kubernetes.default.svc"
	}
	if port == "" {
		port = "443"
	}
	for p.Step() == nil { // issue 18
		klogf(p, 'I', "main.go:79", "calling /healthz")
		resp, err := p.Net().HTTP(p.Ctx, "GET", "https://"+host+":"+port+"/healthz", true)
		if p.Done() {
			return p.Killed()
		}
		if err != nil || resp == nil || resp.Status != 200 {
			klogf(p, 'E', "main.go:82", "status=failed")
		}
		if !p.Sleep(time.Duration(interval) * time.Second) {
			return p.Killed()
		}
	}
	return p.Killed()
}
