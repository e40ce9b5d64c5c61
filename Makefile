# wink: Windows nodes, simulated, for Kubernetes conformance and e2e tests.
GO      ?= go
BIN     := bin/wink
WINK    := $(abspath $(BIN))
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X wink.dev/wink/cmd/wink/app.Version=$(VERSION)

.PHONY: all build image kind-node-image suites tools up down test unit fuzz bench kwok conformance fmt vet clean

all: build

## build: the wink binary (control plane, simnode and CLI in one), bin/wink;
## static (CGO_ENABLED=0), since the kind backend runs it in its network
## gateway container too
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/wink

## image: wink's OCI image, built without a Docker daemon (issue 19): the
## static binary (CGO_ENABLED=0) on an empty base, entrypoint `wink simnode`,
## as a `docker load`-able bin/wink-image.tar and an OCI layout bin/wink-oci,
## for the in-cluster chart simnode/deploy/chart
## (`kind load image-archive bin/wink-image.tar`).
ARCH  ?= $(shell $(GO) env GOARCH)
IMAGE ?= wink.dev/wink:$(VERSION)
image:
	CGO_ENABLED=0 GOOS=linux GOARCH=$(ARCH) $(GO) build -ldflags "$(LDFLAGS) -s -w" -o bin/linux-$(ARCH)/wink ./cmd/wink
	$(GO) run ./simnode/deploy/image --binary bin/linux-$(ARCH)/wink --arch $(ARCH) --tag $(IMAGE) --tarball bin/wink-image.tar --layout bin/wink-oci

## kind-node-image: wink's kind node image, $(KIND_NODE_TAG), built with no
## registry (harness/internal/kindnode/doc.go): a Debian bookworm root file
## system (debootstrap, needs root), containerd, runc, the CNI plugins,
## crictl and CoreDNS from their modules, kubelet, kubeadm, kube-proxy and
## kubectl from our k8s.io/kubernetes, pause from its C source, and wink's
## static binary serving the control-plane images. Every step is cached:
## the image is rebuilt only when an input changed.
KIND_NODE     := $(abspath bin/kind-node)
KIND_NODE_TAG ?= wink.dev/kind-node:$(KUBE_VERSION)
CONTAINERD    ?= v2.3.4
RUNC          ?= v1.4.3
CNI_PLUGINS   ?= v1.9.1
CRICTL        ?= v1.34.0
COREDNS       ?= v1.13.1
# the e2e nginx image's stand-in (upstream's Hybrid network specs)
KIND_NODE_NGINX_PACKAGES := nginx,netcat-openbsd
KIND_NODE_PACKAGES := systemd,systemd-sysv,dbus,conntrack,iptables,nftables,iproute2,ethtool,util-linux,mount,kmod,libseccomp2,pigz,fuse-overlayfs,e2fsprogs,bash,ca-certificates,curl,jq,procps
kind-node-image:
	@command -v debootstrap >/dev/null && test -f /usr/include/seccomp.h || { echo "make kind-node-image needs debootstrap and libseccomp-dev: apt-get install debootstrap libseccomp-dev (as root)" >&2; exit 1; }
	@if [ "$$(cat $(KIND_NODE)/rootfs.packages 2>/dev/null)" != "$(KIND_NODE_PACKAGES)" ]; then \
		rm -rf $(KIND_NODE)/rootfs && mkdir -p $(KIND_NODE) && \
		debootstrap --variant=minbase --include=$(KIND_NODE_PACKAGES) bookworm $(KIND_NODE)/rootfs http://deb.debian.org/debian && \
		echo "$(KIND_NODE_PACKAGES)" > $(KIND_NODE)/rootfs.packages; fi
	@if [ "$$(cat $(KIND_NODE)/nginx-rootfs.packages 2>/dev/null)" != "$(KIND_NODE_NGINX_PACKAGES)" ]; then \
		rm -rf $(KIND_NODE)/nginx-rootfs && \
		debootstrap --variant=minbase --include=$(KIND_NODE_NGINX_PACKAGES) bookworm $(KIND_NODE)/nginx-rootfs http://deb.debian.org/debian && \
		echo "$(KIND_NODE_NGINX_PACKAGES)" > $(KIND_NODE)/nginx-rootfs.packages; fi
	GOBIN=$(KIND_NODE)/bin CGO_ENABLED=0 $(GO) install -ldflags "-s -w -X github.com/containerd/containerd/v2/version.Version=$(CONTAINERD)" \
		github.com/containerd/containerd/v2/cmd/containerd@$(CONTAINERD) github.com/containerd/containerd/v2/cmd/ctr@$(CONTAINERD) \
		github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2@$(CONTAINERD)
	GOBIN=$(KIND_NODE)/bin CGO_ENABLED=1 $(GO) install -tags "seccomp urfave_cli_no_docs" -ldflags "-s -w -X main.version=$(RUNC:v%=%) -extldflags -static" github.com/opencontainers/runc@$(RUNC)
	GOBIN=$(KIND_NODE)/cni CGO_ENABLED=0 $(GO) install -ldflags "-s -w" $(foreach p,main/ptp main/bridge main/loopback ipam/host-local meta/portmap,github.com/containernetworking/plugins/plugins/$(p)@$(CNI_PLUGINS))
	GOBIN=$(KIND_NODE)/bin CGO_ENABLED=0 $(GO) install -ldflags "-s -w" sigs.k8s.io/cri-tools/cmd/crictl@$(CRICTL)
	GOBIN=$(KIND_NODE)/bin CGO_ENABLED=0 $(GO) install -ldflags "-s -w" github.com/coredns/coredns@$(COREDNS)
	cd harness/internal/kindnode/kube && CGO_ENABLED=0 $(GO) build -o $(KIND_NODE)/bin/ -ldflags "-s -w $(KUBE_LDFLAGS)" \
		k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kubeadm k8s.io/kubernetes/cmd/kube-proxy k8s.io/kubernetes/cmd/kubectl
	gcc -static -Os -o $(KIND_NODE)/bin/pause $$($(GO) list -m -f '{{.Dir}}' k8s.io/kubernetes)/build/pause/linux/pause.c && strip $(KIND_NODE)/bin/pause
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS) -s -w" -o $(KIND_NODE)/bin/wink ./cmd/wink
	$(GO) run ./harness/internal/kindnode --rootfs $(KIND_NODE)/rootfs --nginx-rootfs $(KIND_NODE)/nginx-rootfs --bin $(KIND_NODE)/bin --cni $(KIND_NODE)/cni \
		--kind $$($(GO) list -m -f '{{.Dir}}' sigs.k8s.io/kind) --kubernetes-version $(KUBE_VERSION) --tag $(KIND_NODE_TAG)

