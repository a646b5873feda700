#!/usr/bin/env bash
# Makes the sample stores shipped in Resources/SampleStores ONCE, with the app pinned at v1, v2
# and v3 (a few notes, small images from Resources/SampleImages). `uncloudnotes sample open`
# opens copies of them. Refuses to overwrite existing samples.
set -euo pipefail
cd "$(dirname "$0")/.."
samples=Resources/SampleStores
images=Resources/SampleImages
for version in v1 v2 v3; do
    [[ -e "$samples/$version.sqlite" ]] && { echo "make-sample-stores: $samples/$version.sqlite exists" >&2; exit 1; }
done
mkdir -p "$samples"
swift build
app() { .build/debug/uncloudnotes --store "$samples/$1.sqlite" --model-version "$1" notes add "${@:2}" > /dev/null; }
lorem="Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua."

app v1 --title "Welcome to UnCloudNotes" --body "This store was written by the v1 app. Open it with the current app to watch it upgrade."
app v1 --title "Groceries" --body "milk, eggs, bread"
app v1 --title "笔记" --body "这个笔记是用第一版写的。"

app v2 --title "Written by the v2 app" --body "Notes in v2 have one image each." --image "$images/sunset.png"
app v2 --title "No image" --body "$lorem"
app v2 --title "Leaf" --body "A JPEG image." --image "$images/leaf.jpg"

app v3 --title "Written by the v3 app" --body "Notes in v3 have several attachments." --image "$images/sunset.png" --image "$images/dots.png"
app v3 --title "Leaf" --body "$lorem" --image "$images/leaf.jpg"
app v3 --title "Plain" --body "No attachments."

rm -f "$samples"/*.lock
echo "made $samples/v1.sqlite, v2.sqlite, v3.sqlite"
