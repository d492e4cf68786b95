#!/bin/sh
# docs_charts.sh -- the README's charts: SVGs written by the tool, PNGs of
# them (and of the page) rendered by headless Chromium at their own size.
#
#   sh tools/docs_charts.sh [build/roofline]      (writes docs/charts/)
#
# The measured chart needs a `roofline measure --quick --plot` run on the
# machine (about a minute here); set MEASURE=0 to keep the committed one.
set -eu
RL=${1:-build/roofline}
OUT=docs/charts
FX=tests/fixtures/traces
mkdir -p "$OUT"
"$RL" plot -o "$OUT/devices.svg" --hw h100,a100-sxm4-80gb,h200 --dtype bf16,fp8
"$RL" plot -o "$OUT/six-devices.svg" --hw h100,a100-sxm4-80gb,h200,mi300x,b200,gaudi3 --dtype bf16 --preset none
"$RL" trace "$FX/pytorch_kineto_2023_a100_ddp_input_dims.json.gz" --plot "$OUT/trace-kineto.svg" > /dev/null
"$RL" trace "$FX/ncu_details_sm80_bert_flashattn.csv" --hw a100-40gb --plot "$OUT/trace-ncu.svg" > /dev/null
"$RL" trace "$FX/pytorch_cpu_cnn.json.gz" --hw measured --hw-file tests/data/hw_cpu.csv --plot "$OUT/trace-cpu.svg" > /dev/null
if [ "${MEASURE:-1}" = 1 ]; then
  "$RL" measure --quick --plot "$OUT/measure.svg" > /dev/null
fi
COLUMNS=80 LINES=24 "$RL" plot --term --hw h100,a100-sxm4-80gb,h200 --dtype bf16,fp8 > "$OUT/term-80x24.txt"
"$RL" widget -o "$OUT/page.html"
shot() { # svg-or-url png width height
  prof=$(mktemp -d)
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$prof" \
    --virtual-time-budget=20000 --window-size="$3,$4" --screenshot="$2" "$1" > /dev/null 2>&1
  rm -rf "$prof"
}
for s in "$OUT"/*.svg; do
  w=$(grep -o 'width="[0-9]*"' "$s" | head -1 | tr -dc 0-9)
  h=$(grep -o 'height="[0-9]*"' "$s" | head -1 | tr -dc 0-9)
  shot "file://$(readlink -f "$s")" "${s%.svg}.png" "$w" "$h"
done
shot "file://$(readlink -f "$OUT/page.html")#hw=nvidia-h100-sxm5&hw2=nvidia-a100-sxm4-80gb&dtype=bf16&n=4096&batch=512&seq=4096&d=4096&model=llama3-8b&mbatch=16&context=4096" \
  "$OUT/page-1280.png" 1280 900
rm -f "$OUT/page.html"
echo "docs_charts: wrote $OUT"
