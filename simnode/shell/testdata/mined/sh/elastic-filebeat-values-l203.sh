# source: https://github.com/elastic/helm-charts/blob/2fd64d0af65f14df7aa01da591919460dabac4b3/filebeat/values.yaml#L203
#!/usr/bin/env bash -e
filebeat test output
