# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/kibana/templates/deployment.yaml#L117
#!/bin/bash

. /opt/bitnami/scripts/libfs.sh
. /opt/bitnami/scripts/kibana-env.sh

if ! is_dir_empty "$SERVER_DEFAULT_PLUGINS_DIR"; then
    cp -nr "$SERVER_DEFAULT_PLUGINS_DIR"/* /plugins
fi
