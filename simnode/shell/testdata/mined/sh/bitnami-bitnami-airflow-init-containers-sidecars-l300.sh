# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/airflow/templates/_init_containers_sidecars.tpl#L300
. /opt/bitnami/scripts/libairflow.sh

# Copy the configuration files to the writable directory
cp -r --preserve=mode /opt/bitnami/airflow/venv /emptydir/venv-base-dir

info "Copy operation completed"
