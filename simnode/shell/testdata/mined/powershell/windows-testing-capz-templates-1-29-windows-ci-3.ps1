# source: https://github.com/kubernetes-sigs/windows-testing/blob/6ae6988090b1a0f0b6c7e93db30b8aabe030c8b4/capz/templates/1.29/windows-ci.yaml#L28-L60
# note: $$ unescaped to $, as the kubelet (command, args) and clusterctl (envsubst) pass it
$ErrorActionPreference = 'Stop'
$CONTAINERD_URL="${WINDOWS_CONTAINERD_URL}"
if($CONTAINERD_URL -ne ""){
  # Kubelet service depends on contianerd service so make a best effort attempt to stop it
  Stop-Service kubelet -Force -ErrorAction SilentlyContinue
  Stop-Service containerd -Force
  echo "downloading containerd: $CONTAINERD_URL"
  curl.exe --retry 10 --retry-delay 5 -L "$CONTAINERD_URL" --output "c:/k/containerd.tar.gz"
  # Log service state and if any files under containerd director are locked
  Get-Service -Name containerd, kubelet
  $dir = "c:/Program Files/containerd"
  $files = Get-ChildItem $dir -Recurse
  Write-Output "Checking if any files under $dir are locked"
  foreach ($file in $files) {
      $f = $file.FullName
      Write-output "$f"
      $fi = New-Object System.IO.FileInfo $f
      try {
          $fStream = $fi.Open([System.IO.FileMode]::Open, [System.IO.FileAccess]::ReadWrite, [System.IO.FileShare]::None)
          if ($fStream) {
              $fStream.Close()
          }
      } catch {
          Write-Output "Unable to open file: $f"
      }
  }
  Write-Output "Extracting new containerd binaries"
  tar.exe -zxvf c:/k/containerd.tar.gz -C "c:/Program Files/containerd" --strip-components 1

  Start-Service containerd
}
containerd.exe --version
containerd-shim-runhcs-v1.exe --version
