package process

// ACLs is a Windows FS that keeps each path's discretionary ACL as icacls
// shows and sets it: the ACEs set on the path itself and whether it
// inherits its parent's. A path whose DACL was never set has none of its
// own and inherits (DACL's zero value). DACL follows links as ReadFile
// does and fails as it does; SetDACL fails as WriteFile does
// (fs.ErrNotExist, fs.ErrPermission on a read-only mount, row B11).
type ACLs interface {
	DACL(path string) (DACL, error)
	SetDACL(path string, d DACL) error
}

// DACL is the part of a discretionary ACL a path holds itself: Explicit
// are its own ACEs written as icacls prints them (`BUILTIN\Users:(OI)(CI)(M)`,
// `Everyone:(DENY)(W)`), Protected that inheritance from the parent is
// off (icacls /inheritance:d or :r).
type DACL struct {
	Protected bool     `json:"protected,omitempty"`
	Explicit  []string `json:"explicit,omitempty"`
}
