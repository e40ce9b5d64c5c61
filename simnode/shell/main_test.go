package shell

import (
	"os"
	"testing"

	"wink.dev/wink/simnode/shell/programs/awk"
)

// TestMain serves awk's child process (issue 18: awk runs in a bounded
// child, the test binary re-executed in its hidden mode).
func TestMain(m *testing.M) {
	if code, ok := awk.ServeAwk(); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}
