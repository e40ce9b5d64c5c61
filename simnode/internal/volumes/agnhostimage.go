package volumes

import (
	"strings"

	"wink.dev/wink/simnode/agnhost"
)

// seedAgnhostImage writes the files the agnhost image adds at its root on
// Linux and Windows (test/images/agnhost/Dockerfile and Dockerfile_windows:
// ADD porter/localhost.crt localhost.crt, ADD porter/localhost.key
// localhost.key): porter's TLS pair, the same one its servers present
// (simnode/agnhost LocalhostCert). Upstream's StatefulSet specs probe
// readiness with GET /localhost.crt on test-webserver, a file server of
// "/", and break the probe with `mv -v /localhost.crt /tmp/`. Row E
// (the e2e images; kubelet versions: all).
func seedAgnhostImage(s *store, image string) {
	if !strings.Contains(strings.ToLower(image), "e2e-test-images/agnhost") {
		return
	}
	cert, key := agnhost.LocalhostCert()
	_ = s.put([]string{"localhost.crt"}, kindFile, cert, 0o644)
	_ = s.put([]string{"localhost.key"}, kindFile, key, 0o600)
}
