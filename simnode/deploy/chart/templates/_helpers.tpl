{{/* The StatefulSet's name, and the prefix of every object of the release. */}}
{{- define "wink-simnode.fullname" -}}
{{- if contains "simnode" .Release.Name -}}
{{- .Release.Name | trunc 52 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-simnode" .Release.Name | trunc 52 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "wink-simnode.selectorLabels" -}}
app.kubernetes.io/name: wink-simnode
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "wink-simnode.labels" -}}
{{ include "wink-simnode.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}
