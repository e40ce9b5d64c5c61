# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/jaeger/templates/_helpers.tpl#L80
#!/bin/bash

set -o errexit
set -o nounset
set -o pipefail

. /opt/bitnami/scripts/libos.sh

check_cassandra_keyspace_schema() {
    echo "SELECT 1" | cqlsh -u $CASSANDRA_USERNAME -p $CASSANDRA_PASSWORD -e "SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name='${CASSANDRA_KEYSPACE}';"
}

info "Connecting to the Cassandra instance $CQLSH_HOST:$CQLSH_PORT"
if ! retry_while "check_cassandra_keyspace_schema" 12 30; then
  error "Could not connect to the database server"
  exit 1
else
  info "Connection check success"
fi
