# source: https://github.com/elastic/helm-charts/blob/2fd64d0af65f14df7aa01da591919460dabac4b3/metricbeat/values.yaml#L240
#!/usr/bin/env bash -e
metricbeat test output
