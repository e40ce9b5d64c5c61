# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/mariadb/templates/secondary/statefulset.yaml#L256
password_aux="${MARIADB_MASTER_ROOT_PASSWORD:-}"
if [[ -f "${MARIADB_MASTER_ROOT_PASSWORD_FILE:-}" ]]; then
    password_aux=$(cat "$MARIADB_MASTER_ROOT_PASSWORD_FILE")
fi
mariadb-admin status -uroot -p"${password_aux}"
