package simnode

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// TestOwnStateDir: the state volume's root is made the given owner's with
// mode 0750, created when missing, and left alone when already theirs (a
// replica back on its volume); a bad owner is refused.
func TestOwnStateDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	uid, gid := os.Getuid(), os.Getgid()
	if err := OwnStateDir(dir, strconv.Itoa(uid)+":"+strconv.Itoa(gid)); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if int(st.Uid) != uid || int(st.Gid) != gid || fi.Mode().Perm() != 0o750 {
		t.Errorf("state dir %d:%d %v, want %d:%d 0750", st.Uid, st.Gid, fi.Mode().Perm(), uid, gid)
	}
	// Already the owner's: its mode is simnode's business.
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := OwnStateDir(dir, strconv.Itoa(uid)+":"+strconv.Itoa(gid)); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode of a directory already the owner's: %v, want it left 0700", fi.Mode().Perm())
	}
	if uid == 0 {
		// As the chart's init container runs it: root hands the volume
		// to simnode's user.
		if err := OwnStateDir(dir, "65532:65532"); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(dir)
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65532 || st.Gid != 65532 {
			t.Errorf("state dir %d:%d, want 65532:65532", st.Uid, st.Gid)
		}
	}
	for _, bad := range []string{"", "65532", "a:b", "-1:0"} {
		if err := OwnStateDir(dir, bad); err == nil {
			t.Errorf("OwnStateDir(%q) = nil, want an error", bad)
		}
	}
}
