# source: https://github.com/kubernetes-sigs/windows-testing/blob/6ae6988090b1a0f0b6c7e93db30b8aabe030c8b4/capz/templates/shared-image-gallery-ci.yaml#L28-L29
$ErrorActionPreference = 'Stop'
New-NetFirewallRule -DisplayName 'SSH-old-behavior' -Profile 'Any' -Direction Inbound -Action Allow -Protocol TCP -LocalPort 22
