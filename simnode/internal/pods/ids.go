package pods

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/distribution/reference"
	"wink.dev/wink/simnode/facts"
)

// containerID is the runtime ID of a container instance: containerd://<64 hex>,
// stable for (pod UID, container, restart count) so that a replayed start
// yields the same ID.
func containerID(podUID, container string, restart int32) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("container/%s/%s/%d", podUID, container, restart)))
	return "containerd://" + hex.EncodeToString(sum[:])
}

// imageRefs returns the image as containerd reports it in the container
// status (fully qualified, with tag) and its imageID (repository@digest).
func imageRefs(image string) (ref, id string) {
	named, err := reference.ParseNormalizedNamed(image)
	if err != nil {
		sum := sha256.Sum256([]byte(image))
		return image, image + "@sha256:" + hex.EncodeToString(sum[:])
	}
	if d, ok := named.(reference.Digested); ok {
		return named.String(), named.Name() + "@" + d.Digest().String()
	}
	tagged := reference.TagNameOnly(named)
	sum := sha256.Sum256([]byte("image/" + tagged.String()))
	return tagged.String(), named.Name() + "@sha256:" + hex.EncodeToString(sum[:])
}

// imageSize is a plausible, stable size in bytes for an image: Windows
// images are large (nanoserver ~120 MB, servercore several GB), Linux ones
// small.
func imageSize(imageRef string, os facts.OS) int64 {
	sum := sha256.Sum256([]byte("size/" + imageRef))
	n := int64(binary.BigEndian.Uint32(sum[:4]))
	if os.IsWindows() {
		return 120_000_000 + n%400_000_000
	}
	return 2_000_000 + n%80_000_000
}

// sandboxID is the runtime ID of a pod's sandbox, stable for the pod.
func sandboxID(podUID string) string {
	sum := sha256.Sum256([]byte("sandbox/" + podUID))
	return "containerd://" + hex.EncodeToString(sum[:])
}
