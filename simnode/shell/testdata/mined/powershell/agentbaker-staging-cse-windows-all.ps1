# source: https://github.com/Azure/AgentBaker/blob/06836ee2301e362039418c3a7ed0fe6004a641fd/staging/cse/windows/all.ps1

# Dot-source cse scripts with functions that are bundled on the VHD
. c:\AzureData\windows\azurecnifunc.ps1
. c:\AzureData\windows\calicofunc.ps1
. c:\AzureData\windows\configfunc.ps1
. c:\AzureData\windows\containerdfunc.ps1
. c:\AzureData\windows\kubeletfunc.ps1
. c:\AzureData\windows\kubernetesfunc.ps1
. c:\AzureData\windows\nvidiagpudriverfunc.ps1
. c:\AzureData\windows\securetlsbootstrapfunc.ps1
. c:\AzureData\windows\windowsciliumnetworkingfunc.ps1
. c:\AzureData\windows\networkisolatedclusterfunc.ps1
