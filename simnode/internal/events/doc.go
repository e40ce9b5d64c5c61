// Package events wraps the event recorder handed to virtual-kubelet so that
// only events a real kubelet emits reach the API: virtual-kubelet's own
// Provider* events (ProviderCreateSuccess, ProviderDeleteSuccess, ...) are
// dropped.
package events
