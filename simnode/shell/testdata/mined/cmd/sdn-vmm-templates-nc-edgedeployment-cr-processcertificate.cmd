@echo off
REM source: https://github.com/microsoft/SDN/blob/242fb0c3190dbb08d7f9406727be18322218e537/VMM/Templates/NC/EdgeDeployment.cr/ProcessCertificate.cmd
chcp 437

@PowerShell -NonInteractive -NoProfile -ExecutionPolicy Unrestricted -Command "& {./ProcessCertificate.ps1 %1; exit $LastExitCode }"
exit /B %errorlevel%
