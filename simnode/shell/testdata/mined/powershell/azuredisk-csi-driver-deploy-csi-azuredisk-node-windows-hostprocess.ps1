# source: https://github.com/kubernetes-sigs/azuredisk-csi-driver/blob/d983d613b6dd04af5bcc886d309b8de6ea5637b6/deploy/csi-azuredisk-node-windows-hostprocess.yaml
# image: mcr.microsoft.com/k8s/csi/azuredisk-csi:latest-windows-hp
New-Item -ItemType Directory -Path C:\var\lib\kubelet\plugins\disk.csi.azure.com\ -Force
