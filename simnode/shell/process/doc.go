// Package process is what every program of wink's simulated shell runs in:
// the container a command observes (Env: its OS, user, variables, files,
// network, clock, meters), and the running process (Proc: its streams,
// environment block, working directory, exit code and nesting depth),
// shared by the interpreters (simnode/shell/cmd, powershell, posix) and
// the programs (simnode/shell/programs).
//
// A Proc runs another program through Exec, by name, from the Programs
// table it was made with (simnode/shell's tables): the interpreters and
// the programs never import one another to start one. What wink does not
// simulate is the open world of openworld.go and inbox.yaml (rows E, B10):
// an in-box program exits 0, a program of an open image runs until
// stopped, a known-absent one is not found.
//
// Files, the network and the clock are reached only through Env (FS,
// Network, Now, Sleep): nothing here touches the real machine.
package process
