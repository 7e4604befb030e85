#!/usr/bin/env bash
# test_install: installs a build directory into a temporary prefix and uses the installed programs
# from outside the source tree, in a clean environment (no DYNSCOPE_* variables, no build paths):
#   1. the layout (programs, robots, docs, copyright, man pages, completion; desktop entry, icon and
#      MIME types with the window);
#   2. dynscope-cli info on the installed ur5.urdf;
#   3. dynscope --window-screenshot --workspace lecture on its default robot writes a PNG (needs
#      an X display: skipped, exit status 77, when DISPLAY is unset; the other steps still run);
#   4. the man pages render (man -l, else groff) without warnings and name every command and
#      option of the programs' --help;
#   5. the bash completion completes every command of `dynscope-cli --help`, each command's options
#      of `dynscope-cli COMMAND --help`, the algorithms each command accepts, and robot files;
#   6. the Python module (when built): installed under lib/python3*/dist-packages with its stubs, and
#      `import dynscope` there runs rnea on the installed ur5.urdf.
# Usage: test_install.sh BUILD_DIR   (ctest: tests/install/CMakeLists.txt)
set -uo pipefail

build=${1:?usage: test_install.sh BUILD_DIR}
build=$(cd "$build" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dynscope-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
failures=0
skipped=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
pass() { echo "ok: $*"; }

# A clean environment: what a user's login shell would have, plus the X display when there is one.
clean_env=(env -i "HOME=$work/home" "PATH=/usr/local/bin:/usr/bin:/bin" "LANG=C.UTF-8" "TMPDIR=$work/tmp")
# The sanitizer build's options (scripts/test-sanitizers: LeakSanitizer's suppressions) go through.
for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS; do
  [ -n "${!v:-}" ] && clean_env+=("$v=${!v}")
done
mkdir -p "$work/home" "$work/tmp" "$work/outside"

# Sorted, unique words of stdin, one a line.
words() { tr -s ' \t' '\n\n' | sed '/^$/d' | LC_ALL=C sort -u; }
# "a, b or c" / "a, b, c." / "a | b" lists to one word a line.
list_words() { sed -e 's/ or /, /g' -e 's/[.()]//g' -e "s/'//g" | tr ',|' '\n\n' | sed 's/^ *//; s/ *$//' | sed '/^$/d' | LC_ALL=C sort -u; }
# Prints what differs between two word lists ($1, $2: labels; $3, $4: lists), nothing when equal.
compare_lists() {
  diff <(printf '%s\n' "$3" | sed '/^$/d') <(printf '%s\n' "$4" | sed '/^$/d') |
    sed -n -e "s/^< /  only in $1: /p" -e "s/^> /  only in $2: /p"
}

# --- 1. install --------------------------------------------------------------------------------
if ! cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1; then
  cat "$work/install.log" >&2
  fail "cmake --install $build --prefix $prefix"
  exit 1
fi
pass "cmake --install into $prefix"

cli=$prefix/bin/dynscope-cli
gui=$prefix/bin/dynscope
with_gui=0
[[ -x $gui ]] && with_gui=1
expect=(
  bin/dynscope-cli
  share/dynscope/robots/ur5.urdf
  share/dynscope/robots/stanford_arm.dh
  share/dynscope/robots/README.md
  share/doc/dynscope/copyright
  share/doc/dynscope/changelog.Debian.gz
  share/doc/dynscope/dh-format.md
  share/bash-completion/completions/dynscope-cli
  share/man/man1/dynscope-cli.1.gz
)
if ((with_gui)); then
  expect+=(
    share/man/man1/dynscope.1.gz
    share/applications/dynscope.desktop
    share/icons/hicolor/scalable/apps/dynscope.svg
    share/mime/packages/dynscope.xml
  )
fi
for f in "${expect[@]}"; do
  [[ -s $prefix/$f ]] || fail "not installed: $f"
done
# Every sample robot (and any mesh folder) and every picture of the docs.
(cd "$(dirname "$0")/../../robots" && find . -type f | sort) >"$work/robots.source"
(cd "$prefix/share/dynscope/robots" && find . -type f | sort) >"$work/robots.installed"
cmp -s "$work/robots.source" "$work/robots.installed" || fail "share/dynscope/robots differs from robots/"
(cd "$(dirname "$0")/../../docs/images" && find . -type f | sort) >"$work/images.source"
(cd "$prefix/share/doc/dynscope/images" 2>/dev/null && find . -type f | sort) >"$work/images.installed"
cmp -s "$work/images.source" "$work/images.installed" || fail "share/doc/dynscope/images differs from docs/images"
# Nothing installed may name the source or build tree (not checked in a sanitizer build: ASan's
# metadata names every unit's source file).
src=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${2:-0}" = 1 ]; then
  echo "not checked (sanitizer build): installed files name no source or build tree"
elif grep -rlaF -e "$src/" -e "$build/" "$prefix" >"$work/leaks" 2>/dev/null; then
  fail "installed files name the source or build tree: $(tr '\n' ' ' <"$work/leaks")"
fi
if ((with_gui)) && command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$prefix/share/applications/dynscope.desktop" >&2 || fail "desktop-file-validate dynscope.desktop"
fi
if ((with_gui)) && command -v xmllint >/dev/null; then
  xmllint --noout "$prefix/share/mime/packages/dynscope.xml" || fail "xmllint dynscope.xml (MIME types)"
fi
((failures == 0)) && pass "installed layout"

# --- 2. the CLI, installed, from outside the source tree ------------------------------------------
cd "$work/outside"
if "${clean_env[@]}" "$cli" info "$prefix/share/dynscope/robots/ur5.urdf" >"$work/info.json" 2>"$work/info.err" &&
  grep -q '"nq"' "$work/info.json"; then
  pass "dynscope-cli info share/dynscope/robots/ur5.urdf"
else
  cat "$work/info.err" >&2
  fail "installed dynscope-cli info ur5.urdf"
fi
if ! "${clean_env[@]}" "$cli" --help >"$work/help.txt" 2>&1; then
  fail "dynscope-cli --help"
fi
# The commands: the lines of the "Commands:" section.
commands=$(sed -n '/^Commands:/,/^$/p' "$work/help.txt" | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
[[ $(wc -w <<<"$commands") -ge 10 ]] || fail "no command list in dynscope-cli --help"
# Each command's options: the lines of its help's "Options:" section.
declare -A options
for c in $commands; do
  "${clean_env[@]}" "$cli" "$c" --help >"$work/help.$c" 2>&1 || fail "dynscope-cli $c --help"
  options[$c]=$(sed -n '/^Options:/,$p' "$work/help.$c" | sed -n 's/^  \(--[a-z0-9-]*\).*/\1/p' | LC_ALL=C sort -u)
  [[ -n ${options[$c]} ]] || fail "no options in dynscope-cli $c --help"
done

# The values of --algorithm each command accepts, from the CLI's own messages.
algorithms_of() {
  local c=$1 out
  case $c in
    id | mass | fd)  # "unknown ... algorithm '?' (valid: a, b or c)"
      out=$("${clean_env[@]}" "$cli" "$c" x.urdf --algorithm '?' 2>&1 >/dev/null)
      sed -n 's/.*(valid: \(.*\)).*/\1/p' <<<"$out" | head -1 | list_words ;;
    opcount)
      out=$("${clean_env[@]}" "$cli" opcount --chain 2 --algorithm '?' 2>&1 >/dev/null)
      sed -n 's/.*(valid: \(.*\)).*/\1/p' <<<"$out" | head -1 | list_words ;;
    trace)  # "--algorithm must be one of a, b, c, not '?'"
      out=$("${clean_env[@]}" "$cli" trace x.urdf --algorithm '?' 2>&1 >/dev/null)
      sed -n "s/.*must be one of \(.*\), not '?'.*/\1/p" <<<"$out" | head -1 | list_words ;;
    simulate)  # "--algorithm of simulate must be aba or crba, not '?'"
      out=$("${clean_env[@]}" "$cli" simulate x.urdf --duration 1 --algorithm '?' 2>&1 >/dev/null)
      sed -n "s/.*must be \(.*\), not '?'.*/\1/p" <<<"$out" | head -1 | list_words ;;
  esac
}

