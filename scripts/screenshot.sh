#!/usr/bin/env bash
# Regenerates docs/form.png, the package's preview image (package.json's pi.image):
# the real demo (npm run demo) in tmux, its screen as ANSI, cropped to the
# conversation and the form, turned into HTML by aha and photographed by
# headless Chromium. Needs tmux, aha and chromium (Debian: apt-get install -y tmux aha chromium).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work="$(mktemp -d)"
trap 'tmux kill-session -t ask-user-shot 2>/dev/null || true; rm -rf "$work"' EXIT

wait_for() {
	for _ in $(seq 1 80); do
		tmux capture-pane -t ask-user-shot -p | grep -q "$1" && return 0
		sleep 0.25
	done
	echo "timed out waiting for: $1" >&2
	exit 1
}

tmux new-session -d -s ask-user-shot -x 104 -y 34 "TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8 npm run demo"
wait_for scripted
tmux send-keys -t ask-user-shot "Set up error handling for the new HTTP client" Enter
wait_for "How should"
sleep 1
tmux capture-pane -t ask-user-shot -e -p > "$work/screen.ansi"

# From the user's message to the form's hint line.
node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n");
const plain = lines.map((line) => line.replace(/\x1b\[[0-9;:]*m/g, ""));
const start = plain.findIndex((line) => line.includes("Set up error")) - 1;
const end = plain.findIndex((line) => line.includes("? help")) + 1;
process.stdout.write(lines.slice(start, end).join("\n") + "\x1b[0m\n");
' "$work/screen.ansi" > "$work/crop.ansi"

{
	echo '<!doctype html><html><head><meta charset="utf-8"><style>'
	echo 'body{margin:0;background:#1e1e1e}pre{margin:0;padding:16px 20px;font:15px/1.3 "DejaVu Sans Mono",monospace;color:#d4d4d4;white-space:pre}'
	echo '</style></head><body><pre>'
	aha --black --no-header < "$work/crop.ansi"
	echo '</pre></body></html>'
} > "$work/screen.html"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$PWD/docs/form.png" --window-size=1000,572 "file://$work/screen.html"
echo "wrote docs/form.png"
