# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/dremio/templates/_init_containers.tpl#L348
echo "Importing MinIO public certificate"
# Copy original cacerts
cp /opt/bitnami/java/lib/security/cacerts /bitnami/java/cacerts/
keytool -importcert -file /certs/public.crt -keystore /bitnami/java/cacerts/cacerts -alias "minio" -noprompt
echo "Public certificate imported"
