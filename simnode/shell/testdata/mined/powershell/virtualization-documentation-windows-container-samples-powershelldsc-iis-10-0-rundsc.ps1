# source: https://github.com/MicrosoftDocs/Virtualization-Documentation/blob/77e0742a8029cf3b5a96c84dfab2ce7ba623286c/windows-container-samples/PowerShellDSC_iis-10.0/RunDsc.ps1
# Lifted from http://blogs.technet.com/b/privatecloud/archive/2013/08/30/introducing-powershell-desired-state-configuration-dsc.aspx

Configuration ContosoWebsite 
{ 
  param ($MachineName)

  Node $MachineName 
  { 
    #Install the IIS Role 
    WindowsFeature IIS 
    { 
      Ensure = "Present" 
      Name = "Web-Server" 
    } 
  } 
} 

ContosoWebsite -MachineName localhost
Start-DscConfiguration -Path .\ContosoWebsite -Wait -Verbose
