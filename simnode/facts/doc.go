// Package facts holds what every layer of wink reads and none may restate:
// the behaviour catalog's rows (windows-behaviors.md, embedded; CheckCites
// makes a citation of a row that does not exist fail when a rule table
// loads) and the traceability line format that suites write and reports
// read (evidence.go), the OS type every layer uses and the functions that
// read an OS from the API's objects, with the os=windows taint and whether
// a node is Ready (os.go),
// what makes a pod a HostProcess pod (pod.go), each OS's default containerd
// (runtime.go), the Windows Server builds wink simulates and their years
// (windows.go), and a node's default graceful shutdown and the kubelet's
// evictionHard defaults (node.go). It imports nothing of wink, so simnode,
// the harness, the suites and the reports can all depend on it.
package facts
