package facts

// OS is a node's or an image's operating system (N1: the kubernetes.io/os
// label's value, nodeInfo.operatingSystem). Every layer's OS is this type.
type OS string

// The operating systems wink simulates nodes of.
const (
	Windows OS = "windows"
	Linux   OS = "linux"
)

// OSes are the operating systems wink simulates, in a stable order.
var OSes = []OS{Windows, Linux}

// Valid says whether o is an OS wink simulates.
func (o OS) Valid() bool { return o == Windows || o == Linux }

// IsWindows says whether o is Windows.
func (o OS) IsWindows() bool { return o == Windows }
