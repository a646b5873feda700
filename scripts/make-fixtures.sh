#!/usr/bin/env bash
# Makes the stores in Tests/Fixtures ONCE, with the app pinned at v1, v2 and v3, so that tests keep
# proving that stores written by old versions still upgrade. They are committed and must never be
# regenerated: this script refuses to overwrite them. Images come from Tests/Fixtures/images
# (made with ImageMagick: a 24x24 PNG gradient, a 120x90 PNG circle, a 64x48 JPEG).
set -euo pipefail
cd "$(dirname "$0")/.."
fixtures=Tests/Fixtures
for version in v1 v2 v3; do
    if [[ -e "$fixtures/$version.sqlite" ]]; then
        echo "make-fixtures: $fixtures/$version.sqlite exists; fixtures are never regenerated" >&2
        exit 1
    fi
done
swift build
app() { .build/debug/uncloudnotes --store "$fixtures/$1.sqlite" --model-version "$1" notes add "${@:2}" > /dev/null; }
images=$fixtures/images
long_latin="The quick brown fox jumps over the lazy dog, again and again, until the body of this note is well over eighty characters long."
long_cjk="一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十"

# v1: a dozen notes, no images.
app v1 --title "Groceries" --body "milk, eggs, bread"
app v1 --title "笔记" --body "今天天气很好。我们去公园散步吧。"
app v1 --title "Emoji 🎉" --body "Party 🎂🥳 at eight 🕗"
app v1 --title "Empty body" --body ""
app v1 --title "Short" --body "Under eighty characters."
app v1 --title "Long latin" --body "$long_latin"
app v1 --title "Long CJK" --body "$long_cjk"
app v1 --title "Combining marks" --body $'Cafe\xcc\x81 and nai\xcc\x88ve, spelled with combining accents.'
app v1 --title "Заметка" --body "Русский текст для проверки."
app v1 --title "Multi-line" --body $'first line\nsecond line\n\nfourth line'
app v1 --title "Quotes" --body "She said \"hello\" and 'bye'; back\\slash."
app v1 --title "Last of v1" --body "twelfth note"

# v2: some notes with one image, some without.
app v2 --title "Gradient" --body "A PNG gradient." --image "$images/gradient.png"
app v2 --title "No picture" --body "Plain text only."
app v2 --title "Plasma" --body "A JPEG, with a body long enough to be cut at eighty characters when it becomes a caption in v4." --image "$images/plasma.jpg"
app v2 --title "图片" --body "圆形的图片" --image "$images/circle.png"
app v2 --title "Also plain" --body ""

# v3: notes with several attachments, one with none.
app v3 --title "Album" --body "Three pictures." --image "$images/gradient.png" --image "$images/plasma.jpg" --image "$images/circle.png"
app v3 --title "Pair 👯" --body "Two of them, with an emoji body 🖼️🖼️" --image "$images/circle.png" --image "$images/gradient.png"
app v3 --title "Single" --body "$long_cjk" --image "$images/plasma.jpg"
app v3 --title "Bare" --body "No attachments at all."

rm -f "$fixtures"/*.lock
echo "made $fixtures/v1.sqlite, v2.sqlite, v3.sqlite"
