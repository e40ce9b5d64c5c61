# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/deepspeed/templates/_helpers.tpl#L212
#!/bin/bash
# HACK: Depending on the OS, the ssh version may not have support for
# /etc/ssh/ssh_config.d. Therefore, we need to copy the ssh_config
# to a volume and perform modifications to include the configuration
# from the ConfigMap, as it will not be read
[[ -f "/opt/bitnami/scripts/deepspeed/entrypoint.sh" ]] && source "/opt/bitnami/scripts/deepspeed/entrypoint.sh"
cp /etc/ssh/ssh_config /bitnami/ssh/ssh-config
if [[ ! -d /etc/ssh/ssh_config.d ]]; then
  # Older version of ssh, add the include directive
  echo "Modifying ssh_config with include directive"
  echo "Include /etc/ssh/ssh_config.d/*.conf" >> /bitnami/ssh/ssh-config/ssh_config
fi
