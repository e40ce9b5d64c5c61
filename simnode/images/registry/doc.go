// Package registry resolves what an image is from its registry, with
// go-containerregistry, for wink's simulated containerd (row B4 of the
// behaviour catalog, reports/spec/windows-behaviors.md): the first pull of a
// reference on a node reads its manifest (list) and each platform's config
// (ENTRYPOINT, CMD, Env, WorkingDir, User, ExposedPorts; os, os.version,
// architecture) as an images.Manifest, which images.Catalog.Pull turns into
// the image the node runs or containerd's error.
//
// Credentials are the kubelet's: the pod's imagePullSecrets first, then the
// docker config of the user running wink (authn.DefaultKeychain).
//
// Answers are kept on disk under the wink home ($WINK_HOME/cache/images),
// shared by every cluster and content-addressed like containerd's content
// store:
//
//	blobs/sha256/<hex>   manifests, indexes and configs, as the registry sent them
//	refs/<sha256 of ref> "<digest> <media type> <ref> <pulled as>" of a resolved reference
//	key                  the secret of the credential fingerprints
//
// so a second run resolves from disk without the network. An answer keeps
// who it was pulled as: "anonymous", or an HMAC (keyed by the cache's key)
// of the credential the registry was sent. An anonymous answer is served to
// every pull; any other only to a pull with the same credential, and a pull
// with another credential, or none, asks the registry again and is refused
// where a kubelet whose pull secret is wrong or missing would be. The offline seed
// of that cache, and the place for what a registry cannot say (simulated
// output, sizes), is the catalog fixtures/images.yaml.
//
// A registry that does not answer (no route, DNS, timeout, 5xx) within
// Resolver.Timeout (default 3s) is Unavailable: the caller falls back to the
// catalog and warns once. Such failures are remembered for NegativeTTL
// (default 1m), so a dead registry costs one wait per reference, not one per
// pull. A registry that answers "not found" or refuses the credentials is
// the truth: the pull fails with containerd's text (v1.7.27
// remotes/docker/resolver.go).
package registry
