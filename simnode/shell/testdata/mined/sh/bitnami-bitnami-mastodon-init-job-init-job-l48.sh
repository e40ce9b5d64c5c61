# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/mastodon/templates/init-job/init-job.yaml#L48
#!/bin/bash
cp -r /opt/bitnami/mastodon/public/* /public
