// Command image builds wink's OCI image without a Docker daemon (issue 19):
// the static wink binary (CGO_ENABLED=0) and the CA bundle on an empty
// base, entrypoint `/wink simnode`, non-root, written as a `docker load`-able
// tarball and, optionally, as an OCI image layout directory. It is what the
// in-cluster chart (simnode/deploy/chart) runs; `make image` builds both.
//
//	go run ./simnode/deploy/image --binary bin/linux-amd64/wink \
//	    --tag wink.dev/wink:dev --tarball bin/wink-image.tar --layout bin/wink-oci
//
// The image is reproducible: every file has mtime 0 and owner 0:0, so the
// same binary gives the same digest.
package main
