# source: https://github.com/antrea-io/antrea/blob/fc70f2bb7037f398196fd42210d34800cb6aa398/hack/windows/Stop-AntreaAgent.ps1
Param(
    [parameter(Mandatory = $false, HelpMessage="Stop kube-proxy")] [bool] $StopKubeProxy=$false
)

Write-Host "Stopping antrea-agent..."
taskkill /im antrea-agent.exe /f
if ($StopKubeProxy) {
    Write-Host "Stopping kube-proxy..."
    taskkill /im kube-proxy.exe /f
}
