# source: https://github.com/microsoft/SDN/blob/242fb0c3190dbb08d7f9406727be18322218e537/Kubernetes/windows/stop.ps1

taskkill /im kubelet.exe /f
taskkill /im kube-proxy.exe /f