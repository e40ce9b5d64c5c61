# source: https://github.com/MariaDB/mariadb-docker/blob/1b6429ba3544e134715c15f8c56cc6f665f827c9/examples/migration-8/dump-mysql.sh
# image: docker.io/library/mariadb:examples
#!/bin/bash

echo 'MariaDB service started.'
# Run your commands and exit container
whoami # mysql
if [ "$(whoami)" = root ]; then
    chown -R mysql:mysql /etc/dump
fi
echo 'Remove files if exist'
files=("mysql-dump-data.sql.zst" "mysql-dump-users.sql.zst" "mysql-dump-stats.sql.zst" "mysql-dump-tzs.sql.zst")
for fileName in "${files[@]}"; do
    if [ -f "$fileName" ]; then
        echo "File ${fileName} exists. Remove it ... "
        rm "$fileName"
    fi
done
echo 'Dump and compress MySQL data with changed collation ...'
fileName="mysql-dump-data.sql.zst"
gosu mysql sh -c "mariadb-dump --ssl-verify-server-cert=OFF -h${MYSQL_CONT_NAME} -uroot -p${MARIADB_ROOT_PASSWORD} ${MARIADB_DB} | zstd > /etc/dump/${fileName}"
echo 'Dump and compress MySQL users ...'
fileName="mysql-dump-users.sql.zst"
gosu mysql sh -c "mariadb-dump --ssl-verify-server-cert=OFF -h${MYSQL_CONT_NAME} -uroot -p${MARIADB_ROOT_PASSWORD} --system=users | zstd > /etc/dump/${fileName}"
echo 'Dump and compress MySQL stats ...'
fileName="mysql-dump-stats.sql.zst"
gosu mysql sh -c "mariadb-dump --ssl-verify-server-cert=OFF -h${MYSQL_CONT_NAME} -uroot -p${MARIADB_ROOT_PASSWORD} --system=stats | zstd > /etc/dump/${fileName}"
echo 'Dump and compress MySQL timezones ...'
fileName="mysql-dump-tzs.sql.zst"
gosu mysql sh -c "mariadb-dump --ssl-verify-server-cert=OFF -h${MYSQL_CONT_NAME} -uroot -p${MARIADB_ROOT_PASSWORD} --system=timezones | zstd > /etc/dump/${fileName}"
echo 'Show MySQL 8.x create user'
gosu mysql sh -c "mariadb --ssl-verify-server-cert=OFF -h${MYSQL_CONT_NAME} -uroot -p${MARIADB_ROOT_PASSWORD} -e 'SELECT @@print_identified_with_as_hex; show create user current_user();'"