## suites: the e2e suites as test binaries, bin/suites/<area>.test, for `wink test`
## without a Go toolchain (go test -c -o DIR/ names each binary after its package)
suites:
	$(GO) test -c -tags upstreame2e -ldflags="-s -w" -o bin/suites/ ./suites/...

## tools: chart-testing (ct), helm and the kind CLI, built into bin/tools at the
## versions of .ci/tools/go.mod (a module of its own: their dependencies stay out
## of wink's), for `ct install` against a wink cluster and suites/charttesting:
## KUBECONFIG="$(bin/wink kubeconfig)" PATH="$PWD/bin/tools:$PATH" ct install --charts ...
## and for the kind CLI recipe of docs/kind.md.
tools:
	cd .ci/tools && $(GO) build -o ../../bin/tools/ct -ldflags "-X github.com/helm/chart-testing/v3/ct/cmd.Version=$$($(GO) list -m -f '{{.Version}}' github.com/helm/chart-testing/v3)" github.com/helm/chart-testing/v3/ct
	cd .ci/tools && $(GO) build -o ../../bin/tools/kind sigs.k8s.io/kind
	cd .ci/tools && $(GO) build -o ../../bin/tools/helm -ldflags "-X helm.sh/helm/v4/internal/version.version=$$($(GO) list -m -f '{{.Version}}' helm.sh/helm/v4)" helm.sh/helm/v4/cmd/helm

## up: build, then bring up the default cluster (two Windows Server 2022 nodes, one 2019, one Linux)
up: build
	$(BIN) up

## down: stop the default cluster, keeping its state
down: build
	$(BIN) down

