# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/memcached/templates/statefulset.yaml#L207
/usr/bin/pkill -10 memcached
sleep 60s
