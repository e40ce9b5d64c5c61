package harness

import (
	"errors"
	"time"

	"wink.dev/wink/harness/config/v1alpha1"
)

// OptionError is an option of a harness call (a flag of the wink command)
// with a value no cluster can have. It is found before anything touches
// disk or starts; the wink command exits 2 on it. Its text names the flag,
// the value and the fix.
type OptionError struct {
	// Flag is the option's flag, e.g. --name.
	Flag string
	// Err says what is wrong and how to fix it.
	Err error
}

func (e *OptionError) Error() string { return e.Err.Error() }

func (e *OptionError) Unwrap() error { return e.Err }

// validate checks the options every call shares. It is the one place a
// cluster name (Options.Name, --name) is checked: a DNS-1123 label, so a
// name is never a path (no "..", no "/", not empty once defaulted).
func (o Options) validate() error {
	return checkName(o.name())
}

// checkName checks a cluster name, from --name or from a configuration.
func checkName(name string) error {
	if err := v1alpha1.ValidateName("--name", name); err != nil {
		return &OptionError{Flag: "--name", Err: err}
	}
	return nil
}

// validate checks the options of Up besides those of every call.
func (o UpOptions) validate() error {
	if o.Wait < 0 {
		return &OptionError{Flag: "--wait", Err: &v1alpha1.FieldError{
			Path: "--wait", Type: v1alpha1.ErrorTypeInvalid, Value: o.Wait.String(),
			Message: "must be a positive duration (how long `wink up` waits for every node to be Ready)",
			Fix:     "e.g. --wait " + defaultWait.String(),
		}}
	}
	return nil
}

// defaultWait is how long Up waits when UpOptions.Wait is zero.
const defaultWait = 3 * time.Minute

// IsOptionError reports whether err is (or wraps) an OptionError.
func IsOptionError(err error) bool {
	var oe *OptionError
	return errors.As(err, &oe)
}
