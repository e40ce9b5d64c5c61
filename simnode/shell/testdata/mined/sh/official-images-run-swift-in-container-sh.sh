# source: https://github.com/docker-library/official-images/blob/37079fb336f572a88700cf32e5e1f6be54a04e8f/test/tests/run-swift-in-container.sh
#!/bin/bash
set -e

testDir="$(readlink -f "$(dirname "$BASH_SOURCE")")"
runDir="$(dirname "$(readlink -f "$BASH_SOURCE")")"

image="$1"

testName="$(basename "$testDir")"
newImage="$("$runDir/image-name.sh" "librarytest/$testName" "$image")"
"$runDir/docker-build.sh" "$testDir" "$newImage" <<EOD
FROM $image
COPY dir/container.swift /
RUN swiftc /container.swift -o container
CMD [ "/container" ]
EOD

docker run --rm "$newImage"
