// Package network are the network programs of wink's simulated images:
// nettools.go (ipconfig, ping, curl, wget, nslookup, nltest, nc), dig.go
// (dig over the cluster DNS's messages; rows H1–H6) and agnhost, the
// Kubernetes e2e image's multi-call binary (agnhost*.go: netexec,
// serve-hostname, mounttest, the OIDC discovery client, the webhook).
// Listens and Listeners tell the ports a command listens on.
package network
