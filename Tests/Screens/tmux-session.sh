#!/bin/sh
# The shell as a person sees it, in a real terminal (tmux): the default row cap that keeps the
# footer on the screen, the pager (less) for a taller result and its footer, CJK and emoji
# aligned in a table, and NULL (dimmed) apart from the string "null". Prints each screen as
# tmux captured it; run by hand, not by `swift test` (it needs tmux and a built realmsh):
#
#   swift build && Tests/Screens/tmux-session.sh [path/to/realmsh]
#
# Exits 1 if a screen lacks what it should show.
set -eu
realmsh=$(cd "$(dirname "${1:-.build/debug/realmsh}")" && pwd)/$(basename "${1:-.build/debug/realmsh}")
fixtures=$(cd "$(dirname "$0")/../../../shared/fixtures" 2>/dev/null && pwd || echo /work/shared/fixtures)
command -v tmux >/dev/null || { echo "tmux is not installed (apt-get install tmux)"; exit 2; }
work=$(mktemp -d)
session=realmsh-screens-$$
# A server of its own, its socket in the scratch directory (nothing left in /tmp/tmux-UID).
t() { tmux -S "$work/tmux.sock" "$@"; }
trap 't kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
failed=0

# A file of notes: null, "null", "", CJK, emoji, combining marks.
cat > "$work/notes.json" <<'JSON'
[{"name": "Note", "primaryKey": null, "embedded": false, "properties": [
  {"name": "text", "type": "string", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
  {"name": "lang", "type": "string", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null}],
  "backlinks": []}]
JSON
"$realmsh" create --schema "$work/notes.json" "$work/notes.realm" >/dev/null 2>&1
"$realmsh" insert "$work/notes.realm" Note '[{"text": null, "lang": "none"}, {"text": "null", "lang": "en"}, {"text": "", "lang": null},
  {"text": "日本語のテキスト", "lang": "ja"}, {"text": "中文字符和标点，", "lang": "zh"}, {"text": "😀🐶 emoji", "lang": null},
  {"text": "e\u0301te\u0301 (combining)", "lang": "fr"}]' >/dev/null 2>&1

# Waits until the pane shows $1 (at most 20 s; tmux drops trailing spaces).
wait_for() {
    i=0
    while ! t capture-pane -p -t $session | grep -qF -- "$1"; do
        i=$((i + 1)); [ $i -gt 200 ] && { echo "!! never showed: $1"; failed=1; return 0; }
        sleep 0.1
    done
}
screen() {
    echo "===== $1"
    t capture-pane -p -t $session | sed -e 's/[[:space:]]*$//' | awk 'NF { last = NR } { line[NR] = $0 } END { for (i = 1; i <= last; i++) print line[i] }'
    echo
}
expect() {
    t capture-pane -p ${2:-} -t $session | grep -qF -- "$1" || { echo "!! missing: $1"; failed=1; }
}

t new-session -d -s $session -x 100 -y 24 \
    "env -u NO_COLOR TERM=xterm-256color PAGER='less -FRSX' REALMSH_HISTORY= '$realmsh' '$work/notes.realm'"
wait_for "notes.realm>"
t send-keys -t $session 'Note' Enter
wait_for "7 objects (7 shown)"
screen "CJK, emoji and combining marks aligned; NULL apart from \"null\" and from the empty string"
expect "│    0 │ NULL"
expect "│    1 │ null"
# NULL is dimmed (SGR 2), the string "null" is not.
t capture-pane -p -e -t $session | grep -q "$(printf '\033')\[2mNULL" || { echo "!! NULL is not dimmed"; failed=1; }

t send-keys -t $session '.open '"$fixtures"'/realm-core/large.realm' Enter
wait_for "large.realm>"
t send-keys -t $session C-l
t send-keys -t $session 'Item SORT(id ASC)' Enter
wait_for "150000 objects (18 shown)"
screen "The default cap fits the 24-line screen with frame and footer: no pager needed, the footer in sight"

t send-keys -t $session '.maxrows 60' Enter
t send-keys -t $session 'Item SORT(id ASC)' Enter
wait_for "│ 19 │"
screen "60 rows are taller than the screen: less pages them"
t send-keys -t $session 'G'
wait_for "150000 objects (60 shown)"
screen "The end of the pager: the footer"
t send-keys -t $session 'q'
wait_for "large.realm>"
t send-keys -t $session '.quit' Enter

[ $failed -eq 0 ] && echo "all screens as expected" || echo "SOME SCREENS WERE WRONG"
exit $failed
