package shell

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/simnode/fuzzbound"
	"wink.dev/wink/simnode/shell/process"
)

// The bounds of one FuzzRun case: the process may hold fuzzMemory
// (process.Limits); the heap may grow by fuzzHeap while it runs (what the
// process holds, its output buffers, and what the interpreter keeps
// besides); it may write fuzzOutput per stream in its 100 ms.
const (
	fuzzMemory = 16 << 20
	fuzzHeap   = 256 << 20
	fuzzOutput = 64 << 20
)

// FuzzRun feeds random command lines to cmd /c, powershell -Command and
// sh -c: Run must neither panic nor hang past its context, always return
// an exit code, and stay within its bounds (issue 18): the heap grows by
// at most fuzzHeap while it runs, no write is larger than
// process.MaxWrite and all it writes is at most fuzzOutput.
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
		// hostile loops (issue 18): they must stay within the bounds
		"x=x; while :; do x=$x$x; done", ":a & goto a", "set x=x\n:a\nset x=%x%%x%\ngoto a", "$s='x'; while($true){$s+=$s}",
		"while ($true) { Start-Process cmd -ArgumentList '/c', 'ping -t 10.0.0.99' }", "class C { [string] ToString() { return '}' } }",
		"'v1.2' -match 'v(\\d)'; $Matches.1", "for ($i=0; $i -lt 3; $i++, ($j = $i)) { }", "Get-ChildItem env:, variable:, function:, HKLM:\\SOFTWARE",
		"yes", "yes | cat", `awk 'BEGIN{x="a"; while(1) x=x x}'`, `awk 'BEGIN{while(1);}'`, "printf \"%05d\\n\" 42", "while :; do printf x; done", "for /L %i in (1,0,2) do @echo y",
		// applets and bash's <(list)
		"find / -name '*.txt' -exec cat {} +", "find -L / -type l", "ln -s / /data/loop; find -L /data", "od -c /data/hello.txt", "yes | head -c 100000 | od -An -tx1 | tail -n2",
		"cat <(echo a) <(yes | head -n 3)", "sort -t: -k3,3nr -k1 /data/hello.txt", "sha256sum /data/hello.txt | sha256sum -c", "date -d '1 day ago' +%F%n%s", "readlink -f /data/../data/./x",
		"mklink /J C:\\rw\\loop C:\\rw & dir /s C:\\rw & icacls C:\\rw /grant Users:F /T & xcopy /s C:\\rw C:\\rw2\\", "Get-ChildItem C:\\ -Recurse -Name -Filter *.txt",
		"icacls C:\\rw /inheritance:d /grant *S-1-1-0:(OI)(CI)(d,wdac) /deny Users:W /remove:g Everyone /q", "ls -lL / /data/",
		"stat -c '%n %s %A %F' /data /data/hello.txt", "du -ah / | sort -h", "mktemp -d; touch -t 202401010000 /tmp/x; echo -en 'a\\tb\\c'", "uniq -c -f1 -s2 /data/hello.txt",
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
			fx.env.Limits.Memory = fuzzMemory
			var stdout, stderr fuzzbound.Writer
			what := fmt.Sprintf("%q", argv)
			start := time.Now()
			fuzzbound.Run(t, what, 5*time.Second, fuzzHeap, func() {
				Run(ctx, fx.env, argv, strings.NewReader("input line\n"), &stdout, &stderr)
			})
			if d := time.Since(start); d > 3*time.Second {
				t.Fatalf("%s took %v after a 100ms context", what, d)
			}
			stdout.Check(t, what+" stdout", process.MaxWrite, fuzzOutput)
			stderr.Check(t, what+" stderr", process.MaxWrite, fuzzOutput)
			cancel()
		}
	})
}
