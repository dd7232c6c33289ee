#!/usr/bin/env bash
# check-moved.sh -- prove that a restructuring moved functions without changing them: every function
# defined in a C file of BASE is looked up at HEAD after applying the rename maps to BASE's text
# (scripts/renames/*.map, as scripts/rename.sh applies them), and its body -- from the line naming it to
# its closing brace -- must be the same text, wherever it now lives.
#
# Usage: scripts/check-moved.sh [--base COMMIT] [--head COMMIT] [--map FILE]... [-v]
#   --base  the commit before the restructuring (default ab97e17, the restructuring's base)
#   --head  the commit after it (default HEAD)
#   --map   a rename map (default: every scripts/renames/*.map of HEAD)
#   -v      also list every function found unchanged, and every moved one by name
# Prints, per function: MOVED (another file, same body), CHANGED (same file -- or the file it was renamed
# to -- with another body: an edit, listed for review), MOVED+CHANGED (another file and another body) and
# GONE (no function of that name at HEAD). Exit 0 when no function is MOVED+CHANGED or GONE other than
# those named in EXPECTED below with the reason; 1 otherwise (with a diff of each); 2 on usage.
#
# Formatting is not a change: both sides are compared with runs of white space made one space and none
# next to ( ) , ; so a line that a longer name pushed past the column limit and clang-format broke
# compares equal.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
base=ab97e17
head=HEAD
maps=()
verbose=0
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base=${2:?}; shift ;;
    --head) head=${2:?}; shift ;;
    --map) maps+=("${2:?}"); shift ;;
    -v) verbose=1 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "check-moved.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

# Functions of BASE that were meant to move with an edit, and why. Anything else that moved
# must have kept its body.
EXPECTED="
lab_store_error_transient: moved from etl/retry.c to store/mongo_util.c; the network/selection domain test is now lab_mongo_is_unreachable (the one copy)
lab_store_mark_drop_guard: takes the caller's confirm callback instead of reading the terminal (the question moved to the mains)
ask: the drop guard's terminal question, now core/cli_ask.c's lab_cli_confirm_tty, which the mains pass to lab_store_mark_drop_guard
"

cd "$here"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ${#maps[@]} -eq 0 ]; then
  mkdir -p "$tmp/maps"
  for m in $(git ls-tree --name-only "$head" scripts/renames/ | grep '\.map$'); do
    git show "$head:$m" >"$tmp/maps/${m##*/}"
    maps+=("$tmp/maps/${m##*/}")
  done
fi
dirs="core store datasets etl scan compare tests"
mkdir -p "$tmp/base" "$tmp/head"
git archive "$base" $(git ls-tree --name-only "$base" $dirs 2>/dev/null) | tar -x -C "$tmp/base"
git archive "$head" $(git ls-tree --name-only "$head" $dirs 2>/dev/null) | tar -x -C "$tmp/head"
# BASE's text with the renames applied, as if they had been made before the move
if [ ${#maps[@]} -gt 0 ]; then
  prog=$("$here/scripts/rename.sh" --program "${maps[@]}")
  find "$tmp/base" -name '*.[ch]' -print0 | xargs -0 perl -pi -e "$prog"
fi
git diff --name-status -M "$base" "$head" | awk '$1 ~ /^R/ { print $2, $3 }' >"$tmp/renamed"

EXPECTED="$EXPECTED" python3 - "$tmp" "$verbose" <<'PY'
import os, re, sys, difflib
tmp, verbose = sys.argv[1], sys.argv[2] == "1"
renamed = dict(l.split() for l in open(os.path.join(tmp, "renamed")) if l.strip())
expected = {}
for l in os.environ["EXPECTED"].strip().splitlines():
    name, why = l.split(":", 1)
    expected[name.strip()] = why.strip()

name_re = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*) \(")

def functions(root):
    """(file, name, body) of every function defined at column 0 in the house style."""
    out = []
    for d, _, fs in os.walk(root):
        for f in fs:
            if not f.endswith(".c"):
                continue
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)
            lines = open(p, errors="replace").read().split("\n")
            i = 0
            while i < len(lines):
                m = name_re.match(lines[i])
                if m and i > 0 and lines[i - 1] and not lines[i - 1].rstrip().endswith(";"):
                    j = i
                    while j < len(lines) and lines[j] != "{":
                        if lines[j].rstrip().endswith(";"):
                            break  # a declaration, not a definition
                        j += 1
                    if j < len(lines) and lines[j] == "{":
                        k = j
                        while k < len(lines) and lines[k] != "}":
                            k += 1
                        out.append((rel, m.group(1), "\n".join(lines[i:k + 1])))
                        i = k
                i += 1
    return out

def norm(body):
    # white space is not a change: runs become one space, and none is kept next to ( ) , ;
    return re.sub(r" ?([(),;]) ?", r"\1", re.sub(r"\s+", " ", body)).strip()

base = functions(os.path.join(tmp, "base"))
head = functions(os.path.join(tmp, "head"))
by_name = {}
for f, n, b in head:
    by_name.setdefault(n, []).append((f, b))

counts = {"unchanged": 0, "MOVED": 0, "CHANGED": 0, "MOVED+CHANGED": 0, "GONE": 0}
moved = {}  # (from, to) -> names moved unchanged, listed by file pair unless -v
bad = 0
for f, n, b in sorted(base):
    same_file = renamed.get(f, f)
    cands = by_name.get(n, [])
    if not cands:
        kind = "GONE"
        detail = ""
    else:
        ident = [c for c in cands if norm(c[1]) == norm(b)]
        here_ = [c for c in cands if c[0] == same_file]
        if ident:
            c = next((c for c in ident if c[0] == same_file), ident[0])
            kind = "unchanged" if c[0] == same_file and f == same_file else "MOVED"
            detail = c[0]
        elif here_:
            kind, c = "CHANGED", here_[0]
            detail = c[0]
        else:
            kind, c = "MOVED+CHANGED", cands[0]
            detail = c[0]
    counts[kind] += 1
    allowed = n in expected
    if kind in ("MOVED+CHANGED", "GONE") and not allowed:
        bad += 1
    if kind == "unchanged" and not verbose:
        continue
    if kind == "MOVED" and not verbose:
        moved.setdefault((f, detail), []).append(n)
        continue
    tag = " (expected: %s)" % expected[n] if allowed and kind in ("MOVED+CHANGED", "GONE", "CHANGED") else ""
    print("%-13s %s  %s -> %s%s" % (kind, n, f, detail or "-", tag))
    if kind in ("CHANGED", "MOVED+CHANGED"):
        for l in difflib.unified_diff(b.split("\n"), c[1].split("\n"), "base", "head", n=1, lineterm=""):
            print("    " + l)
for (f, t), names in sorted(moved.items()):
    print("MOVED         %3d unchanged  %s -> %s%s" % (len(names), f, t, ": " + ", ".join(names) if len(names) <= 6 else ""))
print("check-moved.sh: %d functions of the base: %d unchanged in place, %d moved unchanged, %d changed in place "
      "(listed above for review), %d moved and changed, %d gone" % (
          len(base), counts["unchanged"], counts["MOVED"], counts["CHANGED"], counts["MOVED+CHANGED"], counts["GONE"]))
if bad:
    print("check-moved.sh: %d moved functions changed or disappeared without a reason in EXPECTED" % bad)
    sys.exit(1)
PY
