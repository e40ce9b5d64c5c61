# source: https://github.com/docker-library/official-images/blob/37079fb336f572a88700cf32e5e1f6be54a04e8f/test/tests/run-g++-in-container.sh
#!/bin/bash
set -e

testDir="$(readlink -f "$(dirname "$BASH_SOURCE")")"
runDir="$(dirname "$(readlink -f "$BASH_SOURCE")")"

source "$runDir/run-in-container.sh" "$testDir" "$1" sh -c 'g++ -o /container ./container.cpp && exec /container'
