@echo off
REM source: https://github.com/kubernetes/kubernetes/blob/v1.35.4/cluster/images/etcd/migrate-if-needed.bat
REM Copyright 2021 The Kubernetes Authors.
REM
REM Licensed under the Apache License, Version 2.0 (the "License");
REM you may not use this file except in compliance with the License.
REM You may obtain a copy of the License at
REM
REM     http://www.apache.org/licenses/LICENSE-2.0
REM
REM Unless required by applicable law or agreed to in writing, software
REM distributed under the License is distributed on an "AS IS" BASIS,
REM WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
REM See the License for the specific language governing permissions and
REM limitations under the License.

REM DEPRECATED:
REM The functionality has been moved to migrate binary and this script
REM if left for backward compatibility with previous manifests. It will be
REM removed in the future.

C:\bin\migrate.exe
