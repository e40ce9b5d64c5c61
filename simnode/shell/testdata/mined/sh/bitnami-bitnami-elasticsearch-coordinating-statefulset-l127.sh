# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/elasticsearch/templates/coordinating/statefulset.yaml#L127
#!/bin/bash

. /opt/bitnami/scripts/libfs.sh
. /opt/bitnami/scripts/elasticsearch-env.sh

if ! is_dir_empty "$DB_DEFAULT_PLUGINS_DIR"; then
    cp -nr "$DB_DEFAULT_PLUGINS_DIR"/* /plugins
fi
