#!/usr/bin/env bash
# R/exams and this project on the R/exams-shaped workload, alternating run by
# run on this machine, then a table (median, best, runs, load averages).
#
#   bash bench/rexams-r/measure.sh            # SHORT=3 LONG=2: ~30 min on 2 slow cores
#   SHORT=5 LONG=3 OURS=1 bash bench/rexams-r/measure.sh
#
# SHORT: rounds of the 200-instance measures (warm html/pdf/moodle, cold html/pdf)
# LONG:  rounds of the 2,000-instance cold measures (html, pdf + peak RSS)
# OURS=0 skips this project's runs (R/exams only).
# Each line of the log ($LOG) is one run: utc, round, figure, value, unit,
# 1-minute load average before the run, peak RSS in KB (cold runs), and CPU
# time (user+sys, children included, in the value's unit; R/exams runs and this
# project's PDF cold runs), which others' load on the machine disturbs less than wall time.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SHORT=${SHORT:-3}; LONG=${LONG:-2}; OURS=${OURS:-1}
LOG=${LOG:-$HERE/logs/$(date -u +%Y-%m-%dT%H%MZ).tsv}  # logs/ is git-ignored: one machine's runs
mkdir -p "$(dirname "$LOG")"
PY="$ROOT/.venv/bin/python"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
: > "$LOG"

load1() { cut -d' ' -f1 /proc/loadavg; }
log() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$@" | tee -a "$LOG" >&2; }
json() { sed -n 's/.*"'"$1"'": \([0-9.]*\).*/\1/p' | tail -1; }
per() { awk -v t="$1" -v n="$2" 'BEGIN{printf "%.1f", 1000*t/(10*n)}'; }  # ms per instance
add() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a+b}'; }

# time a whole process: wall, max RSS, CPU (user+sys, children included)
timed() { /usr/bin/time -f '%e %M %U %S' -o "$TMP/time" "$@" > /dev/null 2>&1
          read -r WALL KB U SY < "$TMP/time"; CPU=$(add "$U" "$SY"); }

# R/exams, warm: ms per instance of 20 students after 2 in the same session
r_warm() {  # figure mode round
  local l js; l=$(load1)
  js=$(Rscript "$HERE/rexams.R" "$2" 20 warm 2>/dev/null)
  log "$3" "$1" "$(echo "$js" | json ms_per_instance)" ms "$l" "" "$(echo "$js" | json cpu_ms_per_instance)"
}
# R/exams, cold: the whole Rscript process
r_cold() {  # figure mode students ms|s round
  local l; l=$(load1)
  timed Rscript "$HERE/rexams.R" "$2" "$3" cold
  if [ "$4" = ms ]; then log "$5" "$1" "$(per "$WALL" "$3")" ms "$l" "$KB" "$(per "$CPU" "$3")"
  else log "$5" "$1" "$WALL" s "$l" "$KB" "$CPU"; fi
}
# this project, warm: bench/rexams.py's own ms per instance
o_warm() {  # figure mode workers round
  [ "$OURS" = 1 ] || return 0
  local l ms; l=$(load1)
  ms=$(cd "$ROOT" && "$PY" bench/rexams.py "$2" 20 --warm --workers "$3" | json ms_per_instance)
  log "$4" "$1" "$ms" ms "$l" "" ""
}
# this project, PDF cold: the whole process (2 workers)
o_pdf_cold() {  # figure students ms|s round
  [ "$OURS" = 1 ] || return 0
  local l; l=$(load1)
  (cd "$ROOT" && timed "$PY" bench/rexams.py pdf "$2" --workers 2)
  read -r WALL KB U SY < "$TMP/time"; CPU=$(add "$U" "$SY")
  if [ "$3" = ms ]; then log "$4" "$1" "$(per "$WALL" "$2")" ms "$l" "$KB" "$(per "$CPU" "$2")"
  else log "$4" "$1" "$WALL" s "$l" "$KB" "$CPU"; fi
}
# this project, the HTML a user publishes, cold: bench/run.py's _html
# (`attndrills site` + `mkdocs build`, and + `zensical build`)
o_html_cold() {  # students round
  [ "$OURS" = 1 ] || return 0
  local l r; l=$(load1)
  r=$(cd "$ROOT" && "$PY" -c "import sys, json; sys.path[:0] = ['bench', '.']; import run; print(json.dumps(run._html($1)))")
  if [ "$1" -le 20 ]; then
    log "$2" ours_html_cold_ms "$(echo "$r" | json mkdocs_ms_per_instance)" ms "$l" "" ""
    log "$2" ours_html_cold_zensical_ms "$(echo "$r" | json zensical_ms_per_instance)" ms "$l" "" ""
  else
    log "$2" ours_html_2000_s "$(echo "$r" | json mkdocs_s)" s "$l" "" ""
    log "$2" ours_html_2000_zensical_s "$(echo "$r" | json zensical_s)" s "$l" "" ""
  fi
}

echo "log: $LOG" >&2
for r in $(seq "$SHORT"); do
  r_warm here_md_warm_ms html "$r";            o_warm ours_md_warm_ms md 2 "$r"
  r_cold here_html_cold_ms html 20 ms "$r";    o_html_cold 20 "$r"
  r_warm here_pdf_warm_ms pdf "$r";            o_warm ours_pdf_warm_ms pdf 2 "$r"
  r_cold here_pdf_cold_ms pdf 20 ms "$r";      o_pdf_cold ours_pdf_cold_ms 20 ms "$r"
  r_warm here_moodle_warm_ms moodle "$r";      o_warm ours_moodle_warm_ms moodle 1 "$r"
done
for r in $(seq "$LONG"); do
  r_cold here_html_2000_s html 200 s "$r";     o_html_cold 200 "$r"
  r_cold here_pdf_2000_s pdf 200 s "$r";       o_pdf_cold ours_pdf_2000_s 200 s "$r"
done

python3 "$HERE/table.py" "$LOG"
