# source: https://github.com/Azure/AgentBaker/blob/06836ee2301e362039418c3a7ed0fe6004a641fd/staging/cse/windows/provisioningscripts/windowslogscleanup.ps1
<#
.DESCRIPTION
    This script cleans old rotated logs for various kubernetes components.
#>

$global:LogPath = "c:\k\windowslogscleanup.log"

filter Timestamp { "$(Get-Date -Format o): $_" }

function Write-Log ($message) {
    $message | Timestamp | Tee-Object -FilePath $global:LogPath -Append | Write-Host
}

Write-Log "Entering windowslogscleanup.ps1"

$logFilePrefixes = @("kubelet", "kubelet.err", "kubeproxy", "kubeproxy.err", "containerd.err", "containerd", "windows-exporter.err", "windows-exporter","aks-windows-exporter.err", "aks-windows-exporter")

foreach ($logFilePrefix in $logFilePrefixes) {
    $oldLogs = [IO.Directory]::GetFiles("c:\k", "$($logFilePrefix)-*.log")
    $oldLogs = $oldLogs | Sort-Object | Select-Object -SkipLast 5
    foreach ($oldLog in $oldLogs) {
        Write-Log "Removing $oldLog"
        Remove-Item $oldLog
    }
}
