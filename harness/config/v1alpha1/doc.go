// Package v1alpha1 is the wink.dev/v1alpha1 cluster configuration: the types
// of wink.yaml (types.go), their defaults (default.go) and their validation
// (validate.go), kept apart as in kind's config API.
package v1alpha1
