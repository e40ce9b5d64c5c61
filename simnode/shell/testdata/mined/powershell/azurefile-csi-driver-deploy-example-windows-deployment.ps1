# source: https://github.com/kubernetes-sigs/azurefile-csi-driver/blob/7b5ae18e74f0c885791f67404286882a049761f8/deploy/example/windows/deployment.yaml
# image: mcr.microsoft.com/windows/servercore:ltsc2022
while (1) { Add-Content -Encoding Ascii C:\mnt\azurefile\data.txt $(Get-Date -Format u); sleep 1 }
