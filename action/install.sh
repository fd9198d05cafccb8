#!/usr/bin/env bash
# Installs aclint for the GitHub Action (action.yml): the release archive for the runner's
# platform, checked against the release's SHA256SUMS, or a build of the action's own checkout
# with Go. The binary's directory goes on GITHUB_PATH for the steps that follow.
set -euo pipefail

case "${RUNNER_OS:-Linux}" in
  Linux) os=linux ;;
  macOS) os=darwin ;;
  Windows) os=windows ;;
  *) echo "aclint action: runner OS ${RUNNER_OS} has no release; set build: true to build with Go" >&2; exit 2 ;;
esac
case "${RUNNER_ARCH:-X64}" in
  X64) arch=amd64 ;;
  ARM64) arch=arm64 ;;
  *) echo "aclint action: runner architecture ${RUNNER_ARCH} has no release; set build: true to build with Go" >&2; exit 2 ;;
esac
exe=aclint
[ "$os" = windows ] && exe=aclint.exe
dest="${RUNNER_TEMP:?RUNNER_TEMP is not set}/aclint-bin"
mkdir -p "$dest"

version="${ACLINT_VERSION:-}"
if [ -z "$version" ] && [[ "${ACLINT_ACTION_REF:-}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then
  version="$ACLINT_ACTION_REF" # uses: aclint/aclint@vX.Y.Z installs that release
fi

if [ "${ACLINT_BUILD:-false}" = true ] || [ -z "$version" ]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "aclint action: building aclint needs Go on the runner (actions/setup-go), or pin the action to a release (uses: aclint/aclint@vX.Y.Z) or set version" >&2
    exit 2
  fi
  echo "aclint action: building aclint from ${ACLINT_ACTION_PATH} with $(go version)"
  (cd "$ACLINT_ACTION_PATH" && CGO_ENABLED=0 go build -trimpath -ldflags "-X github.com/aclint/aclint/internal/cli.commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)" -o "$dest/$exe" .)
else
  ext=tar.gz
  [ "$os" = windows ] && ext=zip
  archive="aclint_${version}_${os}_${arch}.${ext}"
  base="${ACLINT_RELEASE_URL%/}/${version}"
  work="$(mktemp -d "${RUNNER_TEMP}/aclint-dl.XXXXXX")"
  echo "aclint action: installing ${archive} from ${base}"
  curl -fsSL --retry 3 -o "$work/SHA256SUMS" "$base/SHA256SUMS"
  curl -fsSL --retry 3 -o "$work/$archive" "$base/$archive"
  line="$(grep -E "^[0-9a-f]{64}  ${archive//./\\.}\$" "$work/SHA256SUMS" || true)"
  if [ -z "$line" ]; then
    echo "aclint action: ${archive} is not listed in the release's SHA256SUMS" >&2
    exit 2
  fi
  if command -v sha256sum >/dev/null 2>&1; then
    (cd "$work" && printf '%s\n' "$line" | sha256sum -c --status -) || { echo "aclint action: ${archive} does not match its SHA256SUMS entry: not installed" >&2; exit 2; }
  else
    (cd "$work" && printf '%s\n' "$line" | shasum -a 256 -c --status -) || { echo "aclint action: ${archive} does not match its SHA256SUMS entry: not installed" >&2; exit 2; }
  fi
  top="aclint_${version}_${os}_${arch}"
  if [ "$ext" = zip ]; then
    (cd "$work" && unzip -q "$archive")
  else
    tar -xzf "$work/$archive" -C "$work"
  fi
  install -m 0755 "$work/$top/$exe" "$dest/$exe"
  rm -rf "$work"
fi
echo "$dest" >> "${GITHUB_PATH:?GITHUB_PATH is not set}"
"$dest/$exe" version
