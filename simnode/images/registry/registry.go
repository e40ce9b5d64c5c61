package registry

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	kauth "github.com/google/go-containerregistry/pkg/authn/kubernetes"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
	"golang.org/x/sync/singleflight"
	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/images"
)

// Defaults of a Resolver.
const (
	DefaultTimeout     = 3 * time.Second
	DefaultNegativeTTL = time.Minute
)

// Resolver resolves references to images.Manifest through the cache and,
// unless Offline, the registry. Safe for concurrent use; one per simnode
// process, shared by its nodes.
type Resolver struct {
	// Cache is the on-disk cache; nil keeps answers in memory only.
	Cache *Cache
	// Offline never asks a registry: a reference the cache does not hold
	// resolves to nil (the catalog decides).
	Offline bool
	// Timeout bounds one resolution (all its requests); NegativeTTL is how
	// long an unavailable registry is not asked again for a reference.
	Timeout     time.Duration
	NegativeTTL time.Duration
	// Keychain is the user's credentials after the pod's pull secrets;
	// default authn.DefaultKeychain (the docker config).
	Keychain authn.Keychain
	// Transport, when set, carries the registry requests (tests).
	Transport http.RoundTripper

	once  sync.Once
	group singleflight.Group
	mu    sync.Mutex
	mem   map[string]answer
	neg   map[string]time.Time
	// warned: until when a reference's unavailability has been reported.
	warned map[string]time.Time
	now    func() time.Time

	keyOnce sync.Once
	key     []byte
	keyErr  error
}

// Unavailable is a registry that did not answer: the caller uses the
// catalog. First is true for the first such answer in a NegativeTTL window
// (the one that deserves a Warning event); later calls in the window get
// the remembered failure without asking again.
type Unavailable struct {
	Ref   string
	Err   error
	First bool
}

func (e *Unavailable) Error() string {
	return fmt.Sprintf("registry of %s did not answer: %v", e.Ref, e.Err)
}

func (e *Unavailable) Unwrap() error { return e.Err }

func (r *Resolver) init() {
	r.once.Do(func() {
		r.mem = map[string]answer{}
		r.neg = map[string]time.Time{}
		r.warned = map[string]time.Time{}
		if r.now == nil {
			r.now = time.Now
		}
		if r.Timeout <= 0 {
			r.Timeout = DefaultTimeout
		}
		if r.NegativeTTL <= 0 {
			r.NegativeTTL = DefaultNegativeTTL
		}
		if r.Keychain == nil {
			r.Keychain = authn.DefaultKeychain
		}
	})
}

// Resolve returns what the registry says of ref, pulled with the pod's
// pull secrets. Errors: an *images.PullError when the registry answered
// that the pull fails (not found, credentials refused), *Unavailable when
// it did not answer. A nil manifest and nil error: offline and not cached.
func (r *Resolver) Resolve(ctx context.Context, ref string, secrets []corev1.Secret) (*images.Manifest, error) {
	r.init()
	full, err := images.Normalise(ref)
	if err != nil {
		return nil, nil // the catalog reports the kubelet's InvalidImageName
	}
	r.mu.Lock()
	known, ok := r.mem[full]
	r.mu.Unlock()
	if ok && known.pulledAs == Anonymous {
		return known.m, nil
	}
	parsed, err := name.ParseReference(full)
	if err != nil {
		return nil, images.NotFound(full)
	}
	keychain := r.keychain(ctx, secrets)
	as, err := r.pullAs(parsed, keychain)
	if err != nil {
		return nil, &Unavailable{Ref: full, Err: err, First: true}
	}
	if ok && known.pulledAs == as {
		return known.m, nil
	}
	r.mu.Lock()
	if until, ok := r.neg[full]; ok && r.now().Before(until) {
		first := !r.now().Before(r.warned[full])
		if first {
			r.warned[full] = until
		}
		r.mu.Unlock()
		return nil, &Unavailable{Ref: full, Err: errors.New("no answer recently; not asked again yet"), First: first}
	}
	r.mu.Unlock()

	v, err, _ := r.group.Do(full+" "+as, func() (any, error) {
		if r.Cache != nil {
			m, cachedAs, err := r.Cache.Get(full)
			if err != nil {
				return answer{}, err
			}
			if m != nil && (cachedAs == Anonymous || cachedAs == as) {
				return answer{m: m, pulledAs: cachedAs}, nil
			}
		}
		if r.Offline {
			return answer{}, nil
		}
		m, err := r.fetch(ctx, parsed, full, keychain, as)
		if err != nil {
			var un *Unavailable
			if errors.As(err, &un) {
				r.mu.Lock()
				r.neg[full] = r.now().Add(r.NegativeTTL)
				r.mu.Unlock()
			}
			return answer{}, err
		}
		return answer{m: m, pulledAs: as}, nil
	})
	if un := (*Unavailable)(nil); errors.As(err, &un) {
		// Callers that shared one fetch share its error: only the first
		// of them in the window is told to warn.
		r.mu.Lock()
		first := !r.now().Before(r.warned[full])
		if first {
			r.warned[full] = r.now().Add(r.NegativeTTL)
		}
		r.mu.Unlock()
		return nil, &Unavailable{Ref: un.Ref, Err: un.Err, First: first}
	}
	if err != nil {
		return nil, err
	}
	a := v.(answer)
	if a.m != nil {
		r.mu.Lock()
		r.mem[full] = a
		r.mu.Unlock()
	}
	return a.m, nil
}

