# source: https://github.com/kubernetes-sigs/sig-windows-tools/blob/401ee6fcd8369cd8c293bd361275fdbe6f24ed07/hack/test-kube-proxy-images.ps1
param (
    [string]$minK8sVersion = "v1.22"
)

# Get kube-proxy images
$content = curl.exe -L registry.k8s.io/v2/kube-proxy/tags/list
$json = ConvertFrom-Json $content

$missingKubeProxyImages = @()

foreach ($tag in $json.tags) {
    if (-not($tag.StartsWith("v"))) {
        continue
    }
    if ($tag.Contains("-")) {
        continue
    }
    if ([Version]($tag.TrimStart('v')) -lt [Version]($minK8sVersion.TrimStart('v'))) {
        continue
    }

    foreach ($flavor in @("-calico-hostprocess")) {
        $image = "sigwindowstools/kube-proxy:$tag$flavor"
        Write-Output "Checking for image $image"
        docker manifest inspect $image | Out-Null
        if ($LastExitCode -ne 0) {
            $missingKubeProxyimages += $image
            Write-Output "  Image $image is missing!"
        }
    }
}

if ($missingKubeProxyImages.Length -gt 0) {
    Write-Output "Found ${$missingKubeProxyImages.Length} missing images!"
    exit 1
}