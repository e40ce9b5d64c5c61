// Package deploy holds the manifests that run wink's reference webhook on a
// cluster (kind): webhook.yaml, and the Dockerfile of its image.
package deploy

import _ "embed"

// Manifest is webhook.yaml.
//
//go:embed webhook.yaml
var Manifest []byte
