# source: https://github.com/Azure/AgentBaker/blob/06836ee2301e362039418c3a7ed0fe6004a641fd/staging/cse/windows/kubeletfunc.tests.ps1
BeforeAll {
    . $PSScriptRoot\..\..\..\parts\windows\windowscsehelper.ps1
    . $PSScriptRoot\networkisolatedclusterfunc.ps1
    . $PSCommandPath.Replace('.tests.ps1','.ps1')
}

Describe 'Get-KubePackage' {
    BeforeEach {
        Mock Expand-Archive
        Mock Remove-Item -ParameterFilter { $Path -eq 'c:\k.zip' }
        Mock Logs-To-Event
        Mock DownloadFileOverHttp -MockWith {
            Param(
                $Url,
                $DestinationPath,
                $ExitCode
            )
            Write-Host "DownloadFileOverHttp -Url $Url -DestinationPath $DestinationPath -ExitCode $ExitCode"
        } -Verifiable

        $global:CacheDir = 'c:\akse-cache'
        # Ensure no global state leaked from other test files
        $global:BootstrapProfileContainerRegistryServer = $null
    }

    Context 'mapping file exists' {
        BeforeEach {
            Mock Test-Path -MockWith { $true }
            Mock Get-Content -MockWith {
                Param(
                    $Path
                )
@'
                {
                    "1.29.5":  "https://xxx.blob.core.windows.net/kubernetes/v1.29.5-hotfix.20240101/windowszip/v1.29.5-hotfix.20240101-1int.zip",
                    "1.29.2":  "https://xxx.blob.core.windows.net/kubernetes/v1.29.2-hotfix.20240101/windowszip/v1.29.2-hotfix.20240101-1int.zip",
                    "1.29.0":  "https://xxx.blob.core.windows.net/kubernetes/v1.29.0-hotfix.20240101/windowszip/v1.29.0-hotfix.20240101-1int.zip",
                    "1.28.3":  "https://xxx.blob.core.windows.net/kubernetes/v1.28.3-hotfix.20240101/windowszip/v1.28.3-hotfix.20240101-1int.zip",
                    "1.28.0":  "https://xxx.blob.core.windows.net/kubernetes/v1.28.0-hotfix.20240101/windowszip/v1.28.0-hotfix.20240101-1int.zip",
                    "1.27.1":  "https://xxx.blob.core.windows.net/kubernetes/v1.27.1-hotfix.20240101/windowszip/v1.27.1-hotfix.20240101-1int.zip",
                    "1.27.0":  "https://xxx.blob.core.windows.net/kubernetes/v1.27.0-hotfix.20240101/windowszip/v1.27.0-hotfix.20240101-1int.zip"
                }
'@
            }
        }

        It "KubeBinariesSASURL should be changed when the version exists in the mapping file" {
            $global:KubeBinariesVersion = '1.29.2'
            Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip'
            Assert-MockCalled -CommandName 'DownloadFileOverHttp' -Exactly -Times 1 -ParameterFilter { $Url -eq 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2-hotfix.20240101/windowszip/v1.29.2-hotfix.20240101-1int.zip' }
        }

        It "KubeBinariesSASURL should not be changed when the version does not exist in the mapping file" {
            $global:KubeBinariesVersion = '1.30.0'
            Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.30.0/windowszip/v1.30.0-1int.zip'
            Assert-MockCalled -CommandName 'DownloadFileOverHttp' -Exactly -Times 1 -ParameterFilter { $Url -eq 'https://xxx.blob.core.windows.net/kubernetes/v1.30.0/windowszip/v1.30.0-1int.zip' }
        }
    }

    Context 'mapping file does not exist' {
        It "KubeBinariesSASURL should not be changed" {
            Mock Test-Path -MockWith { $false }
            $global:KubeBinariesVersion = '1.29.2'
            Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip'
            Assert-MockCalled -CommandName 'DownloadFileOverHttp' -Exactly -Times 1 -ParameterFilter { $Url -eq 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip' }
        }
    }

    Context 'BootstrapProfileContainerRegistryServer is set - downloads with ORAS' {
        BeforeEach {
            Mock DownloadFileWithOras -MockWith {}
            Mock Test-Path -MockWith { $false }
            Mock AKS-Expand-Archive -MockWith {}

            $global:BootstrapProfileContainerRegistryServer = "myregistry.azurecr.io"
            $global:KubeBinariesVersion = "1.29.2"
        }

        AfterEach {
            $global:BootstrapProfileContainerRegistryServer = $null
        }

        It "Should not call DownloadFileOverHttp when BootstrapProfileContainerRegistryServer is set" {
            Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip'
            Assert-MockCalled -CommandName 'DownloadFileOverHttp' -Exactly -Times 0
        }

        It "Should call DownloadFileWithOras with correct reference when BootstrapProfileContainerRegistryServer is set" {
            Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip'
            Assert-MockCalled -CommandName 'DownloadFileWithOras' -Exactly -Times 1 -ParameterFilter {
                $Reference -eq 'myregistry.azurecr.io/aks/packages/kubernetes/windowszip:v1.29.2' -and
                $DestinationPath -eq 'c:\k.zip'
            }
        }

        It "Should call Logs-To-Event with ORAS task name when BootstrapProfileContainerRegistryServer is set" {
            Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip'
            Assert-MockCalled -CommandName 'Logs-To-Event' -Exactly -Times 1 -ParameterFilter { $TaskName -eq 'AKS.WindowsCSE.DownloadKubeletBinariesWithOras' }
        }

        It "Should still expand archive and clean up zip file after ORAS download" {
            Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip'
            Assert-MockCalled -CommandName 'AKS-Expand-Archive' -Exactly -Times 1 -ParameterFilter { $Path -eq 'c:\k.zip' -and $DestinationPath -eq 'C:\' }
            Assert-MockCalled -CommandName 'Remove-Item' -Exactly -Times 1
        }

        It "Should call Set-ExitCode after exhausting retries when DownloadFileWithOras keeps failing" {
            Mock DownloadFileWithOras -MockWith { throw "oras pull failed" }
            Mock Start-Sleep -MockWith {}
            Mock Set-ExitCode -MockWith {
                Param($ExitCode, $ErrorMessage)
                throw "Set-ExitCode: $ExitCode - $ErrorMessage"
            }

            { Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip' } | Should -Throw "*Exhausted retries for oras pull*"
            Assert-MockCalled -CommandName 'DownloadFileWithOras' -Exactly -Times 5
        }
    }

    Context 'BootstrapProfileContainerRegistryServer is set but DownloadFileWithOras is not available' {
        BeforeEach {
            Mock Test-Path -MockWith { $false }
            Mock AKS-Expand-Archive -MockWith {}
            Mock Set-ExitCode -MockWith {
                Param($ExitCode, $ErrorMessage)
                throw "Set-ExitCode: $ExitCode - $ErrorMessage"
            }
            Mock Get-Command -MockWith { return $null } -ParameterFilter { $Name -eq 'DownloadFileWithOras' }

            $global:BootstrapProfileContainerRegistryServer = "myregistry.azurecr.io"
            $global:KubeBinariesVersion = "1.29.2"
        }

        AfterEach {
            $global:BootstrapProfileContainerRegistryServer = $null
        }

        It "Should call Set-ExitCode when DownloadFileWithOras function is not available" {
            { Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip' } | Should -Throw "*DownloadFileWithOras function is not available*"
        }
    }

    Context 'BootstrapProfileContainerRegistryServer is not set - falls back to HTTP download' {
        BeforeEach {
            $global:BootstrapProfileContainerRegistryServer = $null
            Mock Test-Path -MockWith { $false }
            Mock AKS-Expand-Archive -MockWith {}
        }

        It "Should call DownloadFileOverHttp when BootstrapProfileContainerRegistryServer is not set" {
            $global:KubeBinariesVersion = '1.29.2'
            Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip'
            Assert-MockCalled -CommandName 'DownloadFileOverHttp' -Exactly -Times 1 -ParameterFilter { $Url -eq 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip' }
        }

        It "Should call Logs-To-Event with HTTP download task name" {
            $global:KubeBinariesVersion = '1.29.2'
            Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip'
            Assert-MockCalled -CommandName 'Logs-To-Event' -Exactly -Times 1 -ParameterFilter { $TaskName -eq 'AKS.WindowsCSE.DownloadKubeletBinaries' }
        }

        It "Should call DownloadFileOverHttp when BootstrapProfileContainerRegistryServer is empty string" {
            $global:BootstrapProfileContainerRegistryServer = ""
            $global:KubeBinariesVersion = '1.29.2'
            Get-KubePackage -KubeBinariesSASURL 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip'
            Assert-MockCalled -CommandName 'DownloadFileOverHttp' -Exactly -Times 1 -ParameterFilter { $Url -eq 'https://xxx.blob.core.windows.net/kubernetes/v1.29.2/windowszip/v1.29.2-1int.zip' }
        }
    }
}

Describe 'Configure-KubeletServingCertificateRotation' {
    BeforeEach {
        Mock Logs-To-Event
    }

    It "Should no-op when EnableKubeletServingCertificateRotation is false" {
        Mock Get-TagValue -MockWith { "false" }
        $kubeletConfigArgs = "--rotate-certificates=true,--rotate-server-certificates=false,--node-ip=10.0.0.1,anonymous-auth=false"
        $kubeletNodeLabels = "kubernetes.azure.com/agentpool=wp0"
        $global:KubeletNodeLabels = $kubeletNodeLabels
        $global:KubeletConfigArgs = $kubeletConfigArgs
        $global:EnableKubeletServingCertificateRotation = $false
        Configure-KubeletServingCertificateRotation
        Compare-Object $global:KubeletConfigArgs $kubeletConfigArgs | Should -Be $null
        Compare-Object $global:KubeletNodeLabels $kubeletNodeLabels | Should -Be $null
        Assert-MockCalled -CommandName 'Get-TagValue' -Exactly -Times 0
    }

    It "Should reconfigure kubelet args to disable kubelet serving certificate rotation if opt-out tag is set" {
        Mock Get-TagValue -MockWith { "true" }
        $kubeletConfigArgs = "--rotate-certificates=true,--rotate-server-certificates=true,--node-ip=10.0.0.1,anonymous-auth=false"
        $kubeletNodeLabels = "kubernetes.azure.com/agentpool=wp0"
        $global:KubeletNodeLabels = $kubeletNodeLabels
        $global:KubeletConfigArgs = $kubeletConfigArgs
        $global:EnableKubeletServingCertificateRotation = $true
        Configure-KubeletServingCertificateRotation
        Compare-Object $global:KubeletConfigArgs "--rotate-certificates=true,--rotate-server-certificates=false,--node-ip=10.0.0.1,anonymous-auth=false" | Should -Be $null
        Compare-Object $global:KubeletNodeLabels $kubeletNodeLabels | Should -Be $null
        Assert-MockCalled -CommandName 'Get-TagValue' -Exactly -Times 1
    }

    It "Should reconfigure kubelet args and node labels to disable kubelet serving certificate rotation if opt-out tag is set" {
        Mock Get-TagValue -MockWith { "true" }
        $kubeletConfigArgs = "--rotate-certificates=true,--rotate-server-certificates=true,--node-ip=10.0.0.1,anonymous-auth=false"
        $kubeletNodeLabels = "kubernetes.azure.com/agentpool=wp0,kubernetes.azure.com/kubelet-serving-ca=cluster"
        $global:KubeletNodeLabels = $kubeletNodeLabels
        $global:KubeletConfigArgs = $kubeletConfigArgs
        $global:EnableKubeletServingCertificateRotation = $true
        Configure-KubeletServingCertificateRotation
        Compare-Object $global:KubeletConfigArgs "--rotate-certificates=true,--rotate-server-certificates=false,--node-ip=10.0.0.1,anonymous-auth=false" | Should -Be $null
        Compare-Object $global:KubeletNodeLabels "kubernetes.azure.com/agentpool=wp0" | Should -Be $null
        Assert-MockCalled -CommandName 'Get-TagValue' -Exactly -Times 1
    }

    It "Should no-op if kubelet args and node labels are already correct when the opt-out tag is set" {
        Mock Get-TagValue -MockWith { "true" }
        $kubeletConfigArgs = "--rotate-certificates=true,--rotate-server-certificates=false,--node-ip=10.0.0.1,anonymous-auth=false"
        $kubeletNodeLabels = "kubernetes.azure.com/agentpool=wp0"
        $global:KubeletNodeLabels = $kubeletNodeLabels
        $global:KubeletConfigArgs = $kubeletConfigArgs
        $global:EnableKubeletServingCertificateRotation = $true
        Configure-KubeletServingCertificateRotation
        Compare-Object $global:KubeletConfigArgs $kubeletConfigArgs | Should -Be $null
        Compare-Object $global:KubeletNodeLabels $kubeletNodeLabels | Should -Be $null
        Assert-MockCalled -CommandName 'Get-TagValue' -Exactly -Times 1
    }

    It "Should reconfigure kubelet node labels to enable kubelet serving certificate rotation if opt-out tag is not set" {
        Mock Get-TagValue -MockWith { "false" }
        $kubeletConfigArgs = "--rotate-certificates=true,--rotate-server-certificates=true,--node-ip=10.0.0.1,anonymous-auth=false"
        $kubeletNodeLabels = "kubernetes.azure.com/agentpool=wp0"
        $global:KubeletNodeLabels = $kubeletNodeLabels
        $global:KubeletConfigArgs = $kubeletConfigArgs
        $global:EnableKubeletServingCertificateRotation = $true
        Configure-KubeletServingCertificateRotation
        Compare-Object $global:KubeletConfigArgs $kubeletConfigArgs | Should -Be $null
        Compare-Object $global:KubeletNodeLabels "kubernetes.azure.com/agentpool=wp0,kubernetes.azure.com/kubelet-serving-ca=cluster" | Should -Be $null
        Assert-MockCalled -CommandName 'Get-TagValue' -Exactly -Times 1
    }

    It "Should no-op if kubelet args and node labels are already correct when the opt-out tag is not set" {
        Mock Get-TagValue -MockWith { "false" }
        $kubeletConfigArgs = "--rotate-certificates=true,--rotate-server-certificates=true,--node-ip=10.0.0.1,anonymous-auth=false"
        $kubeletNodeLabels = "kubernetes.azure.com/agentpool=wp0,kubernetes.azure.com/kubelet-serving-ca=cluster"
        $global:KubeletNodeLabels = $kubeletNodeLabels
        $global:KubeletConfigArgs = $kubeletConfigArgs
        $global:EnableKubeletServingCertificateRotation = $true
        Configure-KubeletServingCertificateRotation
        Compare-Object $global:KubeletConfigArgs $kubeletConfigArgs | Should -Be $null
        Compare-Object $global:KubeletNodeLabels $kubeletNodeLabels | Should -Be $null
        Assert-MockCalled -CommandName 'Get-TagValue' -Exactly -Times 1
    }
}

Describe 'Disable-KubeletServingCertificateRotationForTags' {
    BeforeEach {
        Mock Logs-To-Event
    }

    It "Should no-op when EnableKubeletServingCertificateRotation is already disabled" {
        Mock Get-TagValue -MockWith { "false" }
        $kubeletConfigArgs = "--rotate-certificates=true,--rotate-server-certificates=false,--node-ip=10.0.0.1,anonymous-auth=false"
        $kubeletNodeLabels = "kubernetes.azure.com/agentpool=wp0"
        $global:KubeletNodeLabels = $kubeletNodeLabels
        $global:KubeletConfigArgs = $kubeletConfigArgs
        $global:EnableKubeletServingCertificateRotation = $false
        Disable-KubeletServingCertificateRotationForTags
        Compare-Object $global:KubeletConfigArgs $kubeletConfigArgs | Should -Be $null
        Compare-Object $global:KubeletNodeLabels $kubeletNodeLabels | Should -Be $null
        Assert-MockCalled -CommandName 'Get-TagValue' -Exactly -Times 0
    }

    It "Should no-op when the aks-disable-kubelet-serving-certificate-rotation tag is not true" {
        Mock Get-TagValue -MockWith { "false" }
        $kubeletConfigArgs = "--rotate-certificates=true,--rotate-server-certificates=true,--node-ip=10.0.0.1,anonymous-auth=false"
        $kubeletNodeLabels = "kubernetes.azure.com/agentpool=wp0,kubernetes.azure.com/kubelet-serving-ca=cluster"
        $global:KubeletConfigArgs = $kubeletConfigArgs
        $global:KubeletNodeLabels = $kubeletNodeLabels
        $global:EnableKubeletServingCertificateRotation = $true
        Disable-KubeletServingCertificateRotationForTags
        Compare-Object $global:KubeletConfigArgs $kubeletConfigArgs | Should -Be $null
        Compare-Object $global:KubeletNodeLabels $kubeletNodeLabels | Should -Be $null
        Assert-MockCalled -CommandName 'Get-TagValue' -Exactly -Times 1 -ParameterFilter { $TagName -eq 'aks-disable-kubelet-serving-certificate-rotation' -and $DefaultValue -eq "false" }
    }

    It "Should reconfigure kubelet config args and node labels when aks-disable-kubelet-serving-certificate-rotation is true" {
        Mock Get-TagValue -MockWith { "true" }
        $global:KubeletConfigArgs = "--rotate-certificates=true,--rotate-server-certificates=true,--node-ip=10.0.0.1,anonymous-auth=false"
        $global:KubeletNodeLabels = "kubernetes.azure.com/agentpool=wp0,kubernetes.azure.com/kubelet-serving-ca=cluster"
        $global:EnableKubeletServingCertificateRotation = $true
        Disable-KubeletServingCertificateRotationForTags
        Compare-Object $global:KubeletConfigArgs "--rotate-certificates=true,--rotate-server-certificates=false,--node-ip=10.0.0.1,anonymous-auth=false" | Should -Be $null
        Compare-Object $global:KubeletNodeLabels "kubernetes.azure.com/agentpool=wp0" | Should -Be $null
        Assert-MockCalled -CommandName 'Get-TagValue' -Exactly -Times 1 -ParameterFilter { $TagName -eq 'aks-disable-kubelet-serving-certificate-rotation' -and $DefaultValue -eq "false" }
    }
}

Describe 'Get-TagValue' {
    Context 'IMDS returns a valid response' {
        It "Should return the tag value if it is present within the IMDS response" {
            Mock Invoke-RestMethod -MockWith {
                return (Get-Content "$PSScriptRoot\kubeletfunc.tests.suites\IMDS.Instance.TagExists.json" | Out-String | ConvertFrom-Json)
            }
            $result = Get-TagValue -TagName "aks-disable-kubelet-serving-certificate-rotation" -DefaultValue "false"
            $expected = "true"
            Compare-Object $result $expected | Should -Be $null
            Assert-MockCalled -CommandName 'Invoke-RestMethod' -Exactly -Times 1 -ParameterFilter { $Uri -eq 'http://169.254.169.254/metadata/instance?api-version=2021-02-01' }
        }

        It "Should return the default value of the tag is not present within the response" {
            Mock Invoke-RestMethod -MockWith {
                return (Get-Content "$PSScriptRoot\kubeletfunc.tests.suites\IMDS.Instance.TagDoesNotExist.json" | Out-String | ConvertFrom-Json)
            }
            $result = Get-TagValue -TagName "aks-disable-kubelet-serving-certificate-rotation" -DefaultValue "false"
            $expected = "false"
            Compare-Object $result $expected | Should -Be $null
            Assert-MockCalled -CommandName 'Invoke-RestMethod' -Exactly -Times 1 -ParameterFilter { $Uri -eq 'http://169.254.169.254/metadata/instance?api-version=2021-02-01' }
        }
    }

    Context 'Unable to call IMDS' {
        BeforeEach {
            Mock Set-ExitCode
            Mock Invoke-RestMethod -MockWith {
                Throw 'IMDS is down'
            }
        }

        It "Should return the default value when an error is encountered while calling IMDS" {
            Get-TagValue -TagName "aks-disable-kubelet-serving-certificate-rotation" -DefaultValue "false"
            Assert-MockCalled -CommandName 'Invoke-RestMethod' -Exactly -Times 3 -ParameterFilter { $Uri -eq 'http://169.254.169.254/metadata/instance?api-version=2021-02-01' }
            Assert-MockCalled -CommandName 'Set-ExitCode' -Exactly -Times 1 -ParameterFilter { $ExitCode -eq $global:WINDOWS_CSE_ERROR_LOOKUP_INSTANCE_DATA_TAG }
        }
    }
}

Describe 'Add-KubeletNodeLabel' {
    BeforeEach {
        $global:KubeletNodeLabels = ""
    }

    It "Should perform a no-op when the specified label already exists within the label string" {
        $global:KubeletNodeLabels = "kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/kubelet-serving-ca=cluster,kubernetes.azure.com/agentpool=wp0"
        $label = "kubernetes.azure.com/kubelet-serving-ca=cluster"
        $expected = "kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/kubelet-serving-ca=cluster,kubernetes.azure.com/agentpool=wp0"
        Add-KubeletNodeLabel -Label $label
        Compare-Object $global:KubeletNodeLabels $expected | Should -Be $null
    }

    It "Should append the label when it does not already exist within the label string" {
        $global:KubeletNodeLabels = "kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/agentpool=wp0"
        $label = "kubernetes.azure.com/kubelet-serving-ca=cluster"
        $expected = "kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/agentpool=wp0,kubernetes.azure.com/kubelet-serving-ca=cluster"
        Add-KubeletNodeLabel -Label $label
        Compare-Object $global:KubeletNodeLabels $expected | Should -Be $null
    }
}

Describe 'Remove-KubeletNodeLabel' {
    BeforeEach {
        $global:KubeletNodeLabels = ""
    }
    It "Should remove the specified label when it exists within the label string" {
        $global:KubeletNodeLabels = "kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/kubelet-serving-ca=cluster,kubernetes.azure.com/agentpool=wp0"
        $label = "kubernetes.azure.com/kubelet-serving-ca=cluster"
        $expected = "kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/agentpool=wp0"
        Remove-KubeletNodeLabel -Label $label
        Compare-Object $global:KubeletNodeLabels $expected | Should -Be $null
    }

    It "Should remove the specified label when it is the first label within the label string" {
        $global:KubeletNodeLabels = "kubernetes.azure.com/kubelet-serving-ca=cluster,kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/agentpool=wp0"
        $label = "kubernetes.azure.com/kubelet-serving-ca=cluster"
        $expected = "kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/agentpool=wp0"
        Remove-KubeletNodeLabel -Label $label
        Compare-Object $global:KubeletNodeLabels $expected | Should -Be $null
    }

    It "Should remove the specified label when it is the last label within the label string" {
        $global:KubeletNodeLabels = "kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/agentpool=wp0,kubernetes.azure.com/kubelet-serving-ca=cluster"
        $label = "kubernetes.azure.com/kubelet-serving-ca=cluster"
        $expected = "kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/agentpool=wp0"
        Remove-KubeletNodeLabel -Label $label
        Compare-Object $global:KubeletNodeLabels $expected | Should -Be $null
    }

    It "Should not alter the specified label string if the target label does not exist" {
        $global:KubeletNodeLabels = "kubernetes.azure.com/nodepool-type=VirtualMachineScaleSets,kubernetes.azure.com/agentpool=wp0"
        $label = "kubernetes.azure.com/kubelet-serving-ca=cluster"
        $expected = $global:KubeletNodeLabels
        Remove-KubeletNodeLabel -Label $label
        Compare-Object $global:KubeletNodeLabels $expected | Should -Be $null
    }

    It "Should return an empty string if the only label within the label string is the target" {
        $global:KubeletNodeLabels = "kubernetes.azure.com/kubelet-serving-ca=cluster"
        $label = "kubernetes.azure.com/kubelet-serving-ca=cluster"
        $expected = ""
        Remove-KubeletNodeLabel -Label $label
        Compare-Object $global:KubeletNodeLabels $expected | Should -Be $null
    }
}
