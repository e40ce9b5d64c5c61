# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/janusgraph/templates/_helpers.tpl#L89
#!/bin/bash

# HACK: Gremlin console interactive mode won't work unless its history file is writable at /opt/bitnami/janusgraph
# To be able to run with readOnlyRootFilesystem, we create the file and mount it as a volume
# Additionally copy the default content of the ext directory for console plugins installation
touch /base-dir/.gremlin_groovy_history
cp /opt/bitnami/janusgraph/ext/* /ext-dir

# Load env variables
[[ -f /opt/bitnami/scripts/janusgraph-env.sh ]] && . /opt/bitnami/scripts/janusgraph-env.sh

# Copy Janusgraph configmap
cp "/bitnami/janusgraph/conf/janusgraph.properties" "${JANUSGRAPH_PROPERTIES}"

# Configure libnss_wrapper
if [[ -f /opt/bitnami/scripts/libos.sh ]]; then
  . /opt/bitnami/scripts/libos.sh
  if ! am_i_root; then
      export LNAME="janusgraph"
      export LD_PRELOAD="/opt/bitnami/common/lib/libnss_wrapper.so"
      if ! user_exists "$(id -u)" && [[ -f "$LD_PRELOAD" ]]; then
          info "Configuring libnss_wrapper"
          NSS_WRAPPER_PASSWD="$(mktemp)"
          export NSS_WRAPPER_PASSWD
          NSS_WRAPPER_GROUP="$(mktemp)"
          export NSS_WRAPPER_GROUP
          echo "janusgraph:x:$(id -u):$(id -g):JanusGraph:${JANUSGRAPH_BASE_DIR}:/bin/false" > "$NSS_WRAPPER_PASSWD"
          echo "janusgraph:x:$(id -g):" > "$NSS_WRAPPER_GROUP"
          chmod 400 "$NSS_WRAPPER_PASSWD" "$NSS_WRAPPER_GROUP"
      fi
  fi
fi

# Configure from environment variables
if [[ -f "/opt/bitnami/scripts/libjanusgraph.sh" ]]; then
  . /opt/bitnami/scripts/libjanusgraph.sh
  janusgraph_properties_configure_from_environment_variables
fi

# Check storage
echo "graph = JanusGraphFactory.open('${JANUSGRAPH_PROPERTIES}')" > "/tmp/check-storage.groovy"
info "Waiting for Storage backend to be ready..."

if ! retry_while "${JANUSGRAPH_BIN_DIR}/gremlin.sh -e /tmp/check-storage.groovy"; then
    error "Storage backend is not ready yet."
    exit 1
fi

# Cleanup
rm "/tmp/check-storage.groovy" "${JANUSGRAPH_PROPERTIES}"
info "Storage is ready"
