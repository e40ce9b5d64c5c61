# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/mastodon/templates/web/deployment.yaml#L84
#!/bin/bash
# HACK: Mastodon does not allow having a /tmp directory world-writable, so we need to create a /tmp dir
# with more restricted permissions
mkdir -p /tmp/tmp-dir
