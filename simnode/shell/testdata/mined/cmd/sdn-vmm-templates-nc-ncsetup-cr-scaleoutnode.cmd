@echo off
REM source: https://github.com/microsoft/SDN/blob/242fb0c3190dbb08d7f9406727be18322218e537/VMM/Templates/NC/NCSetup.cr/ScaleOutNode.cmd
chcp 437

@PowerShell -NonInteractive -NoProfile -ExecutionPolicy Unrestricted -Command "& {.\ScaleOutNode.ps1 %*; exit $LastExitCode }"
exit /B %errorlevel%
