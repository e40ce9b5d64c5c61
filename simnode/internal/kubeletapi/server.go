package kubeletapi

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"
	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	"github.com/virtual-kubelet/virtual-kubelet/node/api"
	"github.com/virtual-kubelet/virtual-kubelet/node/nodeutil"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apiserver/pkg/server/dynamiccertificates"
	"k8s.io/client-go/kubernetes"

	"wink.dev/wink/simnode/internal/logs"
)

// Stream timeouts of the kubelet's defaults (streamingConnectionIdleTimeout
// 4h; creation timeout from the kubelet's server).
const (
	StreamIdleTimeout     = 4 * time.Hour
	StreamCreationTimeout = 30 * time.Second
)

// Backend is what the API needs from a node's runtime.
type Backend interface {
	// ContainerLogs returns a container's log buffer (previous: the
	// instance before the last restart).
	ContainerLogs(namespace, pod, container string, previous bool) (*logs.Buffer, error)
	// GetPods returns the pods the node runs.
	GetPods(ctx context.Context) ([]*corev1.Pod, error)
	// Now is the node's clock (sinceSeconds).
	Now() time.Time
}

// Streams is what exec, attach and port-forward need from a node's
// runtime (B16). A Backend that does not implement it answers them with
// an error.
type Streams interface {
	// Exec runs cmd in a running container; a non-zero exit is an error
	// implementing k8s.io/utils/exec.ExitError (CodeExitError), which
	// virtual-kubelet reports as NonZeroExitCode with the code, so that
	// kubectl exec exits with it.
	Exec(ctx context.Context, namespace, pod, container string, cmd []string, stdin io.Reader, stdout, stderr io.Writer) error
	// Attach streams the container's output until it exits.
	Attach(ctx context.Context, namespace, pod, container string, stdout, stderr io.Writer) error
	// PortForward serves one forwarded connection to port.
	PortForward(ctx context.Context, namespace, pod string, port int32, stream io.ReadWriteCloser) error
}

// ContainerFinder is implemented by a Streams backend that knows, before
// a stream is upgraded, whether it has the pod and whether the container
// runs. Exec and attach then answer as the kubelet's server does for a pod
// it does not have (server.go getExec: 404 "pod does not exist") or a
// container that does not run, such as one of an evicted pod or a pod its
// node shut down (kubelet_pods.go GetExec/GetAttach, written as a 500 by
// streaming.WriteError): kubectl shows "unable to upgrade connection:
// container not found ("<c>")".
type ContainerFinder interface {
	FindContainer(namespace, pod, container string) (podFound, running bool)
}

// ErrNoStreams is what exec, attach and port-forward answer for a backend
// without Streams.
var ErrNoStreams = errors.New("streaming is not supported by this node")

// Handler returns the kubelet API routes of one node, without auth. The
// routes are registered one by one with node/api's handlers instead of
// through api.PodHandler, because PodHandler passes the port-forward idle
// and creation timeouts in swapped order, and AttachPodMetricsRoutes
// registers "/" twice.
func Handler(b Backend) http.Handler {
	r := mux.NewRouter()
	r.StrictSlash(true)
	r.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok")
	}).Methods(http.MethodGet)
	r.HandleFunc("/pods", api.HandleRunningPods(b.GetPods)).Methods(http.MethodGet)
	r.HandleFunc("/containerLogs/{namespace}/{pod}/{container}", func(w http.ResponseWriter, req *http.Request) {
		// virtual-kubelet's ContainerLogOpts.Tail is 0 both for tailLines
		// unset and for tailLines=0; the kubelet prints nothing for 0
		// (kuberuntime/logs NewLogOptions: tail 0 of a set TailLines), so
		// whether it was given is read from the query (issue 21, B16).
		tailSet := req.URL.Query().Get("tailLines") != ""
		api.HandleContainerLogs(func(ctx context.Context, namespace, pod, container string, opts api.ContainerLogOpts) (io.ReadCloser, error) {
			buf, err := b.ContainerLogs(namespace, pod, container, opts.Previous)
			if err != nil {
				return nil, err
			}
			return buf.Reader(ctx, logs.Options{
				Tail:         opts.Tail,
				TailSet:      tailSet,
				LimitBytes:   opts.LimitBytes,
				Timestamps:   opts.Timestamps,
				Follow:       opts.Follow,
				SinceSeconds: opts.SinceSeconds,
				SinceTime:    opts.SinceTime,
			}, b.Now()), nil
		})(w, req)
	}).Methods(http.MethodGet)
	streams, _ := b.(Streams)
	noStreams := func(what string) error {
		return errdefs.AsInvalidInput(fmt.Errorf("%s: %w", what, ErrNoStreams))
	}
	finder, _ := b.(ContainerFinder)
	r.HandleFunc("/exec/{namespace}/{pod}/{container}", beforeUpgrade(finder, func(container, pod, namespace string) string {
		return fmt.Sprintf("container not found (%q)", container)
	}, api.HandleContainerExec(
		func(ctx context.Context, namespace, pod, container string, cmd []string, attach api.AttachIO) error {
			if streams == nil {
				return noStreams("exec")
			}
			return streams.Exec(ctx, namespace, pod, container, cmd, attach.Stdin(), writerOrNil(attach.Stdout()), writerOrNil(attach.Stderr()))
		},
		api.WithExecStreamCreationTimeout(StreamCreationTimeout),
		api.WithExecStreamIdleTimeout(StreamIdleTimeout),
	))).Methods(http.MethodPost, http.MethodGet)
	r.HandleFunc("/attach/{namespace}/{pod}/{container}", beforeUpgrade(finder, func(container, pod, namespace string) string {
		// kubecontainer.GetPodFullName: <name>_<namespace>.
		return fmt.Sprintf("container %s not found in pod %s_%s", container, pod, namespace)
	}, api.HandleContainerAttach(
		func(ctx context.Context, namespace, pod, container string, attach api.AttachIO) error {
			if streams == nil {
				return noStreams("attach")
			}
			return streams.Attach(ctx, namespace, pod, container, writerOrNil(attach.Stdout()), writerOrNil(attach.Stderr()))
		},
		api.WithExecStreamCreationTimeout(StreamCreationTimeout),
		api.WithExecStreamIdleTimeout(StreamIdleTimeout),
	))).Methods(http.MethodPost, http.MethodGet)
	r.HandleFunc("/portForward/{namespace}/{pod}", api.HandlePortForward(
		func(ctx context.Context, namespace, pod string, port int32, stream io.ReadWriteCloser) error {
			if streams == nil {
				return noStreams("port-forward")
			}
			return streams.PortForward(ctx, namespace, pod, port, stream)
		},
		api.WithPortForwardStreamIdleTimeout(StreamIdleTimeout),
		api.WithPortForwardCreationTimeout(StreamCreationTimeout),
	)).Methods(http.MethodPost, http.MethodGet)
	r.NotFoundHandler = http.HandlerFunc(api.NotFound)
	return r
}

