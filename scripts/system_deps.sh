#!/usr/bin/env bash
# Debian packages the tests need, installed when missing: PostgreSQL 15 (the runtime's tests on
# PostgreSQL) and Chromium with its driver (the dashboard's browser test). Major versions are
# pinned by package name; Debian's security updates move the patch level. Needs root and
# apt-get; elsewhere it says what is missing and leaves it to the user (those tests then fail
# with a message naming the package).
set -euo pipefail

need=()
[ -x /usr/lib/postgresql/15/bin/initdb ] || need+=(postgresql-15)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "note: install these Debian packages for the full test suite: ${need[*]}" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
