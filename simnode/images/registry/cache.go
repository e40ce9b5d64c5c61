package registry

import (
	"crypto/rand"
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

// Get is the cached manifest of a normalised reference and who it was
// pulled as (a credential's fingerprint or Anonymous), or nil.
func (c *Cache) Get(full string) (*images.Manifest, string, error) {
	data, err := os.ReadFile(c.refPath(full))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	f := strings.Split(strings.TrimSpace(string(data)), " ")
	if len(f) != 4 || f[2] != full {
		// A hash collision, a damaged entry or one written before
		// entries recorded their credential: ask again.
		return nil, "", nil
	}
	index := strings.Contains(f[1], "index") || strings.Contains(f[1], "manifest.list")
	m, err := assemble(f[0], index, c.read)
	if err != nil {
		return nil, "", nil // incomplete: ask again
	}
	return m, f[3], nil
}

// Key is the cache's secret for credential fingerprints (the file key,
// 32 random bytes made once, 0600), so that the cache records who pulled an
// image without anything a password can be recovered from.
func (c *Cache) Key() ([]byte, error) {
	path := filepath.Join(c.Dir, "key")
	if key, err := os.ReadFile(path); err == nil && len(key) == keySize {
		return key, nil
	}
	key := make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(c.Dir, ".key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(key)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	// Link, not rename: of two processes making the key at once, the
	// first one's stays and both read it back.
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	key, err = os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(key) != keySize {
		return nil, fmt.Errorf("cache: %s is damaged (%d bytes, want %d): delete it", path, len(key), keySize)
	}
	return key, nil
}

const keySize = 32

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

// Put stores the blobs of a resolution and then the reference, with who
// it was pulled as.
func (c *Cache) Put(full, digest, mediaType, pulledAs string, blobs map[string][]byte) error {
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
	return write(c.refPath(full), []byte(digest+" "+mediaType+" "+full+" "+pulledAs+"\n"))
}

func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o600)
}
