# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/appsmith/templates/_helpers.tpl#L313
#!/bin/bash

set -o errexit
set -o nounset
set -o pipefail

. /opt/bitnami/scripts/liblog.sh
. /opt/bitnami/scripts/libvalidations.sh
. /opt/bitnami/scripts/libappsmith.sh
. /opt/bitnami/scripts/appsmith-env.sh

info "Waiting for Appsmith RTS to be available"

check_api() {
    curl --max-time 5 "http://$APPSMITH_RTS_HOST:$APPSMITH_RTS_PORT/rts-api/v1/health-check" | grep -q "success"
}

if retry_while check_api; then
    info "RTS is available"
    exit 0
else
    error "RTS not available"
    exit 1
fi
