package process

import (
	"errors"
)

// Network errors a Network returns; commands turn them into the messages the
// real tools print.
var (
	ErrNameNotFound = errors.New("name not found")
	ErrRefused      = errors.New("connection refused")
	ErrUnreachable  = errors.New("destination unreachable")
	ErrTimeout      = errors.New("timed out")
	// ErrUntrustedCert is what Network.HTTP returns for an https URL whose
	// server certificate the container does not trust (insecure == false):
	// curl exit 60, Invoke-WebRequest "Could not establish trust
	// relationship".
	ErrUntrustedCert = errors.New("certificate signed by unknown authority")
)
