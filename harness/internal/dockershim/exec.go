package dockershim

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Exec is the shim's process: args are `--docker PATH [--cap-drop CAP]...
// [--device DEV]... -- ARGS...` as Install writes them; it replaces
// itself with the real docker CLI running Rewrite(ARGS), so that the CLI's
// input, output, signals and exit code are kind's.
func Exec(args []string) error {
	var real string
	var e Engine
	i := 0
	for ; i < len(args) && args[i] != "--"; i += 2 {
		if i+1 >= len(args) {
			return fmt.Errorf("docker-shim: %s needs a value", args[i])
		}
		switch v := args[i+1]; args[i] {
		case "--docker":
			real = v
		case "--cap-drop":
			e.DropCaps = append(e.DropCaps, v)
		case "--device":
			e.Devices = append(e.Devices, v)
		default:
			return fmt.Errorf("docker-shim: unknown option %s", args[i])
		}
	}
	if real == "" || i >= len(args) {
		return errors.New("usage: wink kind docker-shim --docker PATH [--cap-drop CAP]... [--device DEV]... -- DOCKER-ARGS...")
	}
	argv := append([]string{"docker"}, Rewrite(args[i+1:], e)...)
	return fmt.Errorf("docker-shim: running %s: %w", real, syscall.Exec(real, argv, os.Environ()))
}
