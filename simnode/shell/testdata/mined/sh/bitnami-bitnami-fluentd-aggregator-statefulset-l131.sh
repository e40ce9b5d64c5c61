# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/fluentd/templates/aggregator-statefulset.yaml#L131
#!/bin/sh
chmod o-rwx /tmp
