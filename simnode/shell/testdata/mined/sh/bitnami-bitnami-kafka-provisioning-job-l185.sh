# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/kafka/templates/provisioning/job.yaml#L185
. /opt/bitnami/scripts/libos.sh

exit_code=0
if ! retry_while "/opt/bitnami/kafka/bin/kafka-broker-api-versions.sh --bootstrap-server ${KAFKA_SERVICE} --command-config /shared/client.properties"; then
    echo "Kafka is not ready"
    exit_code=1
else
    echo "Kafka ready"
fi

exit "$exit_code"
