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
ref="${ACLINT_ACTION_REF:-}"
if [ -z "$version" ] && [[ "$ref" =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then
  version="$ref" # uses: aclint/aclint@vX.Y.Z installs that release
elif [ -z "$version" ] && [ "${ACLINT_BUILD:-false}" != true ] && [[ "$ref" =~ ^v[0-9]+(\.[0-9]+)?$ ]]; then
  # uses: aclint/aclint@v1 (or @v1.4) installs the newest release of that line, never a
  # pre-release or a draft: the releases are listed by GitHub's API (or ACLINT_RELEASES_API)
  api="${ACLINT_RELEASES_API:-${GITHUB_API_URL:-https://api.github.com}/repos/${ACLINT_ACTION_REPOSITORY:-aclint/aclint}/releases?per_page=100}"
  listing="$(curl -fsSL --retry 3 ${GITHUB_TOKEN:+-H "Authorization: Bearer $GITHUB_TOKEN"} "$api")" || {
    echo "aclint action: the releases could not be listed from ${api%%\?*}, so ${ref} cannot be resolved to a release: pin a release (uses: aclint/aclint@vX.Y.Z) or set version" >&2
    exit 2
  }
  prefix="${ref//./\\.}"
  version="$(printf '%s' "$listing" | tr -d '\n' | sed 's/"tag_name"/\n&/g' | tail -n +2 |
    { grep -vE '"(prerelease|draft)"[[:space:]]*:[[:space:]]*true' || true; } |
    sed -nE 's/^"tag_name"[[:space:]]*:[[:space:]]*"([^"]*)".*/\1/p' |
    { grep -E "^${prefix}(\.[0-9]+)*(-[0-9A-Za-z.-]+)?\$" || true; } | sort -V | tail -n 1)"
  if [ -z "$version" ]; then
    echo "aclint action: no release matches ${ref} (pre-releases and drafts are passed over): pin a release (uses: aclint/aclint@vX.Y.Z) or set version" >&2
    exit 2
  fi
  echo "aclint action: ${ref} is release ${version}"
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
