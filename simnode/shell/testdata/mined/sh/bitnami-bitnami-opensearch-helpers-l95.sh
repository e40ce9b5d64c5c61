# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/opensearch/templates/_helpers.tpl#L95
. /opt/bitnami/scripts/liblog.sh
. /opt/bitnami/scripts/libfs.sh
. /opt/bitnami/scripts/opensearch-env.sh

mkdir -p /emptydir/app-conf-dir /emptydir/app-plugins-dir
info "Copying directories to empty dir"

if ! is_dir_empty "$DB_DEFAULT_CONF_DIR"; then
    info "Copying default configuration"
    cp -nr --preserve=mode "$DB_DEFAULT_CONF_DIR"/* /emptydir/app-conf-dir
fi
if ! is_dir_empty "$DB_DEFAULT_PLUGINS_DIR"; then
    info "Copying default plugins"
    cp -nr "$DB_DEFAULT_PLUGINS_DIR"/* /emptydir/app-plugins-dir
fi

info "Copy operation completed"
