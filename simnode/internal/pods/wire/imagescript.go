package wire

import (
	"path"
	"strings"

	"wink.dev/wink/simnode/internal/pods"
)

// imageScript reports whether argv is a Windows image's own startup
// script run by busybox-w32 sh: the image's ENTRYPOINT and CMD, such as
// the e2e nginx and httpd images' `/bin/sh -c " cd /usr/share/nginx &&
// ./nginx.exe"` (test/images/nginx/Dockerfile_windows). It starts the
// image's server over files wink does not know (open world, row E): the
// process runs until stopped, as the image's server does, instead of the
// shell failing on a directory or program of the image.
func imageScript(env *pods.Env, argv []string) bool {
	if env.OS != "windows" || !env.ImageCommand || len(argv) == 0 {
		return false
	}
	name := strings.ToLower(path.Base(strings.ReplaceAll(argv[0], `\`, "/")))
	switch strings.TrimSuffix(name, ".exe") {
	case "sh", "ash", "bash":
		return true
	}
	return false
}
