package volumes

import (
	"bytes"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/shell"
)

// mountPoint is one entry of a container's mount table.
type mountPoint struct {
	target vpath
	st     *store
	base   []string
	ro     bool
	roErr  error
	pipe   string // a named pipe mount (\\.\pipe\x on the node)
	volume string
}

// containerFS implements shell.FS over a mount table: longest-prefix match of
// the cleaned path, then the remainder inside the mount's store.
type containerFS struct {
	win       bool
	node      *Node
	mounts    []mountPoint // longest target first
	hostPipes bool         // HostProcess / node view: every node pipe is reachable
	termLog   *store       // the termination message file of this instance (termination.go)
	// layer is the container's writable layer over its image, whose own
	// files are seedBytes (DiskUsage); nil for a HostProcess container.
	layer     *store
	seedBytes int64
	err       error // *ContainerError, if any
}

var _ shell.FS = (*containerFS)(nil)

// FS is the node's own file system, as a process on the host sees it.
func (n *Node) FS() shell.FS {
	root := vpath{}
	if n.win {
		root.drive = 'C'
	}
	return &containerFS{win: n.win, node: n, hostPipes: true, mounts: []mountPoint{{target: root, st: n.host}}}
}

func join(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// build returns the container's FS, creating it at first use. Caller holds p.mu.
func (p *Pod) build(name string) (*containerFS, error) {
	if c := p.ctrs[name]; c != nil {
		return c, c.err
	}
	ctr := p.container(name)
	if ctr == nil {
		return nil, nil
	}
	c := &containerFS{win: p.win, node: p.node}
	fail := func(reason string, err error) {
		if c.err == nil {
			c.err = &ContainerError{Container: name, Reason: reason, Err: err}
		}
	}
	hp := p.hostProcess(ctr)
	image := newStore(p.win, p.node.clock)
	rootTarget := vpath{}
	if p.win {
		rootTarget.drive = 'C'
	}
	var sandbox vpath
	var bindAbsolute bool
	if hp {
		// Row B10: the host's disk is C:\; the container's own volume (its
		// image) is at the sandbox mount point.
		seedHostProcessImage(image, ctr.Image)
		c.mounts = append(c.mounts, mountPoint{target: rootTarget, st: p.node.host})
		sandbox, _ = parseWin(p.sandbox(name))
		c.mounts = append(c.mounts, mountPoint{target: sandbox, st: image})
		_, _, _, layout := p.node.settings()
		bindAbsolute = layout == LayoutBindFilter
		c.hostPipes = true
	} else {
		p.seedImage(image, ctr)
		seedAgnhostImage(image, ctr.Image)
		root := mountPoint{target: rootTarget, st: image}
		if !p.win && ctr.SecurityContext != nil && ctr.SecurityContext.ReadOnlyRootFilesystem != nil && *ctr.SecurityContext.ReadOnlyRootFilesystem {
			root.ro, root.roErr = true, ErrReadOnlyFS
		}
		if p.win && ctr.SecurityContext != nil && ctr.SecurityContext.ReadOnlyRootFilesystem != nil && *ctr.SecurityContext.ReadOnlyRootFilesystem {
			// Row B11 / A5: not supported on Windows; a pod without
			// spec.os gets it through validation and the node ignores it.
			p.note("B11", "", name, "readOnlyRootFilesystem ignored: not supported on Windows")
		}
		c.mounts = append(c.mounts, root)
		c.layer, c.seedBytes = image, image.bytes()
	}
	if f := p.layerPath(name); f != "" {
		// The layer as the container left it (a restarted simnode).
		image.persist(f)
	}

	for _, vm := range ctr.VolumeMounts {
		vs := p.vols[vm.Name]
		if vs == nil {
			fail(ReasonCreateContainerConfigError, fmt.Errorf("cannot find volume %q to mount into container %q", vm.Name, name))
			continue
		}
		subPath := vm.SubPath
		if vm.SubPathExpr != "" {
			s, err := expandSubPath(vm.SubPathExpr, p.containerEnv(ctr))
			if err != nil {
				fail(ReasonCreateContainerConfigError, err)
				continue
			}
			subPath = s
		}
		if subPath != "" {
			if isAbs(p.win, subPath) {
				fail(ReasonCreateContainerConfigError, fmt.Errorf("error SubPath `%s` must not be an absolute path", subPath))
				continue
			}
			if hasBacksteps(p.win, subPath) {
				fail(ReasonCreateContainerConfigError, fmt.Errorf("unable to provision SubPath `%s`: must not contain '..'", subPath))
				continue
			}
		}
		if p.win && vm.MountPropagation != nil && *vm.MountPropagation != corev1.MountPropagationNone {
			// pkg/kubelet/kubelet_pods.go:428 translateMountPropagation.
			p.note("B11", vm.Name, name, "mountPropagation %s forced to private: Windows has no mount propagation", *vm.MountPropagation)
		}
		target, err := parsePath(p.win, vm.MountPath)
		if err != nil {
			fail(ReasonCreateContainerConfigError, fmt.Errorf("invalid mountPath %q: %v", vm.MountPath, err))
			continue
		}
		mp := mountPoint{target: target, st: vs.st, base: vs.base, volume: vm.Name, pipe: vs.pipe}
		if vm.ReadOnly || vs.readOnly {
			mp.ro, mp.roErr = true, errReadOnly(p.win)
		}
		if vs.pipe != "" && hp {
			fail(ReasonStartError, ErrHostProcessNamedPipeMount)
			continue
		}
		if subPath != "" && vs.pipe == "" {
			full, ok := vs.st.evalLinks(vs.base, clean(relParts(p.win, subPath)))
			if !ok {
				fail(ReasonCreateContainerConfigError, fmt.Errorf("failed to prepare subPath for volumeMount %q of container %q", vm.Name, name))
				continue
			}
			if _, ok := vs.st.stat(full); !ok {
				// SafeMakeDir: the kubelet creates a missing subPath as a
				// directory of the volume.
				_ = vs.st.mkdirAll(full)
			}
			if vs.atomic {
				// A subPath is a bind mount of what is there now: later
				// updates of the volume do not reach it.
				snap := newStore(p.win, p.node.clock)
				e := vs.st.subtree(full)
				if e == nil {
					fail(ReasonCreateContainerConfigError, fmt.Errorf("failed to prepare subPath for volumeMount %q of container %q", vm.Name, name))
					continue
				}
				if e.kind == kindDir {
					snap.replace(e)
				} else {
					snap.root.kids["f"] = e
					mp.base = []string{"f"}
				}
				mp.st = snap
				if e.kind == kindDir {
					mp.base = nil
				}
			} else {
				mp.base = full
			}
		}
		if hp {
			inSandbox := vpath{drive: sandbox.drive, parts: join(sandbox.parts, target.parts)}
			if target.drive != 'C' {
				inSandbox.parts = join(sandbox.parts, append([]string{string(target.drive)}, target.parts...))
			}
			m2 := mp
			m2.target = inSandbox
			c.mounts = append(c.mounts, m2)
			if !bindAbsolute {
				continue
			}
		}
		c.mounts = append(c.mounts, mp)
	}
	if len(ctr.VolumeDevices) > 0 && p.win {
		fail(ReasonCreateContainerError, ErrVolumeDevicesUnsupported)
	}
	if !hp {
		p.hostsMount(c, ctr)
		p.terminationMount(c, ctr)
	}
	sort.SliceStable(c.mounts, func(i, j int) bool {
		return len(c.mounts[i].target.parts) > len(c.mounts[j].target.parts)
	})
	p.ctrs[name] = c
	return c, c.err
}

// hostsMount adds the kubelet-managed hosts file (makeHostsMount,
// pkg/kubelet/kubelet_pods.go:459), unless a volumeMount is already there.
func (p *Pod) hostsMount(c *containerFS, ctr *corev1.Container) {
	ips := p.podIPs
	if len(ips) == 0 {
		for _, ip := range p.pod.Status.PodIPs {
			ips = append(ips, ip.IP)
		}
		if len(ips) == 0 && p.pod.Status.PodIP != "" {
			ips = []string{p.pod.Status.PodIP}
		}
	}
	if len(ips) == 0 && !p.pod.Spec.HostNetwork {
		return
	}
	hostsPath := "/etc/hosts"
	if p.win {
		hostsPath = `C:\Windows\System32\drivers\etc\hosts`
	}
	target, _ := parsePath(p.win, hostsPath)
	for _, m := range c.mounts {
		if len(m.target.parts) == len(target.parts) && hasPrefix(p.win, target, m.target) {
			return
		}
	}
	if p.hosts == nil {
		var content []byte
		if p.pod.Spec.HostNetwork {
			nodeHosts, _ := p.node.ReadFile(hostsPath)
			content = append([]byte("# Kubernetes-managed hosts file (host network).\n"), nodeHosts...)
			content = append(content, hostAliases(p.pod.Spec.HostAliases)...)
		} else {
			host, domain := p.hostnameDomain()
			content = managedHosts(ips, host, domain, p.pod.Spec.HostAliases)
		}
		p.hosts = newStore(p.win, p.node.clock)
		_ = p.hosts.put([]string{"etc-hosts"}, kindFile, content, 0o644)
	}
	c.mounts = append(c.mounts, mountPoint{target: target, st: p.hosts, base: []string{"etc-hosts"}, volume: "k8s-managed-etc-hosts"})
}

// managedHosts is managedHostsFileContent (pkg/kubelet/kubelet_pods.go:514).
func managedHosts(ips []string, host, domain string, aliases []corev1.HostAlias) []byte {
	var b bytes.Buffer
	b.WriteString("# Kubernetes-managed hosts file.\n")
	b.WriteString("127.0.0.1\tlocalhost\n")
	b.WriteString("::1\tlocalhost ip6-localhost ip6-loopback\n")
	b.WriteString("fe00::0\tip6-localnet\n")
	b.WriteString("fe00::0\tip6-mcastprefix\n")
	b.WriteString("fe00::1\tip6-allnodes\n")
	b.WriteString("fe00::2\tip6-allrouters\n")
	for _, ip := range ips {
		if domain != "" {
			fmt.Fprintf(&b, "%s\t%s.%s\t%s\n", ip, host, domain, host)
		} else {
			fmt.Fprintf(&b, "%s\t%s\n", ip, host)
		}
	}
	b.Write(hostAliases(aliases))
	return b.Bytes()
}

func hostAliases(aliases []corev1.HostAlias) []byte {
	if len(aliases) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("\n# Entries added by HostAliases.\n")
	for _, a := range aliases {
		fmt.Fprintf(&b, "%s\t%s\n", a.IP, strings.Join(a.Hostnames, "\t"))
	}
	return b.Bytes()
}

// hostnameDomain is the kubelet's GeneratePodHostNameAndDomain.
func (p *Pod) hostnameDomain() (string, string) {
	_, clusterDomain, nodeName, _ := p.node.settings()
	if p.pod.Spec.HostNetwork && nodeName != "" {
		return nodeName, ""
	}
	host := p.pod.Name
	if p.pod.Spec.Hostname != "" {
		host = p.pod.Spec.Hostname
	}
	if len(host) > 63 {
		host = strings.TrimRight(host[:63], "-.")
	}
	domain := ""
	if p.pod.Spec.Subdomain != "" {
		domain = fmt.Sprintf("%s.%s.svc.%s", p.pod.Spec.Subdomain, p.pod.Namespace, clusterDomain)
	}
	return host, domain
}

// seedImage writes the image's own files into a container's writable layer.
func (p *Pod) seedImage(s *store, ctr *corev1.Container) {
	if p.win {
		nano := strings.Contains(strings.ToLower(ctr.Image), "nanoserver")
		seedWindowsBase(s, !nano)
		for _, d := range [][]string{{"Users", "ContainerUser"}, {"Users", "ContainerAdministrator"}} {
			_ = s.mkdirAll(d)
		}
		_ = s.put([]string{"License.txt"}, kindFile, []byte("MICROSOFT SOFTWARE SUPPLEMENTAL LICENSE TERMS\r\n"), 0o644)
		if strings.Contains(strings.ToLower(ctr.Image), "e2e-test-images/") {
			// The e2e images' Windows builds are FROM their busybox image,
			// whose layer has C:\tmp (test/images/busybox/Dockerfile_windows:
			// COPY --from=prep /tmp-dir /tmp): busybox-w32 sh's /tmp.
			_ = s.mkdirAll([]string{"tmp"})
		}
		return
	}
	host, _ := p.hostnameDomain()
	put := func(path, data string) {
		_ = s.put(clean(strings.Split(path, "/")), kindFile, []byte(data), 0o644)
	}
	put("/etc/hostname", host+"\n")
	put("/etc/os-release", linuxOSRelease)
	put("/etc/passwd", "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
	put("/etc/group", "root:x:0:\nnogroup:x:65534:\n")
	for _, b := range []string{"sh", "cat", "ls", "echo", "sleep", "hostname", "nslookup", "ping", "wget"} {
		put("/bin/"+b, "\x7fELF")
	}
	for _, d := range []string{"/tmp", "/root", "/var/log", "/usr/bin", "/proc", "/sys", "/dev"} {
		_ = s.mkdirAll(clean(strings.Split(d, "/")))
	}
	_ = s.put([]string{"dev", "null"}, kindCharDev, nil, 0o666)
}

// seedHostProcessImage: HostProcess images are usually built FROM the
// nearly empty host-process base image; the e2e BusyBox image carries
// bin\*.exe (host_process.go runs %CONTAINER_SANDBOX_MOUNT_POINT%\bin\uname.exe).
func seedHostProcessImage(s *store, image string) {
	if strings.Contains(strings.ToLower(image), "busybox") {
		for _, b := range []string{"busybox.exe", "uname.exe", "sh.exe", "ls.exe", "cat.exe", "echo.exe", "sleep.exe", "wget.exe"} {
			_ = s.put([]string{"bin", b}, kindFile, []byte("MZ"), 0o755)
		}
	}
	if strings.Contains(strings.ToLower(image), "e2e-test-images/agnhost") {
		// The agnhost image's ENTRYPOINT /agnhost, without an extension
		// (host_process.go:701 copies C:\hpc\agnhost to agnhost.exe).
		_ = s.put([]string{"agnhost"}, kindFile, []byte("MZ"), 0o755)
	}
	_ = s.put([]string{"License.txt"}, kindFile, []byte("MICROSOFT SOFTWARE SUPPLEMENTAL LICENSE TERMS\r\n"), 0o644)
}

// containerEnv is the environment subPathExpr expands against.
func (p *Pod) containerEnv(ctr *corev1.Container) map[string]string {
	if e, ok := p.env[ctr.Name]; ok {
		return e
	}
	env := map[string]string{}
	for _, e := range ctr.Env {
		switch {
		case e.ValueFrom == nil:
			v, _ := expand(e.Value, env)
			env[e.Name] = v
		case e.ValueFrom.FieldRef != nil:
			fp := e.ValueFrom.FieldRef.FieldPath
			switch fp {
			case "spec.nodeName":
				env[e.Name] = p.pod.Spec.NodeName
			case "spec.serviceAccountName":
				env[e.Name] = p.pod.Spec.ServiceAccountName
			case "status.podIP":
				env[e.Name] = p.pod.Status.PodIP
			case "status.hostIP":
				env[e.Name] = p.pod.Status.HostIP
			default:
				if v, err := extractFieldPath(p.pod, fp); err == nil {
					env[e.Name] = v
				}
			}
		}
	}
	return env
}

// expand is the kubelet's $(VAR) expansion (third_party/forked/golang/expansion):
// $$ is a literal $, an unknown $(VAR) stays as written.
func expand(s string, env map[string]string) (string, []string) {
	var b strings.Builder
	var missing []string
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				b.WriteString(s[i:])
				return b.String(), missing
			}
			name := s[i+2 : i+2+end]
			v, ok := env[name]
			if !ok || v == "" {
				missing = append(missing, name)
			}
			if ok {
				b.WriteString(v)
			} else {
				b.WriteString("$(" + name + ")")
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String(), missing
}

// expandSubPath is ExpandContainerVolumeMounts (pkg/kubelet/container/helpers.go:242).
func expandSubPath(expr string, env map[string]string) (string, error) {
	s, missing := expand(expr, env)
	if len(missing) > 0 {
		sort.Strings(missing)
		uniq := missing[:0]
		for i, m := range missing {
			if i == 0 || m != missing[i-1] {
				uniq = append(uniq, m)
			}
		}
		return "", fmt.Errorf("missing value for %s", strings.Join(uniq, ", "))
	}
	return s, nil
}

// ---- shell.FS ----

func (c *containerFS) resolve(vp vpath) (*mountPoint, []string) {
	for i := range c.mounts {
		m := &c.mounts[i]
		if hasPrefix(c.win, vp, m.target) {
			return m, vp.parts[len(m.target.parts):]
		}
	}
	return nil, nil
}

// implied reports whether vp is a strict ancestor of a mount point: such a
// directory exists even where the underlying layer has nothing.
func (c *containerFS) implied(vp vpath) bool {
	for i := range c.mounts {
		t := c.mounts[i].target
		if len(t.parts) > len(vp.parts) && hasPrefix(c.win, t, vp) {
			return true
		}
	}
	return false
}

func (c *containerFS) pipeErr(name string) error {
	if c.node.HasNamedPipe(name) {
		return ErrPipeBusy
	}
	return fs.ErrNotExist
}

// pipeVisible: a named pipe path is reachable if it is mounted, or from
// the host (HostProcess).
func (c *containerFS) pipe(name string) error {
	for _, m := range c.mounts {
		if m.target.pipe != "" && strings.EqualFold(m.target.pipe, name) {
			return c.pipeErr(m.pipe)
		}
	}
	if c.hostPipes {
		return c.pipeErr(name)
	}
	return fs.ErrNotExist
}

// InVolume implements shell.VolumeFS: path lies in a volume mount (whose
// content wink knows entirely), not in the image's layer.
func (c *containerFS) InVolume(path string) bool {
	vp, err := c.parse(path, true)
	if err != nil || vp.pipe != "" {
		return false
	}
	m, _ := c.resolve(vp)
	return m != nil && m.volume != ""
}

// file resolves path to the mount holding it and the path inside that
// mount, following symbolic links (the last component's too when last): a
// path only mount points below it make (a directory of no mount) answers
// impliedErr, a named pipe its pipe's answer.
func (c *containerFS) file(path string, impliedErr error, last bool) (*mountPoint, []string, vpath, error) {
	vp, err := c.parse(path, last)
	if err != nil {
		return nil, nil, vp, err
	}
	if vp.pipe != "" {
		return nil, nil, vp, c.pipe(vp.pipe)
	}
	m, rel := c.resolve(vp)
	if m == nil {
		if c.implied(vp) {
			return nil, nil, vp, impliedErr
		}
		return nil, nil, vp, fs.ErrNotExist
	}
	if m.pipe != "" {
		return nil, nil, vp, c.pipeErr(m.pipe)
	}
	return m, rel, vp, nil
}

// ReadFile implements shell.FS.
func (c *containerFS) ReadFile(path string) ([]byte, error) {
	m, rel, vp, err := c.file(path, errIsDir(c.win), true)
	if err != nil {
		return nil, err
	}
	data, kind, err := m.st.readFile(join(m.base, rel))
	if err != nil {
		if c.implied(vp) {
			return nil, errIsDir(c.win)
		}
		return nil, err
	}
	if kind == kindDir {
		return nil, errIsDir(c.win)
	}
	return data, nil
}

// WriteFile implements shell.FS: fs.ErrPermission (ErrAccessDenied on
// Windows, ErrReadOnlyFS on Linux) on a read-only mount (row B11).
func (c *containerFS) WriteFile(path string, data []byte) error {
	m, rel, vp, err := c.file(path, errIsDir(c.win), true)
	if err != nil {
		return err
	}
	if c.implied(vp) {
		return errIsDir(c.win)
	}
	if in, ok := m.st.stat(join(m.base, rel)); ok && in.kind == kindDir {
		return errIsDir(c.win)
	}
	if m.ro {
		return m.roErr
	}
	if len(rel) == 0 {
		// a file mount (subPath file, hostPath File, the hosts file)
		return m.st.writeFile(m.base, data, false)
	}
	parent := vpath{drive: vp.drive, parts: vp.parts[:len(vp.parts)-1]}
	return m.st.writeFile(join(m.base, rel), data, c.implied(parent))
}

// ReadDir implements shell.FS: the directory's entries merged with the mount
// points under it, sorted by name.
func (c *containerFS) ReadDir(path string) ([]fs.DirEntry, error) {
	vp, err := c.parse(path, true)
	if err != nil {
		return nil, err
	}
	if vp.pipe != "" {
		return nil, errNotDir(c.win)
	}
	byName := map[string]info{}
	exists := false
	if m, rel := c.resolve(vp); m != nil && m.pipe == "" {
		ents, ex, isDir := m.st.list(join(m.base, rel))
		if ex && !isDir && !c.implied(vp) {
			return nil, errNotDir(c.win)
		}
		if isDir {
			exists = true
			for _, e := range ents {
				byName[fold(c.win, e.name)] = e
			}
		}
	}
	for i := range c.mounts {
		mm := &c.mounts[i]
		t := mm.target
		if len(t.parts) <= len(vp.parts) || !hasPrefix(c.win, t, vp) {
			continue
		}
		exists = true
		child := t.parts[len(vp.parts)]
		k := fold(c.win, child)
		if len(t.parts) == len(vp.parts)+1 {
			in := info{name: child, kind: kindDir, mode: 0o755, mtime: c.node.clock()}
			if mm.pipe == "" {
				if st, ok := mm.st.stat(mm.base); ok {
					in = st
					in.name = child
				}
			}
			byName[k] = in
		} else if _, ok := byName[k]; !ok {
			byName[k] = info{name: child, kind: kindDir, mode: 0o755, mtime: c.node.clock()}
		}
	}
	if !exists {
		return nil, fs.ErrNotExist
	}
	list := make([]info, 0, len(byName))
	for _, e := range byName {
		list = append(list, e)
	}
	sortInfos(c.win, list)
	out := make([]fs.DirEntry, len(list))
	for i, e := range list {
		out[i] = e
	}
	return out, nil
}
