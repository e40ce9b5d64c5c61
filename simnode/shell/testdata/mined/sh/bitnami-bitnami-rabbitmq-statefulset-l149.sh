# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/rabbitmq/templates/statefulset.yaml#L149
#!/bin/bash

. /opt/bitnami/scripts/liblog.sh

info "Copying plugins dir to empty dir"
# In order to not break the possibility of installing custom plugins, we need
# to make the plugins directory writable, so we need to copy it to an empty dir volume
cp -r --preserve=mode /opt/bitnami/rabbitmq/plugins/ /emptydir/app-plugins-dir
