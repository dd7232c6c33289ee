#!/usr/bin/env bash
# check-split.sh -- prove that the functions moved out of compare/render.c (the report split
# into render_*.c) are unchanged apart from renames, and the sweep's terminal table moved from
# scan/sweep.c to scan/table.c unchanged. Every function and type of render.c at BASE (the
# commit before the split) is looked up in today's compare/ under its new name and compared token by
# token: whitespace outside string literals and the line breaks of comments do not count, adjacent string
# literals are joined (clang-format may wrap a renamed line differently), and everything else must be
# identical once the renames below are applied to the old text:
#   - a static helper that one render_*.c file now calls in another gets the module prefix
#     (classic_pair -> lab_cmp_classic_pair, sweep_t -> lab_cmp_sweep_t; render_private.h);
#   - the six wrappers app_esc, app_fmt, app_stat, app_factor, app_pct, app_binary are gone: their calls
#     become the table-driven lab_cmp_app (o, LAB_CMP_<form>, v), lab_cmp_app_stat and lab_cmp_app_esc
#     of cmp.c (the rules are listed in RULES below and applied to the old text).
# The few functions changed on purpose are listed in CHANGED with the reason; any other difference, or a
# function not found, fails (exit 1). Needs git history holding BASE (exit 77 when it does not).
#
# Usage: scripts/check-split.sh [--verbose] [BASE]    (default BASE: ab97e17)
set -euo pipefail

verbose=0
if [ "${1:-}" = "--verbose" ]; then
  verbose=1
  shift