## test: every test: unit tests and the e2e suites against real embedded clusters,
## three packages per CPU at a time (-p; go test's default is one per CPU): each
## suite package brings up a cluster of its own and mostly waits on it. On 2 CPUs
## the suites took 176 s with -p 2 and 86 s with -p 6.
NPROC := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
test: build
	WINK_BINARY=$(WINK) $(GO) test -count=1 -p $$((3 * $(NPROC))) -timeout 40m ./...
	$(MAKE) fuzz

## fuzz: every fuzz target (func Fuzz* of a _test.go file) for FUZZTIME each,
## one after the other (issue 18: no input panics, hangs, or grows the heap
## or the output past its bound; the targets check all three). `go test`
## already runs their seed corpora. A failing input is kept in the package's
## testdata/fuzz, where `go test` then runs it too.
FUZZTIME ?= 12s
fuzz:
	@set -e; grep -r --include='*_test.go' -o '^func Fuzz[A-Za-z0-9_]*' cmd harness reports simnode suites | sort -u | \
	while IFS=: read -r file fn; do \
		name=$${fn#func }; dir=./$$(dirname $$file); \
		echo "$(GO) test -run '^$$' -fuzz '^$$name$$' -fuzztime $(FUZZTIME) $$dir"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$dir; \
	done

## unit: only the tests that need no cluster
unit:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v /suites/)

## bench: the benchmarks of the README, with figures
bench: build
	WINK_BINARY=$(WINK) $(GO) test -run '^$$' -bench . -benchtime 1x -timeout 30m ./...

## kwok: kwok v0.8.0 (kwok, kwokctl) and the binaries of kwokctl's binary runtime,
## built from our pinned k8s.io/kubernetes and etcd server modules, into bin/tools,
## for BenchmarkDeploymentVsKwok (which skips, saying so, without them). kubectl
## (kwokctl asks it whether the apiserver serves) needs modules wink does not
## link: it is built from upstream's cmd/kubectl main in a scratch module.
TOOLS      := $(abspath bin/tools)
KWOK       ?= v0.8.0
KUBE_VERSION = $(shell $(GO) list -m -f '{{.Version}}' k8s.io/kubernetes)
KUBE_LDFLAGS = -X k8s.io/component-base/version.gitVersion=$(KUBE_VERSION) -X k8s.io/component-base/version.gitTreeState=clean
kwok:
	GOBIN=$(TOOLS) $(GO) install sigs.k8s.io/kwok/cmd/kwok@$(KWOK) sigs.k8s.io/kwok/cmd/kwokctl@$(KWOK)
	$(GO) build -ldflags "$(KUBE_LDFLAGS)" -o $(TOOLS)/ k8s.io/kubernetes/cmd/kube-apiserver \
		k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler
	$(GO) build -o $(TOOLS)/etcd go.etcd.io/etcd/server/v3
	set -e; d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; \
	cp $$($(GO) list -m -f '{{.Dir}}' k8s.io/kubernetes)/cmd/kubectl/kubectl.go $$d/; chmod u+w $$d/kubectl.go; \
	cd $$d && $(GO) mod init kubectl >/dev/null 2>&1 && \
	GOFLAGS=-mod=mod $(GO) get k8s.io/kubectl@v0$(patsubst v1%,%,$(KUBE_VERSION)) k8s.io/component-base@v0$(patsubst v1%,%,$(KUBE_VERSION)) && \
	GOFLAGS=-mod=mod $(GO) mod tidy && $(GO) build -ldflags "$(KUBE_LDFLAGS)" -o $(TOOLS)/kubectl .

## conformance: SIG Windows' e2e jobs (upstream e2e.test, built once from the
## module cache) against a wink cluster of the sig-windows profile; reports in
## conformance-report/<job>. JOBS=sig-windows for one job.
JOBS ?= sig-windows windows-parallel windows-serial
conformance: build
	@rc=0; for j in $(JOBS); do $(BIN) conformance --job $$j --report-dir conformance-report/$$j || rc=1; done; exit $$rc

fmt:
	gofmt -l -w .

vet:
	$(GO) vet ./...

clean:
	rm -rf bin
