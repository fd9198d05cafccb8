#!/usr/bin/env bash
# Lints for the GitHub Action (action.yml): the job log in the chosen format, SARIF for code
# scanning. The exit code is kept as a step output, so the summary step still runs; the last
# step of the action exits with it.
set -uo pipefail
set -f # the files input is split on blanks, never globbed
files=(${ACLINT_FILES:-.})
args=(lint --fail-on "${ACLINT_FAIL_ON:-warning}" -o "${ACLINT_FORMAT:-github}")
sarif="${ACLINT_SARIF:-}"
if [ -n "$sarif" ]; then
  args+=(-o "sarif=$sarif")
fi
code=0
aclint "${args[@]}" "${files[@]}" || code=$?
{
  echo "exit-code=$code"
  if [ -n "$sarif" ] && [ -f "$sarif" ]; then echo "sarif=$sarif"; else echo "sarif="; fi
} >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
exit 0
