package shell

import (
	"testing"
)

// TestAgnhostMounttest checks the lines e2e's volume specs match
// (common/storage: "content of file", getFileModeRegex's "mode of Windows
// file ...: -rwxrwxr-x") and failures on read-only mounts (B11).
func TestAgnhostMounttest(t *testing.T) {
	runCases(t, []tcase{
		{name: "content and mode", argv: []string{"/agnhost", "mounttest", "--file_content=C:\\data\\hello.txt", "--file_mode=C:\\data\\hello.txt"},
			out: "mode of Windows file \"C:\\\\data\\\\hello.txt\": -rwxrwxr-x\ncontent of file \"C:\\\\data\\\\hello.txt\": hello from a configmap\r\n\n"},
		{name: "new file", argv: []string{"agnhost", "mounttest", "--new_file_0644=C:\\data\\new", "--file_perm=C:\\data\\new"},
			out: "content of file \"C:\\\\data\\\\new\": mount-tester new file\n\nperms of Windows file \"C:\\\\data\\\\new\": -rwxrwxr-x\n"},
		{name: "missing file", argv: []string{"agnhost", "mounttest", "--file_content=C:\\nope"}, code: 1,
			outHas: []string{"error reading file content for \"C:\\\\nope\": open C:\\nope: The system cannot find the file specified."}},
		{name: "loop until expected content", argv: []string{"agnhost", "mounttest", "--file_content_in_loop=C:\\data\\hello.txt", "--retry_time=6"},
			outHas: []string{"content of file \"C:\\\\data\\\\hello.txt\": hello from a configmap", "Unexpected content. Expected: mount-tester new file"}},
		{name: "linux content", os: Linux, argv: []string{"/agnhost", "mounttest", "--file_content=/data/x"}, setup: func(f *fixture) { f.fs.add("/data/x", "value-1") },
			out: "content of file \"/data/x\": value-1\n"},
	})
}
