# source: https://github.com/Azure/AgentBaker/blob/06836ee2301e362039418c3a7ed0fe6004a641fd/staging/cse/windows/containerdfunc.ps1
# this is $global to persist across all functions since this is dot-sourced
$global:ContainerdInstallLocation = "$Env:ProgramFiles\containerd"
$global:Containerdbinary = (Join-Path $global:ContainerdInstallLocation containerd.exe)
# The minimum kubernetes version to use containerd 2.x
$global:MinimalKubernetesVersionWithLatestContainerd2 = "1.32.0"
$global:WindowsDataDir = "C:\AzureData\windows"
function RegisterContainerDService {
  Param(
    [Parameter(Mandatory = $true)][string]
    $kubedir
  )

  Assert-FileExists -Filename $global:Containerdbinary -ExitCode $global:WINDOWS_CSE_ERROR_CONTAINERD_BINARY_EXIST

  # in the past service was not installed via nssm so remove it in case
  $svc = Get-Service -Name "containerd" -ErrorAction SilentlyContinue
  if ($null -ne $svc) {
    sc.exe delete containerd
  }

  Write-Log "Registering containerd as a service"
  # setup containerd
  & "$KubeDir\nssm.exe" install containerd $global:Containerdbinary | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd AppDirectory $KubeDir | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd DisplayName containerd | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd Description containerd | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd Start SERVICE_DEMAND_START | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd ObjectName LocalSystem | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd Type SERVICE_WIN32_OWN_PROCESS | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd AppPriority ABOVE_NORMAL_PRIORITY_CLASS | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd AppThrottle 1500 | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd AppStdout "$KubeDir\containerd.log" | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd AppStderr "$KubeDir\containerd.err.log" | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd AppRotateFiles 1 | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd AppRotateOnline 1 | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd AppRotateSeconds 86400 | RemoveNulls
  & "$KubeDir\nssm.exe" set containerd AppRotateBytes 10485760 | RemoveNulls

  $retryCount=0
  $maxRetryCount=6 # 1 minutes

  do {
    $svc = Get-Service -Name "containerd" -ErrorAction SilentlyContinue
    if ($null -eq $svc) {
      Set-ExitCode -ExitCode $global:WINDOWS_CSE_ERROR_CONTAINERD_NOT_INSTALLED -ErrorMessage "containerd.exe did not get installed as a service correctly."
    }

    if ($svc.Status -eq "Running") {
      Write-Log "containerd service is running"
      break
    }

    $retryCount++
    Write-Log "Starting containerd service (attempt $retryCount of $maxRetryCount), current status: $($svc.Status)"

    try {
      Start-Service containerd -ErrorAction Stop
      $svc = Get-Service -Name "containerd"
      $svc.WaitForStatus('Running', [timespan]::FromSeconds(5))
      Write-Log "containerd service started successfully"
      break
    }
    catch {
      Write-Log "Failed to start containerd service: $_"
    }

    if ($retryCount -lt $maxRetryCount) {
      Write-Log "Retry $retryCount failed. Waiting 5 seconds before next attempt..."
      Start-Sleep -Seconds 5
    }
  } while ($retryCount -lt $maxRetryCount)

  if ($svc.Status -ne "Running") {
    Set-ExitCode -ExitCode $global:WINDOWS_CSE_ERROR_CONTAINERD_NOT_RUNNING -ErrorMessage "containerd service is not running"
  }
}

function CreateHypervisorRuntime {
  Param(
    [Parameter(Mandatory = $true)][string]
    $image,
    [Parameter(Mandatory = $true)][string]
    $version,
    [Parameter(Mandatory = $true)][string]
    $buildNumber
  )

  return @"
        [plugins.cri.containerd.runtimes.runhcs-wcow-hypervisor-$buildnumber]
          runtime_type = "io.containerd.runhcs.v1"
          [plugins.cri.containerd.runtimes.runhcs-wcow-hypervisor-$buildnumber.options]
            Debug = true
            DebugType = 2
            SandboxImage = "$image-windows-$version-amd64"
            SandboxPlatform = "windows/amd64"
            SandboxIsolation = 1
            ScaleCPULimitsToSandbox = true
"@
}

