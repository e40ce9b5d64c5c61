# source: https://github.com/docker-library/official-images/blob/37079fb336f572a88700cf32e5e1f6be54a04e8f/test/tests/run-sh-in-container.sh
#!/usr/bin/env bash
set -Eeuo pipefail

testDir="$(dirname "$BASH_SOURCE")"
testDir="$(readlink -f "$testDir")"
runDir="$(readlink -f "$BASH_SOURCE")"
runDir="$(dirname "$runDir")"

case "$1" in
	*windowsservercore* | *nanoserver*)
		[ -f "$testDir/container.cmd" ]
		source "$runDir/run-in-container.sh" "$testDir" "$1" cmd /Q /S /C '.\container.cmd'
		;;

	*)
		[ -f "$testDir/container.sh" ]
		source "$runDir/run-in-container.sh" "$testDir" "$1" sh ./container.sh
		;;
esac
