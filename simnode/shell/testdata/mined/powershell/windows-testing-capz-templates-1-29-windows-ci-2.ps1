# source: https://github.com/kubernetes-sigs/windows-testing/blob/6ae6988090b1a0f0b6c7e93db30b8aabe030c8b4/capz/templates/1.29/windows-ci.yaml#L23-L24
# /tmp is assumed created and required for upstream e2e tests to pass
New-Item -ItemType Directory -Force -Path C:\tmp\
