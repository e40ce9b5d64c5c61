# source: https://github.com/microsoft/SDN/blob/242fb0c3190dbb08d7f9406727be18322218e537/Kubernetes/windows/debug/hnstracer/hnstracerwin2019.yaml#L29-L29
# image: mcr.microsoft.com/windows/servercore:1809
pktmon stop ; pktmon start --trace -p Microsoft-Windows-Host-Network-Service -p Microsoft-Windows-Hyper-V-Compute -m real-time -l 4 ; 
