package reference

import "wink.dev/wink/simnode/images"

// Catalog is wink's image catalog (fixtures/images.yaml), the one the
// simulated nodes pull with: the validating webhook asks it which Windows
// builds an image has and which host builds run them (row B4), so the
// webhook and the nodes decide alike.
type Catalog = images.Catalog

// DefaultCatalog is the embedded catalog.
func DefaultCatalog() (*Catalog, error) { return images.Default(), nil }
