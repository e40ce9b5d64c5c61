# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/cassandra/templates/statefulset.yaml#L424
nodetool status | grep -E "^UN\\s+${POD_IP}"