# --- 3. the window, installed: its default robot and KaTeX without the source tree ---------------
if ((with_gui)); then
  if [[ -z ${DISPLAY:-} ]]; then
    echo "skip: dynscope --window-screenshot needs an X display (DISPLAY is unset; ctest runs under xvfb-run)"
    skipped=1
  else
    gui_env=("${clean_env[@]}" "DISPLAY=$DISPLAY")
    [[ -n ${XAUTHORITY:-} ]] && gui_env+=("XAUTHORITY=$XAUTHORITY")
    if timeout 300 "${gui_env[@]}" "$gui" --window-screenshot out.png --workspace lecture --size 1366x768 \
      >"$work/gui.log" 2>&1 && [[ -s out.png ]] && [[ $(head -c 4 out.png | od -An -c | tr -d ' ') == '211PNG' ]]; then
      pass "dynscope --window-screenshot out.png --workspace lecture ($(stat -c %s out.png) bytes)"
    else
      tail -20 "$work/gui.log" >&2
      fail "installed dynscope --window-screenshot out.png --workspace lecture"
    fi
  fi
  "${clean_env[@]}" "$gui" --help >"$work/gui-help.txt" 2>&1 || fail "dynscope --help"
fi

# --- 4. man pages ----------------------------------------------------------------------------------
render() {  # the page as plain text on stdout, warnings on stderr
  if command -v man >/dev/null; then
    MANPAGER=cat MANWIDTH=100 LANG=C.UTF-8 man --warnings -l "$1" | col -b
  else
    zcat -f "$1" | groff -man -Tutf8 -ww -rLL=100n | col -b
  fi
}
# The words a man page must contain: every command and option of the program's help.
check_page() {  # page, label, words...
  local page=$1 label=$2
  shift 2
  if ! render "$page" >"$work/page.txt" 2>"$work/page.err" || [[ ! -s $work/page.txt ]]; then
    fail "$label: man -l does not render"
    return
  fi
  if [[ -s $work/page.err ]]; then
    cat "$work/page.err" >&2
    fail "$label: warnings while rendering"
  fi
  # Hyphenated line ends joined, so that no word is cut in two.
  sed -z 's/\xe2\x80\x90\n *//g' "$work/page.txt" >"$work/page.joined"
  local missing=()
  for w in "$@"; do  # as a whole word: --q is not found in --qd
    grep -qE -- "(^|[^a-z0-9-])$w([^a-z0-9-]|\$)" "$work/page.joined" || missing+=("$w")
  done
  ((${#missing[@]} == 0)) || fail "$label does not mention: ${missing[*]}"
}
if command -v man >/dev/null || command -v groff >/dev/null; then
  all_options=$(for c in $commands; do printf '%s\n' "${options[$c]}"; done | LC_ALL=C sort -u)
  # shellcheck disable=SC2086
  check_page "$prefix/share/man/man1/dynscope-cli.1.gz" "dynscope-cli.1" $commands $all_options --version
  if ((with_gui)); then
    # The option column of --help ("  -q <a,b,...>", "  -h, --help"): short and long names.
    gui_options=$(grep -E '^ +-' "$work/gui-help.txt" | sed -E 's/^ +//; s/  +.*//' |
      grep -oE -- '-{1,2}[a-z][a-z-]*' | LC_ALL=C sort -u)
    [[ $(wc -w <<<"$gui_options") -ge 10 ]] || fail "no option list in dynscope --help"
    # shellcheck disable=SC2086
    check_page "$prefix/share/man/man1/dynscope.1.gz" "dynscope.1" $gui_options
  fi
  ((failures == 0)) && pass "man pages render and list every command and option"
else
  echo "skip: neither man nor groff is installed: the man pages were not rendered"
fi

# --- 5. bash completion -------------------------------------------------------------------------------
completion=$prefix/share/bash-completion/completions/dynscope-cli
complete_line() {  # the words after "dynscope-cli": what the completion offers for the last one
  "${clean_env[@]}" bash --norc --noprofile -c '
    source "$1" || exit 3
    shift
    COMP_WORDS=(dynscope-cli "$@")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMP_LINE="${COMP_WORDS[*]}"
    COMP_POINT=${#COMP_LINE}
    _dynscope_cli || exit 4
    printf "%s\n" "${COMPREPLY[@]}"' completion "$completion" "$@" | sed '/^$/d' | LC_ALL=C sort -u
}
got=$(complete_line "")
want=$(words <<<"$commands")
if [[ $got == "$want" ]]; then
  pass "completion of 'dynscope-cli ' is the $(wc -l <<<"$want") commands of --help"
else
  fail "completion of 'dynscope-cli ' differs from the commands of dynscope-cli --help:"
  compare_lists "--help" "completion" "$want" "$got" >&2
fi
for c in $commands; do
  got=$(complete_line "$c" "--")
  if [[ $got != "${options[$c]}" ]]; then
    fail "completion of 'dynscope-cli $c --' differs from dynscope-cli $c --help:"
    compare_lists "--help" "completion" "${options[$c]}" "$got" >&2
  fi
  if grep -q -- '--algorithm' <<<"${options[$c]}"; then
    want=$(algorithms_of "$c")
    got=$(complete_line "$c" "--algorithm" "")
    if [[ -z $want ]]; then
      fail "could not read the algorithms of dynscope-cli $c"
    elif [[ $got != "$want" ]]; then
      fail "completion of 'dynscope-cli $c --algorithm ' differs from the algorithms dynscope-cli $c accepts:"
      compare_lists "dynscope-cli" "completion" "$want" "$got" >&2
    fi
  fi
done
# Robot files: *.urdf, *.dh, *.xml, *.json and folders; not other files.
mkdir -p "$work/files/sub"
touch "$work/files/"{arm.urdf,table.dh,model.xml,project.json,notes.txt,data.csv}
got=$(cd "$work/files" && complete_line info "")
want=$(printf '%s\n' arm.urdf model.xml project.json sub table.dh)
[[ $got == "$want" ]] || { fail "completion of 'dynscope-cli info ' offers: $(tr '\n' ' ' <<<"$got")(want: $(tr '\n' ' ' <<<"$want"))"; }
got=$(complete_line simulate --integrator "")
[[ $got == "$(words <<<"euler rk4 rk45")" ]] || fail "completion of 'dynscope-cli simulate --integrator ' offers: $got"
((failures == 0)) && pass "bash completion: commands, options, algorithms and robot files"

# --- 6. the Python module, installed: where Debian's python3 finds it, importable from outside --------
python=/usr/bin/python3
[[ -x $python ]] || python=$(command -v python3)
site_dir=$(cd "$prefix" && ls -d lib/python3*/dist-packages/dynscope 2>/dev/null | head -1)
if [[ -z $site_dir ]]; then
  if [[ -d $build/python/dynscope ]]; then fail "the Python module was built but not installed under lib/python3*/dist-packages"
  else echo "skip: the Python module is not built (no pybind11)"; fi
else
  [[ -s $prefix/$site_dir/_dynscope.pyi && -e $prefix/$site_dir/py.typed ]] || fail "the Python stubs are not installed"
  [[ -e $prefix/$site_dir/_locations.py ]] && fail "installed: _locations.py (it names the build tree)"
  if "${clean_env[@]}" "PYTHONPATH=$prefix/$(dirname "$site_dir")" "$python" -c "
import dynscope, numpy as np
m = dynscope.load('$prefix/share/dynscope/robots/ur5.urdf')
tau = dynscope.rnea(m, dynscope.Data(m), m.neutral(), np.zeros(m.nv), np.zeros(m.nv))
assert tau.shape == (6,) and abs(tau[1]) > 1, tau
print(dynscope.__file__)" >"$work/python.log" 2>&1 && grep -q "^$prefix/$site_dir/__init__.py" "$work/python.log"; then
    pass "import dynscope from $site_dir; rnea on the installed ur5.urdf"
  else
    cat "$work/python.log" >&2
    fail "import dynscope from the installed $site_dir"
  fi
fi

if ((failures > 0)); then
  echo "test_install: $failures check(s) failed" >&2
  exit 1
fi
if ((skipped)); then
  echo "test_install: every other check passed; the window's screenshot was skipped"
  exit 77
fi
echo "test_install: all checks passed"
