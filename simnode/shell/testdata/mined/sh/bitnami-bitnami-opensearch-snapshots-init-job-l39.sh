# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/opensearch/templates/snapshots/init-job.yaml#L39
retry_while() {
    local -r cmd="${1:?cmd is missing}"
    local -r retries="${2:-12}"
    local -r sleep_time="${3:-5}"
    local return_value=1

    read -r -a command <<< "$cmd"
    for ((i = 1 ; i <= retries ; i+=1 )); do
        "${command[@]}" && return_value=0 && break
        sleep "$sleep_time"
    done
    return $return_value
}

check_opensearch() {
    if wait-for-port --timeout=5 --host="$OPENSEARCH_HOST" --state=inuse $OPENSEARCH_PORT_NUMBER; then
        return 0
    else
        return 1
    fi
}

echo "Checking connection to OpenSearch"
if retry_while "check_opensearch"; then
    echo "Connected to OpenSearch"
    exit 0
else
    echo "Error connecting to OpenSearch"
    exit 1
fi
