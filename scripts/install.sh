#!/bin/sh
# Installs a built uncloudnotes with the resources it needs (models, mapping models, samples):
#   scripts/install.sh BIN_DIR PREFIX
# The program and its resources folder go together into PREFIX/lib/uncloudnotes (the program
# finds the folder beside its real path), and PREFIX/bin/uncloudnotes links to the program.
# `make install` builds in release mode and calls this; BIN_DIR is `swift build --show-bin-path`.
set -eu
if [ $# -ne 2 ]; then
    echo "usage: scripts/install.sh BIN_DIR PREFIX" >&2
    exit 2
fi
bin_dir=$1
prefix=$2
resources=UnCloudNotes_UnCloudNotesResources.resources
if [ ! -x "$bin_dir/uncloudnotes" ] || [ ! -d "$bin_dir/$resources" ]; then
    echo "install: no built uncloudnotes with its $resources folder in $bin_dir; run swift build first" >&2
    exit 1
fi
lib=$prefix/lib/uncloudnotes
mkdir -p "$lib" "$prefix/bin"
install -m 0755 "$bin_dir/uncloudnotes" "$lib/uncloudnotes"
# Replace an earlier install's resources as a whole, so no stale file survives an upgrade.
rm -rf "$lib/$resources.new"
cp -R "$bin_dir/$resources" "$lib/$resources.new"
rm -rf "$lib/$resources"
mv "$lib/$resources.new" "$lib/$resources"
ln -sf ../lib/uncloudnotes/uncloudnotes "$prefix/bin/uncloudnotes"
echo "installed $prefix/bin/uncloudnotes (program and resources in $lib)"
