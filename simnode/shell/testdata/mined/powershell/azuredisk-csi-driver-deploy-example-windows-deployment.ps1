# source: https://github.com/kubernetes-sigs/azuredisk-csi-driver/blob/d983d613b6dd04af5bcc886d309b8de6ea5637b6/deploy/example/windows/deployment.yaml
# image: mcr.microsoft.com/windows/servercore:ltsc2022
while (1) { Add-Content -Encoding Ascii C:\mnt\azuredisk\data.txt $(Get-Date -Format u); sleep 1 }
