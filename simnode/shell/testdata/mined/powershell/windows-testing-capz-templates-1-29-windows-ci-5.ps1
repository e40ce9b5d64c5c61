# source: https://github.com/kubernetes-sigs/windows-testing/blob/6ae6988090b1a0f0b6c7e93db30b8aabe030c8b4/capz/templates/1.29/windows-ci.yaml#L74-L83
mkdir -Force c:/localdumps
reg.exe add "HKLM\Software\Microsoft\Windows\Windows Error Reporting\LocalDumps" /V DumpCount /t REG_DWORD /d 50 /f
reg.exe add "HKLM\Software\Microsoft\Windows\Windows Error Reporting\LocalDumps" /V DumpType /t REG_DWORD /d 2 /f
reg.exe add "HKLM\Software\Microsoft\Windows\Windows Error Reporting\LocalDumps" /V DumpFolder /t REG_EXPAND_SZ /d "c:/LocalDumps" /f
# Enable sftp so we can copy crash dump files during log collection of stfp
$sshd_config = "$env:ProgramData\ssh\sshd_config"
if (-not (Test-Path $sshd_config)) { mkdir -Force $sshd_config }
Add-Content -Path $sshd_config "Subsystem sftp              sftp-server.exe"
sc.exe stop sshd
sc.exe start sshd
