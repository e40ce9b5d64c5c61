# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/kafka/templates/_init_containers.tpl#L65
SVC_NAME="${MY_POD_NAME}-external"
AUTODISCOVERY_SERVICE_TYPE="${AUTODISCOVERY_SERVICE_TYPE:-}"

# Auxiliary functions
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
k8s_svc_lb_ip() {
    local namespace=${1:?namespace is missing}
    local service=${2:?service is missing}
    local service_ip=$(kubectl get svc "$service" -n "$namespace" -o jsonpath="{.status.loadBalancer.ingress[0].ip}")
    local service_hostname=$(kubectl get svc "$service" -n "$namespace" -o jsonpath="{.status.loadBalancer.ingress[0].hostname}")
    if [[ -n ${service_ip} ]]; then
        echo "${service_ip}"
    else
        echo "${service_hostname}"
    fi
}
k8s_svc_lb_ip_ready() {
    local namespace=${1:?namespace is missing}
    local service=${2:?service is missing}
    [[ -n "$(k8s_svc_lb_ip "$namespace" "$service")" ]]
}
k8s_svc_node_port() {
    local namespace=${1:?namespace is missing}
    local service=${2:?service is missing}
    local index=${3:-0}
    local node_port="$(kubectl get svc "$service" -n "$namespace" -o jsonpath="{.spec.ports[$index].nodePort}")"
    echo "$node_port"
}

if [[ "$AUTODISCOVERY_SERVICE_TYPE" = "LoadBalancer" ]]; then
    # Wait until LoadBalancer IP is ready
    retry_while "k8s_svc_lb_ip_ready $MY_POD_NAMESPACE $SVC_NAME" || exit 1
    # Obtain LoadBalancer external IP
    k8s_svc_lb_ip "$MY_POD_NAMESPACE" "$SVC_NAME" | tee "/shared/external-host.txt"
elif [[ "$AUTODISCOVERY_SERVICE_TYPE" = "NodePort" ]]; then
    k8s_svc_node_port "$MY_POD_NAMESPACE" "$SVC_NAME" | tee "/shared/external-port.txt"
else
    echo "Unsupported autodiscovery service type: '$AUTODISCOVERY_SERVICE_TYPE'"
    exit 1
fi
