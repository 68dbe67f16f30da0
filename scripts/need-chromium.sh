# Sourced by the scripts that drive Chromium (players.sh, studio-check.sh): installs Debian's
# `chromium` when it is missing, and fails, never skips, when it cannot be had. $1: what needs it.
if ! command -v chromium >/dev/null 2>&1; then
    echo "$1: installing chromium" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null; } ||
        { echo "$1: Chromium could not be installed" >&2; exit 1; }
fi
