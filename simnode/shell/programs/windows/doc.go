// Package windows are the System32 tools of wink's simulated Windows
// images that scripts use (wintools.go: findstr, find, xcopy, robocopy,
// more, sort, where), the registry (winreg.go: reg, setx), file DACLs
// (icacls.go) and Windows administration (winadmin.go: net localgroup,
// shutdown, testlimit; rows B5, B6, B9, B10, B15).
package windows
