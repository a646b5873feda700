#!/bin/sh
# Installs a built uncloudnotes with the resources it needs (models, mapping models, samples),
# its shell completions and its man page:
#   scripts/install.sh BIN_DIR PREFIX MANUAL_TOOL
# The program and its resources folder go together into PREFIX/lib/uncloudnotes (the program
# finds the folder beside its real path), and PREFIX/bin/uncloudnotes links to the program.
# Completions (bash, zsh, fish) and the man page are generated from the command definitions:
# the program writes its completion scripts (--generate-completion-script), and MANUAL_TOOL,
# swift-argument-parser's generate-manual, writes the man page from the program's
# --experimental-dump-help.
# `make install` builds in release mode and calls this; BIN_DIR is `swift build --show-bin-path`.
set -eu
if [ $# -ne 3 ]; then
    echo "usage: scripts/install.sh BIN_DIR PREFIX MANUAL_TOOL" >&2
    exit 2
fi
bin_dir=$1
prefix=$2
manual_tool=$3
resources=UnCloudNotes_UnCloudNotesResources.resources
if [ ! -x "$bin_dir/uncloudnotes" ] || [ ! -d "$bin_dir/$resources" ]; then
    echo "install: no built uncloudnotes with its $resources folder in $bin_dir; run swift build first" >&2
    exit 1
fi
if [ ! -x "$manual_tool" ]; then
    echo "install: no generate-manual tool at $manual_tool; run make manual-tool first" >&2
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

# Generated into a scratch folder first, so a failure installs none of them half-written.
generated=$(mktemp -d)
trap 'rm -rf "$generated"' EXIT
for shell in bash zsh fish; do
    "$lib/uncloudnotes" --generate-completion-script "$shell" > "$generated/$shell"
done
"$manual_tool" "$lib/uncloudnotes" --output-directory "$generated"
share=$prefix/share
mkdir -p "$share/bash-completion/completions" "$share/zsh/site-functions" "$share/fish/vendor_completions.d" "$share/man/man1"
install -m 0644 "$generated/bash" "$share/bash-completion/completions/uncloudnotes"
install -m 0644 "$generated/zsh" "$share/zsh/site-functions/_uncloudnotes"
install -m 0644 "$generated/fish" "$share/fish/vendor_completions.d/uncloudnotes.fish"
# Blank lines of the help texts (between paragraphs) become mdoc paragraph breaks: man warns
# "Empty input line" on every viewing otherwise.
sed 's/^$/.Pp/' "$generated/uncloudnotes.1" > "$generated/uncloudnotes.1.mdoc"
install -m 0644 "$generated/uncloudnotes.1.mdoc" "$share/man/man1/uncloudnotes.1"
echo "installed $prefix/bin/uncloudnotes (program and resources in $lib), completions for bash, zsh and fish, and man uncloudnotes"