// beforeUpgrade answers an exec or attach request the kubelet would refuse
// before the stream upgrade (see ContainerFinder); notRunning is the
// error text for a container that does not run. Without a finder every
// request goes to next.
func beforeUpgrade(finder ContainerFinder, notRunning func(container, pod, namespace string) string, next http.HandlerFunc) http.HandlerFunc {
	if finder == nil {
		return next
	}
	return func(w http.ResponseWriter, req *http.Request) {
		v := mux.Vars(req)
		podFound, running := finder.FindContainer(v["namespace"], v["pod"], v["container"])
		switch {
		case !podFound:
			writeError(w, http.StatusNotFound, "pod does not exist")
		case !running:
			writeError(w, http.StatusInternalServerError, notRunning(v["container"], v["pod"], v["namespace"]))
		default:
			next(w, req)
		}
	}
}

// writeError writes msg as the kubelet's server does (plain text, no
// trailing newline).
func writeError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg)
}

// ClientCA returns the provider of the CA that verifies client
// certificates, shared by all nodes.
func ClientCA(file string) (dynamiccertificates.CAContentProvider, error) {
	if file == "" {
		return nil, nil
	}
	p, err := dynamiccertificates.NewDynamicCAContentFromFile("client-ca", file)
	if err != nil {
		return nil, fmt.Errorf("client CA %s: %w", file, err)
	}
	return p, nil
}

// WebhookAuth is the kubelet's webhook authn/authz for node nodeName:
// client certificates verified against clientCA (nil: certificates are not
// accepted), bearer tokens through TokenReview, every request authorised by
// SubjectAccessReview on nodes/<subresource>.
// Chains that verified are remembered in certs (shared by one simnode's
// nodes; nil for none).
func WebhookAuth(client kubernetes.Interface, nodeName string, clientCA dynamiccertificates.CAContentProvider, certs *VerifiedCerts) (nodeutil.Auth, error) {
	auth, err := nodeutil.WebhookAuth(client, nodeName, func(c *nodeutil.WebhookAuthConfig) error {
		if clientCA != nil {
			c.AuthnConfig.ClientCertificateCAContentProvider = clientCA
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("kubelet API auth for %s: %w", nodeName, err)
	}
	if certs != nil {
		auth = certs.Wrap(auth)
	}
	return auth, nil
}

// Listen binds host:port, or a free port of host when port is taken, and
// returns the listener and the port actually bound.
func Listen(host string, port int) (net.Listener, int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		l, err = net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			return nil, 0, fmt.Errorf("kubelet API listener on %s: %w", host, err)
		}
	}
	return l, l.Addr().(*net.TCPAddr).Port, nil
}

// Server is one node's kubelet API server.
type Server struct {
	srv *http.Server
	l   net.Listener
}

// NewServer serves handler, wrapped in auth, with cert on l. Client
// certificates are requested (not required: bearer tokens work too) and
// verified by the authenticator.
func NewServer(l net.Listener, cert tls.Certificate, auth nodeutil.Auth, handler http.Handler, log *slog.Logger) *Server {
	tlsConfig := &tls.Config{
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{cert},
		ClientAuth:   tls.RequestClientCert,
		NextProtos:   []string{"http/1.1"},
	}
	return &Server{
		l: l,
		srv: &http.Server{
			Handler:           nodeutil.WithAuth(auth, handler),
			TLSConfig:         tlsConfig,
			ReadHeaderTimeout: 30 * time.Second,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
		},
	}
}

// Serve runs until ctx is done.
func (s *Server) Serve(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.srv.ServeTLS(s.l, "", "") }()
	select {
	case <-ctx.Done():
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.srv.Shutdown(shutdownCtx)
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("kubelet API: %w", err)
	}
}

// writerOrNil turns a nil stream (the client did not ask for it) into a nil
// io.Writer (an interface holding a nil pointer is not nil).
func writerOrNil(w io.WriteCloser) io.Writer {
	if w == nil {
		return nil
	}
	return w
}
