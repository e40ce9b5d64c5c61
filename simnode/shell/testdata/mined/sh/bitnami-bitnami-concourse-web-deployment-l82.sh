# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/concourse/templates/web/deployment.yaml#L82
#!/bin/bash

set -o errexit
set -o nounset
set -o pipefail

. /opt/bitnami/scripts/libos.sh
. /opt/bitnami/scripts/liblog.sh
. /opt/bitnami/scripts/libpostgresql.sh

check_postgresql_connection() {
    echo "SELECT 1" | postgresql_remote_execute "$POSTGRESQL_CLIENT_DATABASE_HOST" "$POSTGRESQL_CLIENT_DATABASE_PORT_NUMBER" "$POSTGRESQL_CLIENT_DATABASE_NAME" "$POSTGRESQL_CLIENT_POSTGRES_USER" "$POSTGRESQL_CLIENT_CREATE_DATABASE_PASSWORD"
}

info "Connecting to the PostgreSQL instance $POSTGRESQL_CLIENT_DATABASE_HOST:$POSTGRESQL_CLIENT_DATABASE_PORT_NUMBER"
if ! retry_while "check_postgresql_connection"; then
    error "Could not connect to the database server"
    return 1
else
    info "Connected to the PostgreSQL instance"
fi
