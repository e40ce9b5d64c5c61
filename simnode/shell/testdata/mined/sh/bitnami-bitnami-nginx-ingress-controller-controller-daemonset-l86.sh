# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/nginx-ingress-controller/templates/controller-daemonset.yaml#L86
#!/bin/bash
cp -r /etc/nginx/* /nginx
cp -r /etc/ingress-controller/* /ingress-controller
