# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/deepspeed/templates/_helpers.tpl#L248
#!/bin/bash
[[ -f "/opt/bitnami/scripts/deepspeed/entrypoint.sh" ]] && source "/opt/bitnami/scripts/deepspeed/entrypoint.sh"
echo "Obtaining public key and generating authorized_keys file"
mkdir -p /home/deepspeed/.ssh
ssh-keygen -y -f /bitnami/ssh/client-private-key/id_rsa > /home/deepspeed/.ssh/authorized_keys
# Create user environment file so the container env vars are included
echo "C_INCLUDE_PATH=$C_INCLUDE_PATH" >> /home/deepspeed/.ssh/environment
echo "CPLUS_INCLUDE_PATH=$CPLUS_INCLUDE_PATH" >> /home/deepspeed/.ssh/environment
echo "PATH=$PATH" >> /home/deepspeed/.ssh/environment
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH" >> /home/deepspeed/.ssh/environment
echo "CFLAGS=$CFLAGS" >> /home/deepspeed/.ssh/environment
echo "CPPFLAGS=$CPPFLAGS" >> /home/deepspeed/.ssh/environment
echo "LDFLAGS=$LDFLAGS" >> /home/deepspeed/.ssh/environment
chmod 700 /home/deepspeed/.ssh
chmod 600 /home/deepspeed/.ssh/authorized_keys
ssh-keygen -A -f /bitnami/ssh/server-private-key/

replace_in_file() {
    local filename="${1:?filename is required}"
    local match_regex="${2:?match regex is required}"
    local substitute_regex="${3:?substitute regex is required}"
    local posix_regex=${4:-true}

    local result

    # We should avoid using 'sed in-place' substitutions
    # 1) They are not compatible with files mounted from ConfigMap(s)
    # 2) We found incompatibility issues with Debian10 and "in-place" substitutions
    local -r del=$'\001' # Use a non-printable character as a 'sed' delimiter to avoid issues
    if [[ $posix_regex = true ]]; then
        result="$(sed -E "s${del}${match_regex}${del}${substitute_regex}${del}g" "$filename")"
    else
        result="$(sed "s${del}${match_regex}${del}${substitute_regex}${del}g" "$filename")"
    fi
    echo "$result" > "$filename"
}

# HACK: Depending on the OS, the ssh version may not have support for
# /etc/ssh/sshd_config.d. Therefore, we need to copy the sshd_config
# to a volume and perform modifications to include the configuration
# from the ConfigMap. The sshd_config file does not allow the
# Include directive, so we need to append the configuration
cp /etc/ssh/sshd_config /bitnami/ssh/sshd-config
if [[ ! -d /etc/ssh/sshd_config.d ]]; then
  # Older version of ssh, merge the contents
  while read -r line; do
    read -a entry <<< $line
    key="${entry[0]}"
    value="${entry[1]}"
    if grep -q "${entry[0]}" /bitnami/ssh/sshd-config/sshd_config; then
      echo "Replacing ${entry[*]} in sshd_config file"
      replace_in_file /bitnami/ssh/sshd-config/sshd_config "^[#]*${entry[0]}.*" "${entry[*]}"
    else
      echo "Adding ${entry[*]} in sshd_config file"
      echo "${entry[*]}" >> /bitnami/ssh/sshd-config/sshd_config
    fi
  done < /bitnami/ssh/server-configmap/*.conf
fi
