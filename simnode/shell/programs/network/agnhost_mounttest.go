package network

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// agnhostMounttest is `agnhost mounttest` (upstream
// test/images/agnhost/mounttest: mt.go, mt_utils_windows.go), which e2e's
// volume specs (ConfigMap, Secret, downward API, projected, emptyDir) run
// and whose output they match. The steps run in mt.go's order: fs type,
// new files, mode, perms, owner, content, content in a loop. On Windows
// the mode and perms come from the file's ACL (filePermissions.ps1): files
// the kubelet writes into a volume carry the default ACL, read as 0775
// (e2e common/storage/util.go getFileModeRegex expects exactly that);
// owner and fs type print nothing. Exit 1 when any step failed.
func agnhostMounttest(p *process.Proc, flags map[string]string) int {
	failed := false
	errText := func(err error) string {
		if p.Win {
			if errors.Is(err, fs.ErrPermission) {
				return "Access is denied."
			}
			return "The system cannot find the file specified."
		}
		if errors.Is(err, fs.ErrPermission) {
			return "permission denied"
		}
		return "no such file or directory"
	}
	// op is how Go's *fs.PathError starts.
	op := func(verb, path string) string { return verb + " " + path + ": " }
	readContent := func(path string) bool {
		data, err := p.ReadFile(path)
		if err != nil {
			goPrintln(p, fmt.Sprintf("error reading file content for %q: %s%s", path, op("open", path), errText(err)))
			return false
		}
		goPrintln(p, fmt.Sprintf("content of file %q: %s", path, data))
		return true
	}
	if path := flags["--fs_type"]; path != "" && !p.Win {
		goPrintln(p, fmt.Sprintf("mount type of %q: tmpfs", path))
	}
	for _, flag := range []string{"--new_file_0644", "--new_file_0666", "--new_file_0660", "--new_file_0777"} {
		path := flags[flag]
		if path == "" {
			continue
		}
		if err := p.WriteFile(path, []byte(mounttestContent), false); err != nil {
			goPrintln(p, fmt.Sprintf("error writing new file %q: %s%s", path, op("open", path), errText(err)))
			failed = true
			continue
		}
		failed = !readContent(path) || failed
	}
	for _, f := range []struct{ flag, what string }{{"--file_mode", "mode"}, {"--file_perm", "perms"}} {
		path := flags[f.flag]
		if path == "" {
			continue
		}
		if !exists(p, path) {
			goPrintln(p, fmt.Sprintf("error from PowerShell Script: exit status 1, Get-Acl : Cannot find path '%s' because it does not exist.", path))
			failed = true
			continue
		}
		if p.Win {
			goPrintln(p, fmt.Sprintf("%s of Windows file %q: %v", f.what, path, fs.FileMode(0o775)))
		} else {
			goPrintln(p, fmt.Sprintf("%s of file %q: %v", f.what, path, fs.FileMode(0o644)))
		}
	}
	if path := flags["--file_owner"]; path != "" && !p.Win {
		goPrintln(p, fmt.Sprintf("owner UID of %q: 0", path))
		goPrintln(p, fmt.Sprintf("owner GID of %q: 0", path))
	}
	if path := flags["--file_content"]; path != "" {
		failed = !readContent(path) || failed
	}
	if path := flags["--file_content_in_loop"]; path != "" {
		retry := 180
		if n, err := fmt.Sscanf(flags["--retry_time"], "%d", &retry); n != 1 || err != nil {
			retry = 180
		}
		breakOn := flags["--break_on_expected_content"] != "false"
		start := p.Now()
		var lastErr error
		for p.Now().Sub(start) < time.Duration(retry)*time.Second {
			data, err := p.ReadFile(path)
			lastErr = err
			if err != nil {
				goPrintln(p, fmt.Sprintf("Error reading file %s: %s%s, retrying", path, op("open", path), errText(err)))
			} else {
				goPrintln(p, fmt.Sprintf("content of file %q: %s", path, data))
				if breakOn {
					if string(data) == mounttestContent {
						break
					}
					goPrintln(p, "Unexpected content. Expected: "+mounttestContent+". Retrying")
				}
			}
			if !p.Sleep(2 * time.Second) {
				return p.Killed()
			}
		}
		failed = failed || lastErr != nil
	}
	if failed {
		return 1
	}
	return 0
}

// mounttestContent is what mounttest writes into new files.
const mounttestContent = "mount-tester new file\n"

// exists reports whether a file or directory is there.
func exists(p *process.Proc, path string) bool {
	if _, err := p.ReadFile(path); err == nil || errors.Is(err, fs.ErrPermission) {
		return true
	}
	if p.Env.Files == nil {
		return false
	}
	_, err := p.Env.Files.ReadDir(p.Path(path))
	return err == nil
}

// goPrintln prints a line the way a Go program does (fmt.Printf with
// "\n", on Windows too).
func goPrintln(p *process.Proc, s string) { _, _ = io.WriteString(p.Stdout, s+"\n") }