fi
base=${1:-ab97e17}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null || { echo "check-split: python3 is needed (scripts/setup.sh installs it)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! git -C "$root" show "$base:compare/render.c" >"$tmp/render.c" 2>/dev/null ||
   ! git -C "$root" show "$base:scan/sweep.c" >"$tmp/sweep.c" 2>/dev/null; then
  echo "SKIP: check-split: commit $base is not in this clone's history (a shallow clone?)" >&2
  exit 77
fi

# the rename maps made since (scripts/renames/*.map, as scripts/rename.sh applies them), applied to the old
# text after the split's own renames below; rename.sh leaves this file alone, which names what was
maps=$("$root/scripts/rename.sh" --program "$root"/scripts/renames/*.map)
MAPS="$maps" python3 - "$root" "$verbose" "$tmp" <<'PY'
import glob, os, re, sys

root, verbose, tmp = sys.argv[1], sys.argv[2] == "1", sys.argv[3]

# the static helpers that became shared between the render_*.c files (render_private.h)
PREFIXED = """app_all_runs app_backend app_cache_over_note app_point app_production_given app_ratio app_sw
app_tool classic_pair cold_facts_t collection_name gather_cold layout_heading render_baseline render_ceiling
render_charts render_cold render_dataset render_environment render_match_note render_match_verdict
render_runs render_sweep render_sweep_baseline render_sweep_verdict render_table render_verdict
render_verdict_n run_counts sweep_free sweep_load sweep_t""".split()

# the wrappers' calls, as the one helper's (applied to the old text)
RULES = [
    (r"\bapp_esc \( *", "lab_cmp_app_esc ("),
    (r"\bapp_fmt \( *(\w+), LAB_UNIT_(\w+),", r"lab_cmp_app (\1, LAB_CMP_\2,"),
    (r"\bapp_fmt \( *(\w+), (\w+),", r"lab_cmp_app (\1, LAB_CMP_UNIT (\2),"),
    (r"\bapp_factor \( *(\w+),", r"lab_cmp_app (\1, LAB_CMP_FACTOR,"),
    (r"\bapp_pct \( *(\w+),", r"lab_cmp_app (\1, LAB_CMP_RATIO_PCT,"),
    (r"\bapp_binary \( *(\w+),", r"lab_cmp_app (\1, LAB_CMP_BINARY,"),
    (r"\bapp_stat \(([^;]*)\);", r"lab_cmp_app_stat (\1, true);"),
]
# replaced by cmp.c's lab_cmp_app / lab_cmp_app_stat / lab_cmp_app_esc (their bodies now live there once)
GONE = {"app_esc", "app_fmt", "app_stat", "app_factor", "app_pct", "app_binary"}
# changed on purpose, with why
CHANGED = {
    "render_sweep_verdict": "split (176 lines): sweep_facts, render_reread_line and render_sweep_cold_line "
                            "in render_sweep.c hold its first loop and its lines 2 and 4",
    "app_point_stat": "formats through lab_cmp_app_stat instead of its own format-append-free",
}


def items(text):
    """name -> text of every function (from its name line to the closing brace) and typedef struct."""
    out, lines, i = {}, text.split("\n"), 0
    while i < len(lines):
        m = re.match(r"^([a-z_][a-z_0-9]*) \(", lines[i])
        if m or lines[i].startswith("typedef struct {"):
            j = i
            while j < len(lines) and not re.match(r"^\}", lines[j]):
                j += 1
            body = "\n".join(lines[i:j + 1])
            name = m.group(1) if m else re.match(r"^\} ([a-z_0-9]+);", lines[j]).group(1)
            out[name] = body
            i = j
        i += 1
    return out


def tokens(text):
    """the text with whitespace outside string and char literals dropped, adjacent string literals
    joined and comments reduced to their words."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.index("*/", i) + 2
            out.append("/*" + " ".join(text[i + 2:j - 2].split()) + "*/")
            i = j
        elif c in "\"'":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            lit = text[i:j + 1]
            if c == '"' and out and out[-1].startswith('"'):
                out[-1] = out[-1][:-1] + lit[1:]  # "a " "b" is "a b"
            else:
                out.append(lit)
            i = j + 1
        elif c.isspace():
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "\"'" and not text.startswith("/*", j):
                j += 1
            out.append(text[i:j])
            i = j
    return "".join(out)


MAPS = [(re.compile(m.group(1)), m.group(2))
        for m in (re.match(r"s/(.*)/(.*)/g;$", l) for l in os.environ["MAPS"].splitlines()) if m]


def mapped(text):
    """the text with the rename maps applied."""
    for a, b in MAPS:
        text = a.sub(b, text)
    return text


def renamed(text):
    # (not collapsed: whitespace inside string literals counts)
    for a, b in RULES:
        text = re.sub(a, b, text)
    for name in PREFIXED:
        text = re.sub(r"\b%s\b" % name, "lab_cmp_" + name, text)
    return mapped(text)


def check(old_path, new_paths, only=None, prefixed=True):
    """compare every function of old_path (or those in `only`) with the same (renamed) one in new_paths."""
    global PREFIXED
    saved, PREFIXED = PREFIXED, (PREFIXED if prefixed else [])
    old = items(open(old_path, encoding="utf-8").read())
    new = {}
    for path in new_paths:
        for name, body in items(open(path, encoding="utf-8").read()).items():
            new.setdefault(name, (os.path.relpath(path, root), body))
    bad = same = gone = changed = total = 0
    for name, body in old.items():
        if only is not None and name not in only:
            continue
        total += 1
        to = mapped("lab_cmp_" + name if name in PREFIXED else name)
        if prefixed and name in GONE:
            gone += 1
            if verbose:
                print("gone      %-28s -> lab_cmp_app* (cmp.c)" % name)
            continue
        if to not in new:
            print("MISSING   %s (as %s)" % (name, to))
            bad += 1
            continue
        where, nbody = new[to]
        if tokens(renamed(body)) == tokens(nbody):
            same += 1
            if verbose:
                print("unchanged %-28s -> %s in %s" % (name, to, where))
        elif prefixed and name in CHANGED:
            changed += 1
            print("changed   %-28s -> %s in %s: %s" % (name, to, where, CHANGED[name]))
        else:
            print("CHANGED   %s -> %s in %s" % (name, to, where))
            bad += 1
    PREFIXED = saved
    return total, same, gone, changed, bad


compare = sorted(glob.glob(os.path.join(root, "compare", "*.c"))) + [os.path.join(root, "compare", "render_private.h")]
t, s, g, c, b1 = check(os.path.join(tmp, "render.c"), compare)
print("check-split: compare/render.c: %d of %d functions and types moved unchanged apart from renames, %d "
      "replaced by lab_cmp_app*, %d changed on purpose, %d wrong" % (s, t, g, c, b1))
SWEEP_TABLE = {"regime_width", "buffered_note", "fmt_num", "locality_once", "sweep_table_layouts",
               "lab_scan_sweep_table_render"}
t, s, g, c, b2 = check(os.path.join(tmp, "sweep.c"), [os.path.join(root, "scan", "table.c")], SWEEP_TABLE, False)
print("check-split: scan/sweep.c's sweep table: %d of %d functions moved to scan/table.c unchanged, %d wrong"
      % (s, t, b2))
sys.exit(1 if b1 or b2 else 0)
PY
