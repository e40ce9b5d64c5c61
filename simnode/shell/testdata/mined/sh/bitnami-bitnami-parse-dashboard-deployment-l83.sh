# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/parse/templates/dashboard-deployment.yaml#L83
#!/bin/bash

# HACK: We need to create this file in the emptyDir volume to make it writable
# in the
touch /default-conf/config.json
