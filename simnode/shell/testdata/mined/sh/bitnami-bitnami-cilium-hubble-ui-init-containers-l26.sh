# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/cilium/templates/hubble-ui/_init_containers.tpl#L26
set -o errexit
set -o nounset
set -o pipefail

retry_while() {
    local cmd="${1:?cmd is missing}"
    local retries="${2:-12}"
    local sleep_time="${3:-5}"
    local return_value=1

    read -r -a command <<<"$cmd"
    for ((i = 1; i <= retries; i += 1)); do
        "${command[@]}" && return_value=0 && break
        sleep "$sleep_time"
    done
    return $return_value
}

exit_code=0
if ! retry_while "grpc-health-probe -addr=${HUBBLE_RELAY_ENDPOINT} ${GRPC_FLAGS}"; then
    echo "hubble is not ready"
    exit_code=1
else
    echo "hubble ready"
fi

exit "$exit_code"
