# source: https://github.com/microsoft/SDN/blob/242fb0c3190dbb08d7f9406727be18322218e537/Kubernetes/windows/debug/networkmonitor/networkhealth.yaml
# image: mcr.microsoft.com/windows/servercore:1809
$BaseDir = "c:\k\debug";Invoke-WebRequest -UseBasicParsing "https://raw.githubusercontent.com/microsoft/SDN/master/Kubernetes/windows/debug/networkmonitor/networkhealth.ps1" -OutFile $BaseDir\networkhealth.ps1;c:\k\debug\networkhealth.ps1 -OutputMode stdout; start-sleep 3600;
