#!/bin/sh
# Builds the harness in a scratch module outside the repository, with
# k8s.io/kubernetes v1.37.2 and its staging modules at v0.37.2, all from
# the Go module proxy. Usage: build.sh DIR (the binary is DIR/harness).
set -e
dir=${1:?usage: build.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
cp "$here/main.go" "$dir/"
cd "$dir"
[ -f go.mod ] || go mod init k8sh >/dev/null 2>&1
go mod edit -require=k8s.io/kubernetes@v1.37.2
for m in api apiextensions-apiserver apimachinery apiserver cli-runtime client-go cloud-provider cluster-bootstrap code-generator component-base component-helpers controller-manager cri-api cri-client csi-translation-lib dynamic-resource-allocation endpointslice externaljwt kms kube-aggregator kube-controller-manager kube-proxy kube-scheduler kubectl kubelet metrics mount-utils pod-security-admission sample-apiserver sample-cli-plugin sample-controller; do
	go mod edit -replace=k8s.io/$m=k8s.io/$m@v0.37.2
done
go mod tidy
go build -o harness .
