# source: https://github.com/elastic/helm-charts/blob/2fd64d0af65f14df7aa01da591919460dabac4b3/filebeat/values.yaml#L190
#!/usr/bin/env bash -e
curl --fail 127.0.0.1:5066
