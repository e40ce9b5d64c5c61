# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/solr/templates/statefulset.yaml#L94
#!/bin/bash

. /opt/bitnami/scripts/liblog.sh

info "Copying server dir to empty dir"
# In order to not break the application functionality (such as upgrades or plugins) we need
# to make the base directory writable, so we need to copy it to an empty dir volume
cp -r --preserve=mode /opt/bitnami/solr/server /emptydir/app-server-dir

info "Copy operation completed"
