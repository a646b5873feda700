#!/usr/bin/env bash
# Makes the sample stores shipped in Resources/SampleStores ONCE, with the app pinned at v1, v2,
# v3 and v4 (a few notes, small images from Resources/SampleImages). `uncloudnotes sample open`
# opens copies of them. Makes only the samples that are missing (v4 came later, issue #23), never
# overwriting one.
set -euo pipefail
cd "$(dirname "$0")/.."
samples=Resources/SampleStores
images=Resources/SampleImages
mkdir -p "$samples"
swift build
# The samples to make, decided before any is written.
declare -A making
for version in v1 v2 v3 v4; do [[ -e "$samples/$version.sqlite" ]] || making[$version]=1; done
missing() { [[ -n "${making[$1]:-}" ]]; }
app() { missing "$1" || return 0; .build/debug/uncloudnotes --store "$samples/$1.sqlite" --model-version "$1" notes add "${@:2}" > /dev/null; }
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

if missing v4; then
    app v4 --title "Written by the v4 app" --body "Images in v4 have a caption and a size." --image "$images/sunset.png"
    .build/debug/uncloudnotes --store "$samples/v4.sqlite" --model-version v4 notes attach 1 --image "$images/dots.png" --caption "Dots" > /dev/null
    app v4 --title "Groceries" --body "milk, eggs, bread"
    app v4 --title "Leaf" --body "$lorem" --image "$images/leaf.jpg"
    .build/debug/uncloudnotes --store "$samples/v4.sqlite" --model-version v4 notes caption 3 1 "A leaf" > /dev/null
fi

rm -f "$samples"/*.lock "$samples"/*-search
echo "samples in $samples: $(cd "$samples" && echo *.sqlite)"