// Anonymous is who an answer pulled without credentials was pulled as.
const Anonymous = "anonymous"

// answer is a resolution and who it was pulled as.
type answer struct {
	m        *images.Manifest
	pulledAs string
}

// keychain is the kubelet's: the pod's pull secrets, then the user's.
func (r *Resolver) keychain(ctx context.Context, secrets []corev1.Secret) authn.Keychain {
	if len(secrets) > 0 {
		if kc, err := kauth.NewFromPullSecrets(ctx, secrets); err == nil {
			return authn.NewMultiKeychain(kc, r.Keychain)
		}
	}
	return r.Keychain
}

// pullAs is who a pull of ref with keychain is made as: Anonymous, or an
// HMAC of the credential the registry would be sent (never the credential).
func (r *Resolver) pullAs(ref name.Reference, keychain authn.Keychain) (string, error) {
	auth, err := keychain.Resolve(ref.Context())
	if err != nil || auth == authn.Anonymous {
		return Anonymous, nil
	}
	cfg, err := auth.Authorization()
	if err != nil {
		return Anonymous, nil
	}
	if *cfg == (authn.AuthConfig{}) {
		return Anonymous, nil
	}
	key, err := r.fingerprintKey()
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s\x00%s\x00%s\x00%s\x00%s\x00%s", ref.Context().RegistryStr(),
		cfg.Username, cfg.Password, cfg.Auth, cfg.IdentityToken, cfg.RegistryToken)
	return "hmac-sha256:" + hex.EncodeToString(mac.Sum(nil)), nil
}

// fingerprintKey is the cache's key, or one for this process when answers
// are kept in memory only.
func (r *Resolver) fingerprintKey() ([]byte, error) {
	r.keyOnce.Do(func() {
		if r.Cache != nil {
			r.key, r.keyErr = r.Cache.Key()
			return
		}
		r.key = make([]byte, keySize)
		_, r.keyErr = rand.Read(r.key)
	})
	return r.key, r.keyErr
}

