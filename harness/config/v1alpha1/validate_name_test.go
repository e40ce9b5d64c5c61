package v1alpha1

import (
	"strings"
	"testing"
)

// TestValidateName: a cluster name is a DNS-1123 label, named by where it
// came from (the file's name field or the --name flag), with the fix.
func TestValidateName(t *testing.T) {
	tests := []struct {
		path, name, want string
	}{
		{"--name", "wink", ""},
		{"--name", "win-2022", ""},
		{"--name", strings.Repeat("a", 63), ""},
		{"--name", "", "--name: Required value: give a cluster name, e.g. --name wink"},
		{"name", "", "name: Required value: set name, e.g. name: wink"},
		{"--name", "..", `--name: Invalid value: "..": must be a DNS-1123 label; use at most 63 lower-case letters`},
		{"--name", "../x", `--name: Invalid value: "../x": must be a DNS-1123 label`},
		{"--name", "/abs", `--name: Invalid value: "/abs": must be a DNS-1123 label`},
		{"--name", "UPPER", `--name: Invalid value: "UPPER": must be a DNS-1123 label`},
		{"--name", strings.Repeat("a", 64), `must be a DNS-1123 label`},
		{"name", "a/b", `name: Invalid value: "a/b": must be a DNS-1123 label`},
		{"--name", ".", `--name: Invalid value: ".": must be a DNS-1123 label`},
	}
	for _, tt := range tests {
		t.Run(tt.path+"="+tt.name, func(t *testing.T) {
			err := ValidateName(tt.path, tt.name)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("ValidateName(%q) = %v, want nil", tt.name, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("ValidateName(%q) = %v, want %q", tt.name, err, tt.want)
			}
		})
	}
}