function CreateHypervisorRuntimes {
  Param(
    [Parameter(Mandatory = $true)][string[]]
    $builds,
    [Parameter(Mandatory = $true)][string]
    $image
  )

  Write-Log "Adding hyperv runtimes $builds"
  $hypervRuntimes = ""
  ForEach ($buildNumber in $builds) {
    $windowsVersion = Get-WindowsVersion
    $runtime = createHypervisorRuntime -image $pauseImage -version $windowsVersion -buildNumber $buildNumber
    if ($hypervRuntimes -eq "") {
      $hypervRuntimes = $runtime
    }
    else {
      $hypervRuntimes = $hypervRuntimes + "`r`n" + $runtime
    }
  }

  return $hypervRuntimes
}

function ProcessAndWriteContainerdConfig {
  Param(
    [Parameter(Mandatory = $true)][string]
    $ContainerDVersion,
    [Parameter(Mandatory = $true)][string]
    $CNIBinDir,
    [Parameter(Mandatory = $true)][string]
    $CNIConfDir
  )

  $sandboxIsolation = 0
  if ($global:DefaultContainerdWindowsSandboxIsolation -eq "hyperv") {
    Write-Log "default runtime for containerd set to hyperv"
    $sandboxIsolation = 1
  }

  $clusterConfig = ConvertFrom-Json ((Get-Content $global:KubeClusterConfigPath -ErrorAction Stop) | Out-String)
  $pauseImage = $clusterConfig.Cri.Images.Pause

  $hypervHandlers = $global:ContainerdWindowsRuntimeHandlers.split(",", [System.StringSplitOptions]::RemoveEmptyEntries)
  $hypervRuntimes = ""

  $templateFilePath =  "containerdtemplate.toml"
  if (([version]$ContainerdVersion).CompareTo([version]"2.0.0") -ge 0) {
    $templateFilePath= "containerd2template.toml"
  }

  $templatePath = [Io.Path]::Combine( $global:WindowsDataDir, $templateFilePath)

  $template = Get-Content -Path $templatePath
  if ($SandboxIsolation -eq 0 -And $hypervHandlers.Count -eq 0) {
    # Remove the hypervisors placeholder when not needed
    $template = $template | Select-String -Pattern 'hypervisors' -NotMatch
  }
  else {
    $hypervRuntimes = CreateHypervisorRuntimes -builds $hypervHandlers -image $pauseImage
  }

  # Set up registry mirrors
  Set-ContainerdRegistryConfig -Registry "docker.io" -RegistryHost "registry-1.docker.io"
  if ((Test-Path variable:global:BootstrapProfileContainerRegistryServer) -and -not [string]::IsNullOrEmpty($global:BootstrapProfileContainerRegistryServer)) {
    Set-BootstrapProfileRegistryContainerdHost
  } else {
    Set-ContainerdRegistryConfig -Registry "mcr.azk8s.cn" -RegistryHost "mcr.azure.cn"
  }

  if (([version]$ContainerdVersion).CompareTo([version]"1.7.9") -lt 0) {
    # Remove annotations placeholders for older containerd versions
    $template = $template | Select-String -Pattern 'containerAnnotations' -NotMatch
    $template = $template | Select-String -Pattern 'podAnnotations' -NotMatch
  }

  # Convert template to string for placeholder replacements
  $template = $template | Out-String
  $formatedbin = $(($CNIBinDir).Replace("\", "/"))
  $formatedconf = $(($CNIConfDir).Replace("\", "/"))
  $containerAnnotations = 'container_annotations = ["io.microsoft.container.processdumplocation", "io.microsoft.wcow.processdumptype", "io.microsoft.wcow.processdumpcount"]'
  $podAnnotations = 'pod_annotations = ["io.microsoft.container.processdumplocation","io.microsoft.wcow.processdumptype", "io.microsoft.wcow.processdumpcount"]'

  # Replace all placeholders
  $processedTemplate = $template.Replace('{{sandboxIsolation}}', $sandboxIsolation).
    Replace('{{pauseImage}}', $pauseImage).
    Replace('{{hypervisors}}', $hypervRuntimes).
    Replace('{{cnibin}}', $formatedBin).
    Replace('{{cniconf}}', $formatedConf).
    Replace('{{containerAnnotations}}', $containerAnnotations).
    Replace('{{podAnnotations}}', $podAnnotations)

  # Write the processed template to the config file
  $configFile = [Io.Path]::Combine($global:ContainerdInstallLocation, "config.toml")
  Write-Log "using template $templatePath to write containerd config to $configFile"
  $processedTemplate | Out-File -FilePath $configFile -Encoding ascii
}

function Enable-Logging {
  if ((Test-Path "$global:ContainerdInstallLocation\diag.ps1") -And (Test-Path "$global:ContainerdInstallLocation\ContainerPlatform.wprp")) {
    $logs = Join-path $pwd.drive.Root logs
    Write-Log "Containerd hyperv logging enabled; temp location $logs"
    $diag = Join-Path $global:ContainerdInstallLocation diag.ps1
    Create-Directory -FullPath $logs -DirectoryUsage "storing containerd logs"
    # !ContainerPlatformPersistent profile is made to work with long term and boot tracing
    & $diag -Start -ProfilePath "$global:ContainerdInstallLocation\ContainerPlatform.wprp!ContainerPlatformPersistent" -TempPath $logs
  }
  else {
    Write-Log "Containerd hyperv logging script not avalaible"
  }
}

function Set-ContainerdRegistryConfig {
  Param(
    [Parameter(Mandatory = $true)][string] $Registry,
    [Parameter(Mandatory = $true)][string] $RegistryHost
  )

  $rootRegistryPath = "C:\ProgramData\containerd\certs.d"
  $registryPath = Join-Path $rootRegistryPath $Registry
  $hostsTomlPath = Join-Path $registryPath "hosts.toml"

  Create-Directory -FullPath $registryPath -DirectoryUsage "storing containerd registry hosts config"

  $content = @"
server = "https://$Registry"

[host."https://$RegistryHost"]
  capabilities = ["pull", "resolve"]
[host."https://$RegistryHost".header]
    X-Forwarded-For = ["$Registry"]
"@

  $content | Out-File -FilePath $hostsTomlPath -Encoding ascii
  Write-Log "Wrote containerd hosts config for registry '$Registry' to '$hostsTomlPath'"
}

function Set-BootstrapProfileRegistryContainerdHost {
  $mcrRegistry = if ((Test-Path variable:global:MCRRepositoryBase) -and
      -not [string]::IsNullOrEmpty($global:MCRRepositoryBase)) {
    [string]$global:MCRRepositoryBase
  }
  else {
    "mcr.microsoft.com"
  }
  $rootRegistryPath = "C:\ProgramData\containerd\certs.d"
  $mcrRegistryPath = Join-Path $rootRegistryPath $mcrRegistry
  $hostsTomlPath = Join-Path $mcrRegistryPath "hosts.toml"

  $registryHost = [string]$global:BootstrapProfileContainerRegistryServer
  $registryHost = ($registryHost -replace '^https?://', '').TrimEnd('/')

  $registryHostParts = $registryHost.Split('/', 2)
  $registryHostName = $registryHostParts[0]
  $registryRepoPrefix = if ($registryHostParts.Length -gt 1) { $registryHostParts[1].Trim('/') } else { "" }

  $registryHost = if ([string]::IsNullOrEmpty($registryRepoPrefix)) {
    "$registryHostName/v2"
  }
  else {
    "$registryHostName/v2/$registryRepoPrefix"
  }

  Create-Directory -FullPath $mcrRegistryPath -DirectoryUsage "storing containerd registry hosts config"

  $content = @"
server = "https://$mcrRegistry"

[host."https://$registryHost"]
  capabilities = ["pull", "resolve"]
  override_path = true
"@

  $content | Out-File -FilePath $hostsTomlPath -Encoding ascii
  Write-Log "Wrote bootstrap profile container registry hosts config from '$mcrRegistry' to '$registryHost' at '$hostsTomlPath'"
}

function Install-Containerd {
  Param(
    [Parameter(Mandatory = $true)][string]
    $ContainerdUrl,
    [Parameter(Mandatory = $true)][string]
    $CNIBinDir,
    [Parameter(Mandatory = $true)][string]
    $CNIConfDir,
    [Parameter(Mandatory = $true)][string]
    $KubeDir
  )

  $svc = Get-Service -Name containerd -ErrorAction SilentlyContinue
  # TODO: check if containerd is already installed and is the same version before this.
  if ($null -ne $svc) {
    Write-Log "Stopping containerd service"
    $svc | Stop-Service
  }

  # Extract the package
  # upstream containerd package is a tar
  $tarfile = [Io.path]::Combine($ENV:TEMP, "containerd.tar.gz")

  if ([string]::IsNullOrEmpty($global:BootstrapProfileContainerRegistryServer)) {
    # default path
    # download containerd binaries via http if BootstrapProfileContainerRegistryServer is not set
    DownloadFileOverHttp -Url $ContainerdUrl -DestinationPath $tarfile -ExitCode $global:WINDOWS_CSE_ERROR_DOWNLOAD_CONTAINERD_PACKAGE
  } else {
    # ni path
    # download containerd binaries via oras if BootstrapProfileContainerRegistryServer is set
    if (-not (Get-Command 'DownloadFileWithOras' -ErrorAction SilentlyContinue)) {
        Set-ExitCode -ExitCode $global:WINDOWS_CSE_ERROR_ORAS_PULL_CONTAINERD -ErrorMessage "DownloadFileWithOras function is not available. networkisolatedclusterfunc.ps1 may not be sourced."
    }

    # Extract containerd version tag from URL for ORAS reference
    # URL format: https://packages.aks.azure.com/containerd/windows/v1.7.20-azure.1/binaries/containerd-v1.7.20-azure.1-windows-amd64.tar.gz
    if ($ContainerdUrl -match "containerd-(v[\d.]+)-azure\.\d+-windows-amd64\.tar\.gz") {
        $containerdVersionTag = $matches[1]
    } else {
        Set-ExitCode -ExitCode $global:WINDOWS_CSE_ERROR_ORAS_PULL_CONTAINERD -ErrorMessage "Failed to extract containerd version tag from URL: $ContainerdUrl"
    }

    # Sanitize the registry server value: strip scheme and trailing slash, preserve any repo prefix
    $sanitizedRegistry = ($global:BootstrapProfileContainerRegistryServer -replace '^https?://', '').TrimEnd('/')

    Logs-To-Event -TaskName "AKS.WindowsCSE.DownloadContainerdWithOras" -TaskMessage "Start to download containerd with oras. ContainerdVersionTag: $containerdVersionTag, BootstrapProfileContainerRegistryServer: $global:BootstrapProfileContainerRegistryServer"
    $orasReference = "$sanitizedRegistry/aks/packages/containerd/containerd:$containerdVersionTag"
    $cachedFileName = Get-FileNameFromUrl -Url $ContainerdUrl
    try {
        Retry-Command -Command "DownloadFileWithOras" -Args @{Reference=$orasReference; DestinationPath=$tarfile; CachedFile=$cachedFileName} -Retries 5 -RetryDelaySeconds 10
    } catch {
        Set-ExitCode -ExitCode $global:WINDOWS_CSE_ERROR_ORAS_PULL_CONTAINERD -ErrorMessage "Exhausted retries for oras pull $orasReference. Error: $_"
    }
  }
  Create-Directory -FullPath $global:ContainerdInstallLocation -DirectoryUsage "storing containerd"
  tar -xzf $tarfile -C $global:ContainerdInstallLocation
  if ($LASTEXITCODE -ne 0) {
    throw "Failed to extract the '$tarfile' archive."
  }
  Move-Item -Force $global:ContainerdInstallLocation\bin\* $global:ContainerdInstallLocation\
  Remove-Item -Path $tarfile -Force
  Remove-Item -Path $global:ContainerdInstallLocation\bin -Force -Recurse

  # get configuration options
  Add-SystemPathEntry $global:ContainerdInstallLocation

  $containerdVersion ="0.0.0"
  try {
    # Check containerd version to determine if it supports annotations
    Push-Location $global:ContainerdInstallLocation
      # Examples:
      #  - containerd github.com/containerd/containerd v1.6.21+azure 3dce8eb055cbb6872793272b4f20ed16117344f8
      #  - containerd github.com/containerd/containerd v1.7.9+azure 4f03e100cb967922bec7459a78d16ccbac9bb81d
      $versionstring=$(.\containerd.exe -v)
      Write-Log "containerd version: $versionstring"
      $containerdVersion=$versionstring.split(" ")[2].Split("+")[0].substring(1)
    Pop-Location
  }catch {
    Set-ExitCode -ExitCode $global:WINDOWS_CSE_ERROR_GET_CONTAINERD_VERSION -ErrorMessage "Failed in getting Windows containerd version. Error: $_"
  }

  ProcessAndWriteContainerdConfig `
    -ContainerDVersion $containerdVersion `
    -CNIBinDir $CNIBinDir `
    -CNIConfDir $CNIConfDir

  RegisterContainerDService -KubeDir $KubeDir
  if (-not [string]::IsNullOrEmpty($global:BootstrapProfileContainerRegistryServer)) {
    if (Get-Command -Name Set-PodInfraContainerImage -ErrorAction SilentlyContinue) {
      Set-PodInfraContainerImage
    }
    else {
      Write-Log "Set-PodInfraContainerImage command not found; skipping pod infra container image configuration."
    }
  }
  Enable-Logging
}
