# source: https://github.com/kubernetes-sigs/windows-testing/blob/6ae6988090b1a0f0b6c7e93db30b8aabe030c8b4/capz/templates/gmsa-ci.yaml#L204-L214
$ErrorActionPreference = 'Continue'
$scriptUrl = 'https://raw.githubusercontent.com/kubernetes-sigs/windows-testing/master/scripts/install-registry-structure.ps1'
$scriptPath = 'C:/install-registry-structure.ps1'
Write-Host "Downloading install-registry-structure.ps1 from GitHub..."
curl.exe -sL $scriptUrl -o $scriptPath
if (-not (Test-Path $scriptPath)) {
    Write-Error "Failed to download script from $scriptUrl"
    exit 1
}
Write-Host "Running install-registry-structure.ps1..."
& $scriptPath
