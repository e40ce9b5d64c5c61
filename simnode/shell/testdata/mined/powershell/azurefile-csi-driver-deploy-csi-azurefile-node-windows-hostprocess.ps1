# source: https://github.com/kubernetes-sigs/azurefile-csi-driver/blob/7b5ae18e74f0c885791f67404286882a049761f8/deploy/csi-azurefile-node-windows-hostprocess.yaml
# image: mcr.microsoft.com/k8s/csi/azurefile-csi:latest-windows-hp
New-Item -ItemType Directory -Path C:\var\lib\kubelet\plugins\file.csi.azure.com\ -Force
