package process

import (
	"testing"
)

func TestWinPath(t *testing.T) {
	for _, tc := range []struct{ dir, in, want string }{
		{`C:\`, `/testfile.txt`, `C:\testfile.txt`},
		{`C:\x`, `a\b.txt`, `C:\x\a\b.txt`},
		{`C:\x\y`, `..\z`, `C:\x\z`},
		{`C:\`, `c:/Windows/System32/cmd.exe`, `C:\Windows\System32\cmd.exe`},
		{`C:\`, `d:`, `D:\`},
		{`C:\`, `\\server\share\f`, `\\server\share\f`},
		{`C:\x`, `.\uname.exe`, `C:\x\uname.exe`},
	} {
		if got := winPath(tc.dir, tc.in); got != tc.want {
			t.Errorf("winPath(%q, %q) = %q, want %q", tc.dir, tc.in, got, tc.want)
		}
	}
}
