# source: https://github.com/antrea-io/antrea/blob/fc70f2bb7037f398196fd42210d34800cb6aa398/build/charts/antrea-windows/conf/ovs/VMSwitchExtension-AntreaAgent.ps1
Param(
    [parameter(Mandatory = $false)] [ValidateSet("enable", "disable")] [string] $VMSwitchExtension = "disable"
)
$networkName = "antrea-hnsnetwork"
$net=$(Get-HnsNetwork | Where-Object {$_.Name -eq $networkName})
if ($net -ne $null) {
    switch ($VMSwitchExtension)
    {
        "enable" {
            Enable-VMSwitchExtension -Name "Open vSwitch Extension" -VMSwitchName $networkName -ComputerName localhost
        }
        "disable" {
            Disable-VMSwitchExtension -Name "Open vSwitch Extension" -VMSwitchName $networkName -ComputerName localhost
        }
    }
}
