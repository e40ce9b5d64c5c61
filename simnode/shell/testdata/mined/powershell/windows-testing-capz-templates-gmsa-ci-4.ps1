# source: https://github.com/kubernetes-sigs/windows-testing/blob/6ae6988090b1a0f0b6c7e93db30b8aabe030c8b4/capz/templates/gmsa-ci.yaml#L169-L182
# This script restarts the kubelet service.
# It supports both nssm and Windows service configurations,
# ensuring a smooth transition between service managers without interruption.
# This script will eventually be removed once nssm is no longer used.
$scriptPath = "$env:SYSTEMDRIVE/k/RestartKubelet.ps1"
if (Test-Path $scriptPath) {
    Write-Host "Found RestartKubelet.ps1, executing..."
    & $scriptPath
} else {
    Write-Host "RestartKubelet.ps1 not found. Running fallback command..."
    & "$env:SYSTEMDRIVE\k\nssm.exe" set kubelet start SERVICE_AUTO_START
    # Actually restart the running kubelet so config.yaml changes take effect.
    & "$env:SYSTEMDRIVE\k\nssm.exe" restart kubelet
}
