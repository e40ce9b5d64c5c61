# source: https://github.com/kubernetes-sigs/windows-testing/blob/6ae6988090b1a0f0b6c7e93db30b8aabe030c8b4/capz/templates/gmsa-ci.yaml#L140-L165
$ErrorActionPreference = "Stop"
$FileContent = Get-Content -Path "$env:SYSTEMDRIVE/var/lib/kubelet/kubeadm-flags.env"
$kubeAdmArgs = $FileContent.TrimStart('KUBELET_KUBEADM_ARGS=').Trim('"')

# Set the path to your kubelet config file
$configFile = "$env:SYSTEMDRIVE/var/lib/kubelet/config.yaml"
$content = Get-Content -Path $configFile
# Check if NodeLogQuery feature gate was specified for the cluster and if so, also enable it via kubelet config
if ($kubeAdmArgs.Contains("NodeLogQuery=true")) {
    $content += "enableSystemLogQuery: true"
}
if ($kubeAdmArgs.Contains("WindowsGracefulNodeShutdown=true")) {
  # Remove existing lines that match the settings
  $content = $content | Where-Object { $_ -notmatch "^shutdownGracePeriod:" -and $_ -notmatch "^shutdownGracePeriodCriticalPods:" }
  # Append new values at the end
  $content += "shutdownGracePeriod: 1m"
  $content += "shutdownGracePeriodCriticalPods: 20s"
}
# Override kubelet maxPods when MAX_PODS is set (envsubst at apply time).
if ("${MAX_PODS}" -ne "") {
  $content = $content | Where-Object { $_ -notmatch "^maxPods:" }
  $content += "maxPods: ${MAX_PODS}"
}

# Write the updated content back to the file
$content | Set-Content -Path $configFile -Encoding ascii
