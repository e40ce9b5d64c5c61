package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"wink.dev/wink/simnode/atomicfile"
	"wink.dev/wink/simnode/images"
)

// Cache is the on-disk, content-addressed cache of registry answers (see
// the package doc for its layout). Writers write to a temporary file and
// rename, so clusters sharing it never read a partial file.
type Cache struct {
	Dir string
}

func (c *Cache) blob(digest string) (string, error) {
	algo, hexPart, ok := strings.Cut(digest, ":")
	if !ok || algo != "sha256" || len(hexPart) != 64 {
		return "", fmt.Errorf("cache: bad digest %q", digest)
	}
	if _, err := hex.DecodeString(hexPart); err != nil {
		return "", fmt.Errorf("cache: bad digest %q", digest)
	}
	return filepath.Join(c.Dir, "blobs", algo, hexPart), nil
}

func (c *Cache) refPath(full string) string {
	sum := sha256.Sum256([]byte(full))
	return filepath.Join(c.Dir, "refs", hex.EncodeToString(sum[:]))
}

// Get is the cached manifest of a normalised reference, or nil.
func (c *Cache) Get(full string) (*images.Manifest, error) {
	data, err := os.ReadFile(c.refPath(full))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	f := strings.SplitN(strings.TrimSpace(string(data)), " ", 3)
	if len(f) != 3 || f[2] != full {
		return nil, nil // a hash collision or a damaged entry: ask again
	}
	index := strings.Contains(f[1], "index") || strings.Contains(f[1], "manifest.list")
	m, err := assemble(f[0], index, c.read)
	if err != nil {
		return nil, nil // incomplete: ask again
	}
	return m, nil
}

// read is a blob, checked against its digest; nil when absent.
func (c *Cache) read(digest string) ([]byte, error) {
	p, err := c.blob(digest)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); "sha256:"+hex.EncodeToString(sum[:]) != digest {
		return nil, fmt.Errorf("cache: blob %s does not match its digest", digest)
	}
	return data, nil
}

// Put stores the blobs of a resolution and then the reference.
func (c *Cache) Put(full, digest, mediaType string, blobs map[string][]byte) error {
	for d, b := range blobs {
		if sum := sha256.Sum256(b); "sha256:"+hex.EncodeToString(sum[:]) != d {
			return fmt.Errorf("cache: blob %s does not match its digest", d)
		}
		p, err := c.blob(d)
		if err != nil {
			return err
		}
		if _, err := os.Stat(p); err == nil {
			continue
		}
		if err := write(p, b); err != nil {
			return err
		}
	}
	return write(c.refPath(full), []byte(digest+" "+mediaType+" "+full+"\n"))
}

func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o600)
}