// fetch asks the registry as keychain (pulledAs) and stores the answer in
// the cache.
func (r *Resolver) fetch(ctx context.Context, ref name.Reference, full string, keychain authn.Keychain, pulledAs string) (*images.Manifest, error) {
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	opts := []remote.Option{remote.WithContext(ctx), remote.WithAuthFromKeychain(keychain)}
	if r.Transport != nil {
		opts = append(opts, remote.WithTransport(r.Transport))
	}
	desc, err := remote.Get(ref, opts...)
	if err != nil {
		return nil, classify(full, ref, err)
	}
	blobs := map[string][]byte{desc.Digest.String(): desc.Manifest}
	add := func(img v1.Image) error {
		raw, err := img.RawManifest()
		if err != nil {
			return err
		}
		mf, err := v1.ParseManifest(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		cfg, err := img.RawConfigFile()
		if err != nil {
			return err
		}
		d, err := img.Digest()
		if err != nil {
			return err
		}
		blobs[d.String()] = raw
		blobs[mf.Config.Digest.String()] = cfg
		return nil
	}
	switch {
	case desc.MediaType.IsIndex():
		idx, err := v1.ParseIndexManifest(bytes.NewReader(desc.Manifest))
		if err != nil {
			return nil, &Unavailable{Ref: full, Err: err}
		}
		for _, m := range idx.Manifests {
			if !wanted(m) {
				continue
			}
			img, err := remote.Image(ref.Context().Digest(m.Digest.String()), opts...)
			if err == nil {
				err = add(img)
			}
			if err != nil {
				return nil, classify(full, ref, err)
			}
		}
	case desc.MediaType.IsImage():
		img, err := desc.Image()
		if err == nil {
			err = add(img)
		}
		if err != nil {
			return nil, classify(full, ref, err)
		}
	default:
		return nil, &Unavailable{Ref: full, Err: fmt.Errorf("unsupported media type %s", desc.MediaType)}
	}
	get := func(d string) ([]byte, error) {
		if b, ok := blobs[d]; ok {
			return b, nil
		}
		return nil, nil
	}
	m, err := assemble(desc.Digest.String(), desc.MediaType.IsIndex(), get)
	if err != nil {
		return nil, &Unavailable{Ref: full, Err: err}
	}
	if r.Cache != nil {
		// A cache that cannot be written costs the next run a request,
		// nothing else.
		_ = r.Cache.Put(full, desc.Digest.String(), string(desc.MediaType), pulledAs, blobs)
	}
	return m, nil
}

// wanted reports whether an index entry can be a simulated node's image:
// Windows or Linux on amd64 (attestations and other architectures are not
// fetched).
func wanted(d v1.Descriptor) bool {
	if !d.MediaType.IsImage() {
		return false
	}
	p := d.Platform
	if p == nil {
		return true
	}
	return facts.OS(p.OS).Valid() && (p.Architecture == "" || p.Architecture == "amd64")
}

// classify turns a registry error into the pull's outcome: what the
// registry answered (not found, refused) fails the pull as on a real node;
// anything else is an unavailable registry.
func classify(full string, ref name.Reference, err error) error {
	var te *transport.Error
	if errors.As(err, &te) {
		switch te.StatusCode {
		case http.StatusNotFound:
			return images.NotFound(full)
		case http.StatusUnauthorized, http.StatusForbidden:
			url := fmt.Sprintf("%s://%s/v2/%s/manifests/%s", ref.Context().Scheme(), ref.Context().RegistryStr(), ref.Context().RepositoryStr(), ref.Identifier())
			return images.Unauthorized(full, url, strconv.Itoa(te.StatusCode)+" "+http.StatusText(te.StatusCode))
		}
	}
	return &Unavailable{Ref: full, Err: err}
}

// assemble builds the Manifest of a root manifest or index from its blobs
// (from the registry or the cache: one code path). get returns nil for a
// blob that was not fetched (a platform not wanted).
func assemble(root string, index bool, get func(digest string) ([]byte, error)) (*images.Manifest, error) {
	raw, err := get(root)
	if err != nil || raw == nil {
		return nil, fmt.Errorf("blob %s: missing (%v)", root, err)
	}
	m := &images.Manifest{Digest: root, List: index}
	if !index {
		p, err := platform(raw, nil, get)
		if err != nil {
			return nil, err
		}
		p.Digest = root
		m.Platforms = append(m.Platforms, p)
		return m, nil
	}
	idx, err := v1.ParseIndexManifest(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	for _, d := range idx.Manifests {
		if !wanted(d) {
			continue
		}
		b, err := get(d.Digest.String())
		if err != nil {
			return nil, err
		}
		if b == nil {
			continue
		}
		p, err := platform(b, d.Platform, get)
		if err != nil {
			return nil, err
		}
		p.Digest = d.Digest.String()
		m.Platforms = append(m.Platforms, p)
	}
	return m, nil
}

// platform reads one image manifest and its config. The index entry's
// platform wins over the config's, as containerd matches on the index.
func platform(raw []byte, plat *v1.Platform, get func(string) ([]byte, error)) (images.RemotePlatform, error) {
	mf, err := v1.ParseManifest(bytes.NewReader(raw))
	if err != nil {
		return images.RemotePlatform{}, err
	}
	cfgRaw, err := get(mf.Config.Digest.String())
	if err != nil || cfgRaw == nil {
		return images.RemotePlatform{}, fmt.Errorf("config %s: missing (%v)", mf.Config.Digest, err)
	}
	cf, err := v1.ParseConfigFile(bytes.NewReader(cfgRaw))
	if err != nil {
		return images.RemotePlatform{}, err
	}
	p := images.RemotePlatform{
		OS: facts.OS(cf.OS), OSVersion: cf.OSVersion, Architecture: cf.Architecture, Variant: cf.Variant,
		ConfigDigest: mf.Config.Digest.String(),
		Entrypoint:   cf.Config.Entrypoint, Cmd: cf.Config.Cmd, Env: cf.Config.Env,
		WorkingDir: cf.Config.WorkingDir, User: cf.Config.User,
	}
	if plat != nil {
		p.OS, p.OSVersion, p.Architecture, p.Variant = facts.OS(plat.OS), plat.OSVersion, plat.Architecture, plat.Variant
	}
	for _, l := range mf.Layers {
		p.Size += l.Size
	}
	for port := range cf.Config.ExposedPorts {
		n, err := strconv.Atoi(strings.SplitN(port, "/", 2)[0])
		if err == nil && n > 0 && n < 65536 {
			p.ExposedPorts = append(p.ExposedPorts, int32(n))
		}
	}
	slices.Sort(p.ExposedPorts)
	return p, nil
}
