# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/deepspeed/templates/client/client-dep-job.yaml#L176
[[ -f "/opt/bitnami/scripts/deepspeed/entrypoint.sh" ]] && source "/opt/bitnami/scripts/deepspeed/entrypoint.sh"
python -c "import deepspeed; print(deepspeed.__version__)"
