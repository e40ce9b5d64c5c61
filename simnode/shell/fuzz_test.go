package shell

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// capWriter keeps at most max bytes (endless loops write a lot).
type capWriter struct {
	n, max int
}

func (c *capWriter) Write(b []byte) (int, error) {
	c.n += len(b)
	return len(b), nil
}

// FuzzRun feeds random command lines to cmd /c, powershell -Command and
// sh -c: Run must neither panic nor hang past its context, and always
// return an exit code.
//
//	go test ./simnode/shell -run '^$' -fuzz FuzzRun -fuzztime 60s
func FuzzRun(f *testing.F) {
	for _, seed := range []string{
		"", "echo hi", "echo %USERNAME% & exit /b 3", "(echo a & echo b) > C:\\rw\\x", "set /a (1+2", "if exist C:\\x (echo y) else echo n",
		"type C:\\data\\hello.txt | more", "echo \"unterminated", "^", "&&", "||", ")(", "%", "%%", "cmd /c cmd /c echo deep",
		"ping -n 2 10.244.1.6", "curl.exe -4 10.244.1.6 --connect-timeout 10 --fail", "nslookup kubernetes", "ipconfig /all",
		"$x = 1; while ($x -lt 5) { $x += 1 }; $x", "Write-Host ('{0}' -f 1)", "@{a=1}.a", "[int]'x'", "function f { f }; f",
		"if (", "\"$(\"", "$env:X = 'y'; $env:X", "Test-NetConnection web -Port 80", "1..3 | % { $_ }", "'a' * 1000000",
		"<# x", "@'\nx\n'@", "throw", "exit 300", "while ($true) { }", "& { & { & { 1 } } }", "$a = @(); $a[5]",
		"while true; do echo x; done", "trap 'exit 0' TERM; sleep inf", "echo ${x:-y} $((1/0))", "cat <<EOF", "for i in; do; done",
		"a=$(echo $(echo $(echo x))); echo $a", "(((", "{ echo }", "! true", "echo `date`", "exec sh -c 'exit 4'",
		"nc -vz 10.244.1.5 80 -w 1", "wget -q -O- http://web/", ". /data/self.sh",
	} {
		f.Add(seed)
	}
	recoverPanics = false
	defer func() { recoverPanics = true }()
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 4096 {
			return
		}
		for _, argv := range [][]string{
			{"cmd", "/c", line},
			{"powershell", "-Command", line},
			{"sh", "-c", line},
		} {
			os := Windows
			if argv[0] == "sh" {
				os = Linux
			}
			fx := newFixture(os)
			fx.fs.add("/data/self.sh", ". /data/self.sh\n")
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			fx.clock.cancel = cancel
			fx.clock.limit = fakeEpoch.Add(time.Hour)
			done := make(chan struct{})
			start := time.Now()
			go func() {
				defer close(done)
				Run(ctx, fx.env, argv, strings.NewReader("input line\n"), &capWriter{}, io.Discard)
			}()
			select {
			case <-done:
				if d := time.Since(start); d > 3*time.Second {
					t.Fatalf("%q took %v after a 100ms context", argv, d)
				}
			case <-time.After(5 * time.Second):
				cancel()
				t.Fatalf("%q hangs after its context ended", argv)
			}
			cancel()
		}
	})
}
