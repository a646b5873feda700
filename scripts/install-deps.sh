#!/usr/bin/env bash
# Installs the system packages the project builds and tests with, on Debian or Ubuntu.
# Only missing packages are installed, so a second run costs a second.
set -euo pipefail

# xterm, xvfb, x11-apps (xwd), imagemagick, xdotool and fonts-dejavu-core: the sixel test looks at a real
# xterm's pixels (Tests/CommandLineTests/XtermSixelTests.swift). git: sync and its tests. age: the reference that encrypted remotes' files are checked against.
packages=(libsqlite3-dev libncurses-dev libgdk-pixbuf-2.0-dev libchafa-dev zlib1g-dev webp-pixbuf-loader tmux vim ncurses-term pkg-config xfsprogs strace git time age
          xterm xvfb x11-apps imagemagick xdotool fonts-dejavu-core)

if ! command -v swift >/dev/null 2>&1; then
    echo "install-deps: swift is not on PATH; install the Swift 6 toolchain from swift.org first" >&2
    exit 1
fi

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: missing packages (${missing[*]}) and no apt-get to install them" >&2
    exit 1
fi
sudo=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
    sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
