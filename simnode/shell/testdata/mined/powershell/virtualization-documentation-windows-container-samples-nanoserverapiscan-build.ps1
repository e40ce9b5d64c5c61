# source: https://github.com/MicrosoftDocs/Virtualization-Documentation/blob/77e0742a8029cf3b5a96c84dfab2ce7ba623286c/windows-container-samples/nanoserverapiscan/build.ps1
docker rm -f nano
docker create --name nano microsoft/nanoserver
if (Test-Path tmp) { rm -recurse -force tmp }
mkdir tmp
docker cp nano:Windows/System32/Forwarders tmp

docker build -t nanoserverapiscan .
docker build -t nanoserverapiscan:onbuild onbuild
