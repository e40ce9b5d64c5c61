package shell

import (
	"wink.dev/wink/simnode/shell/powershell"
	"wink.dev/wink/simnode/shell/process"
)

// simulated lists the entries of f that the shell simulates (a simulated
// program or cmdlet always wins over the table; TestInBoxTable keeps the
// table free of them).
func simulated(f *InBoxFile) []string {
	var out []string
	for _, m := range f.Modules {
		for _, c := range m.Cmdlets {
			if powershell.Simulates(c) {
				out = append(out, "modules "+m.Module+": "+c)
			}
		}
	}
	for _, n := range f.Executables.Names {
		if windowsIndex[n] != nil {
			out = append(out, "executables: "+n)
		}
	}
	for os, names := range f.Tools {
		for _, n := range names {
			if os == Windows && windowsIndex[n] != nil || os == Linux && linuxIndex[n] != nil {
				out = append(out, "tools."+string(os)+": "+n)
			}
		}
	}
	return out
}

// Present reports whether the image has program argv[0], as far as wink
// knows: a simulated program, an in-box one of an image with in-box
// programs, or any program of an open image. False only where wink knows
// the program is absent.
func Present(os OS, img Image, argv []string) bool {
	if len(argv) == 0 || (os == Linux && process.BaseLacks(img.Base, argv[0])) {
		return false
	}
	if img.Absent(os, argv[0]) {
		return false // inbox.yaml bases[].absent: powershell in nanoserver
	}
	if Found(os, argv) || img.Open || process.BaseHas(img.Base, argv[0]) {
		return true
	}
	return os == Windows && img.InBox && process.InBoxExecutable(argv[0])
}
