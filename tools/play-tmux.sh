#!/bin/bash
# The real-terminal check of `pallet play` (issue 23): drive it through tmux from Pallet Town
# into a wild battle on Route 1 (quick save/load there) and back, capturing every screen as
# text into OUT. The key log and transcript it records are what
# script-host/tests/play/tmux.keys and tmux.transcript hold (copy them there to re-record).
# Usage: tools/play-tmux.sh [PALLET_BINARY] [OUT_DIR]
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/target/debug/pallet}; OUT=${2:-/tmp/pallet-play-tmux}; mkdir -p "$OUT"
tmux kill-session -t pf 2>/dev/null
tmux new-session -d -s pf -x 100 -y 30 "cd $ROOT && $BIN play --no-default-mods --mods examples/mods/quicksave --mods examples/mods/event-logger --mods examples/mods/sandstorm --seed 1 --record $OUT/run.keys --transcript $OUT/run.transcript --save $OUT/run.sav; echo EXIT=\$?; sleep 600"
sleep 2
n=0
cap() { n=$((n+1)); tmux capture-pane -p -t pf > $OUT/$(printf %02d $n)-$1.txt; }
send() { for k in "$@"; do tmux send-keys -t pf "$k"; sleep 0.25; done; }
cap start
send Left Down Down Down Down Right Right Right Right Right Right Up; cap pallet-town
send Enter; cap text-box
send Enter Right Right Up Up Up Up Up Up Up Up Up Up Up; cap route-1
send F5; cap quicksave-overworld
send Up Up Up Up Up Up Up Up Up Up Up Up Up; cap battle-menu
send Enter; cap fight-menu
send Enter; cap after-round-1
send F5; cap quicksave-battle
send Enter Enter Enter Enter; cap battle-won
send F9; cap quickload-battle
send Down Right Enter; cap ran-away
send Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down; cap back-in-pallet-town
send Space Enter; cap party
send BSpace Down Down Enter; cap saved
send BSpace q; cap quit-dialog
send y; sleep 1; cap exited
tmux kill-session -t pf
