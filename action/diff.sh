#!/usr/bin/env bash
# On a pull request, puts what it grants or takes away into the job summary: aclint diff -o
# markdown of every changed config under the action's files, base branch against the pull
# request. A config aclint cannot compare is listed with the reason; nothing here fails the job.
set -uo pipefail
set -f
if [ "${ACLINT_DIFF:-true}" != true ]; then exit 0; fi
case "${GITHUB_EVENT_NAME:-}" in
  pull_request|pull_request_target) ;;
  *) exit 0 ;;
esac
summary="${GITHUB_STEP_SUMMARY:?GITHUB_STEP_SUMMARY is not set}"
base_ref="${GITHUB_BASE_REF:?GITHUB_BASE_REF is not set on a pull request}"
if ! git rev-parse --verify -q "origin/$base_ref^{commit}" >/dev/null; then
  git fetch --no-tags --quiet --depth=1 origin "$base_ref:refs/remotes/origin/$base_ref" || true
fi
if ! base="$(git merge-base "origin/$base_ref" HEAD 2>/dev/null || git rev-parse --verify -q "origin/$base_ref^{commit}")"; then
  printf '## aclint: access changes\n\nThe base branch %s could not be read (fetch it: actions/checkout with fetch-depth: 0), so nothing was compared.\n' "$base_ref" >> "$summary"
  exit 0
fi
# a file's name in Markdown: on one line (a newline, a carriage return or another control
# character written as \n, \r, \xNN), in a code span whose fence is longer than any run of
# backticks in it, so a name can neither start a heading nor close its span
mdname() {
  local name="" c i fence='`'
  for ((i = 0; i < ${#1}; i++)); do
    c="${1:i:1}"
    case "$c" in
      $'\n') name+='\n' ;;
      $'\r') name+='\r' ;;
      [[:cntrl:]]) name+="$(printf '\\x%02x' "'$c")" ;;
      *) name+="$c" ;;
    esac
  done
  while [[ "$name" == *"$fence"* ]]; do fence+='`'; done
  if [ "$fence" = '`' ]; then
    printf '`%s`' "$name"
  else
    printf '%s %s %s' "$fence" "$name" "$fence" # padded: a name may start or end with a backtick
  fi
}
# a fence for a block of text: more backticks than any run in the file
fenceof() {
  local fence='```'
  while grep -qF -- "$fence" "$1"; do fence+='`'; done
  printf '%s' "$fence"
}
files=(${ACLINT_FILES:-.})
work="$(mktemp -d "${RUNNER_TEMP:-/tmp}/aclint-diff.XXXXXX")"
changed="$work/changed"
git diff --name-only --diff-filter=ACMR -z "$base" HEAD -- "${files[@]}" > "$changed"
{
  echo "## aclint: access changes"
  echo
} >> "$summary"
n=0
limit=$((900 * 1024)) # GitHub takes 1 MiB of summary per step
while IFS= read -r -d '' f; do
  case "$f" in
    *.yaml|*.yml|*.json|*.xml) ;;
    *) continue ;;
  esac
  n=$((n + 1))
  old="$work/$base_ref/$f"
  mkdir -p "$(dirname "$old")"
  if ! git show "$base:$f" > "$old" 2>/dev/null; then
    case "$f" in
      *.yaml|*.yml)
        # a YuniKorn config new in this pull request is compared with an empty file:
        # YuniKorn's built-in default, which is what ran before it
        : > "$old" ;;
      *)
        printf '### %s\n\nadded in this pull request: there is no earlier version to compare it with.\n\n' "$(mdname "$f")" >> "$summary"
        continue ;;
    esac
  fi
  out="$work/out.md"
  err="$work/err.txt"
  # -- ends the flags: a file named -omarkdown=x.yaml or --help.yaml is a file
  if aclint diff -o "markdown=$out" -- "$old" "$f" 2> "$err" || [ -s "$out" ]; then
    printf '### %s\n\n' "$(mdname "$f")" >> "$summary"
    cat "$out" >> "$summary"
    printf '\n' >> "$summary"
  else
    head -n 8 "$err" | cut -c1-300 > "$err.head"
    fence="$(fenceof "$err.head")"
    {
      printf '### %s\n\nnot compared:\n\n%s\n' "$(mdname "$f")" "$fence"
      cat "$err.head"
      printf '%s\n\n' "$fence"
    } >> "$summary"
  fi
  rm -f "$out"
  if [ "$(wc -c < "$summary")" -gt "$limit" ]; then
    echo "The summary is cut here: GitHub keeps 1 MiB of it. Run aclint diff on the remaining files." >> "$summary"
    break
  fi
done < "$changed"
if [ "$n" -eq 0 ]; then
  echo "No config under the linted files changed in this pull request." >> "$summary"
fi
rm -rf "$work"
exit 0
