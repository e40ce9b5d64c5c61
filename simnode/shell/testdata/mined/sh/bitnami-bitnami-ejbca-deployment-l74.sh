# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/ejbca/templates/deployment.yaml#L74
#!/bin/bash

. /opt/bitnami/scripts/liblog.sh

# We need the standalone.conf to be writable but not the rest of the bin folder
info "Copying standalone.conf"
cp /opt/bitnami/wildfly/bin/standalone.conf /wildfly-standalone-conf-dir
info "Writable files successfully copied"
