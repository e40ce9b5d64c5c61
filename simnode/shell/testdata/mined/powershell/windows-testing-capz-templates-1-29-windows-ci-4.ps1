# source: https://github.com/kubernetes-sigs/windows-testing/blob/6ae6988090b1a0f0b6c7e93db30b8aabe030c8b4/capz/templates/1.29/windows-ci.yaml#L64-L70
$ErrorActionPreference = "Stop"
# Check if NodeLogQuery feature gate was specified for the cluster and if so, also enable it via kubelet config
$kubeletEnvContents = Get-Content -Path "/var/lib/kubelet/kubeadm-flags.env"
if ($kubeletEnvContents.Contains("NodeLogQuery=true")) {
    Add-Content -Path "$env:SYSTEMDRIVE/var/lib/kubelet/config.yaml" -Value "enableSystemLogQuery: true" -Encoding ascii -NoNewLine
    nssm restart kubelet
}
