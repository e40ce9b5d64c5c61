# source: https://github.com/microsoft/SDN/blob/242fb0c3190dbb08d7f9406727be18322218e537/Kubernetes/windows/debug/hnsautomitigator/hnsautomitigator2019.yaml#L27-L122
# image: mcr.microsoft.com/windows/servercore:1809
$criticalHnsThreadCount = 1000 
 $highHnsThreadCount = 200 
 $timeout = 5 
 $sleepWait = 120 
 ipmo -Force C:\k\hns.v2.psm1 
 
 function HnsProcessId() { 
 $hnsProcessId = Get-WmiObject -Class Win32_Service -Filter "Name LIKE 'Hns'" | Select-Object -ExpandProperty ProcessId  
 return $hnsProcessId 
 } 
 
 function IsDnsMissing() { 
 $plugins = (Get-Content C:\k\azurecni\netconf\10-azure.conflist | ConvertFrom-Json).plugins 
 foreach($plugin in $plugins) { 
 if($plugin.type -eq "azure-vnet") { 
 $dnsServers = ($plugin.dns).Nameservers 
 } 
 } 
 
 $hnsPolicies = (Get-HnsPolicyList).Policies | where InternalPort -EQ 53 | where ExternalPort -EQ 53 
 $dnsTcpRuleNotFound = $True 
 $dnsUdpRuleNotFound = $True 
 
 if(($hnsPolicies).Count -ge 2) { 
 
 foreach($policy in $hnsPolicies) { 
 
 $vips = ($policy).VIPS 
 if(($vips).Count -eq 0) { 
 continue 
 } 
 
 if(($policy).Protocol -eq 6) { 
 foreach($dnsServer in $dnsServers) { 
 if($dnsServer -eq $vips[0]) { 
 $dnsTcpRuleNotFound = $false 
 } 
 } 
 } ElseIf(($policy).Protocol -eq 17) { 
 foreach($dnsServer in $dnsServers) { 
 if($dnsServer -eq $vips[0]) { 
 $dnsUdpRuleNotFound = $false 
 } 
 } 
 } 
 } 
 } 
 
 return ($dnsTcpRuleNotFound -or $dnsUdpRuleNotFound) 
 } 
 function AutoMitigate() { 
 $hnsProcessId = HnsProcessId 
 Write-Host "Killing HNS Service." 
 taskkill /pid $hnsProcessId /f 
 Start-Sleep -Seconds 5 
 Write-Host "Restarting HNS Service." 
 Restart-Service -f hns 
 Write-Host "Waiting for 10 minutes for Pods to recover." 
 Start-Sleep -Seconds 600 
 Write-Host "Restarting KubeProxy Service." 
 Restart-Service -f kubeproxy 
 Write-Host "Waiting for 10 minutes for Pods to recover." 
 Start-Sleep -Seconds 900 
 } 
 
 While($true) { 
 Start-Sleep -Seconds $sleepWait 
 Write-Host "Checking Hns Deadlock" 
 $hnsProcessId = HnsProcessId 
 $hnsThreads = (Get-Process -Id $hnsProcessId).Threads 
 Write-Host "HNS thread count is : " $hnsThreads.Count 
 if($hnsThreads.Count -ge $criticalHnsThreadCount) { 
 Write-Host "There is a deadlock detected in HNS." 
 AutoMitigate 
 } elseif ($hnsThreads.Count -ge $highHnsThreadCount) { 
 Write-Host "HNS Thread Count is more than high. Looking for EndpointStats. Current Thread Count is : " $hnsThreads.Count 
 $hnsIDs = (Get-HnsEndpoint).ID 
 foreach($hnsID in $hnsIDs){ 
 $job = Start-Job { Invoke-HnsRequest -Method GET -Type endpointstats -Id $hnsID } 
 $done = $job |Wait-Job -TimeOut $timeout 
 if($done){ 
 Write-Host "Get-EndpointStats request succeeded for " $hnsID 
 } else { 
 Write-Host "Get-EndpointStats request timedout for " $hnsID 
 Write-Host "There is a deadlock detected in HNS." 
 AutoMitigate 
 break 
 } 
 } 
 } 
 if(IsDnsMissing) { 
 Write-Host "DNS rule is missing. Restarting KubeProxy..." 
 Restart-Service -f kubeproxy 
 Start-Sleep -Seconds 900 
 } 
 }
