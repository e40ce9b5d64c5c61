package supervisor

import (
	"context"
)

// Component is one step of a cluster's start-up: a child process of the wink
// binary, or a task run inside the supervisor itself.
type Component struct {
	// Name identifies the component in logs, pid files and `wink status`.
	Name string
	// Args are the wink binary's arguments, e.g. ["component", "etcd", ...].
	// Empty for a task (see Task).
	Args []string
	// Env is added to the supervisor's environment for the child.
	Env []string
	// Task, when set, runs inside the supervisor once the components before
	// it are ready (bootstrap objects, for example). It must be idempotent.
	Task func(ctx context.Context) error
	// Ready is polled after start until it returns nil; the next component
	// starts only then. Nil means ready at once.
	Ready func(ctx context.Context) error
	// Parallel lets the next component start without waiting for this one
	// to be ready.
	Parallel bool
}
