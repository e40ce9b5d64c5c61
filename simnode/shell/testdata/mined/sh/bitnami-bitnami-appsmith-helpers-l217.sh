# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/appsmith/templates/_helpers.tpl#L217
#!/bin/bash

set -o errexit
set -o nounset
set -o pipefail

. /opt/bitnami/scripts/liblog.sh
. /opt/bitnami/scripts/libvalidations.sh
. /opt/bitnami/scripts/libappsmith.sh
. /opt/bitnami/scripts/appsmith-env.sh

info "Waiting for MongoDB replica set to come up"
for host in ${APPSMITH_DATABASE_HOST//,/ }; do
      info "Waiting for host $host"
      appsmith_wait_for_mongodb_connection "mongodb://${APPSMITH_DATABASE_USER}:${APPSMITH_DATABASE_PASSWORD}@${host}:${APPSMITH_DATABASE_PORT_NUMBER}/${APPSMITH_DATABASE_NAME}"
done
info "Database is ready"
