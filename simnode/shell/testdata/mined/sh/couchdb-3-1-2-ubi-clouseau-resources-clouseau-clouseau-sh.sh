# source: https://github.com/apache/couchdb-docker/blob/4c82ee090d6299c27616f30d93c9622f769431dd/3.1.2-ubi-clouseau/resources/clouseau/clouseau.sh
# image: docker.io/library/couchdb:3.1.2-ubi-clouseau
# chmod 0600 /opt/couchdb-search/etc/jmxremote.password

exec -c "java -server \
    -Xmx2G \
    -Dsun.net.inetaddr.ttl=30 \
    -Dsun.net.inetaddr.negative.ttl=30 \
    -Dlog4j.configuration=file:/opt/couchdb-search/etc/log4j.properties \
    -XX:OnOutOfMemoryError="kill -9 %p" \
    -XX:+UseConcMarkSweepGC \
    -XX:+CMSParallelRemarkEnabled \
    -classpath '/opt/couchdb-search/lib/*' \
    com.cloudant.clouseau.Main \
    /opt/couchdb-search/etc/clouseau.ini"
