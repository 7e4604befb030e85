# bash completion for dynscope-cli (installed as share/bash-completion/completions/dynscope-cli).
#
#   dynscope-cli <TAB>              the commands
#   dynscope-cli fd --<TAB>         fd's options
#   dynscope-cli fd <TAB>           robot files (*.urdf, *.dh, *.xml, *.json) and folders
#   dynscope-cli fd --algorithm <TAB>, --integrator, --controller, --demo, --fix, ...: their values
#
# The lists are `dynscope-cli --help` and `dynscope-cli COMMAND --help` (app/cli/options.cpp);
# tests/install/test_install.sh fails when they differ. Self-contained: it needs only bash, not
# the bash-completion package's helpers.

# The commands, in the order of `dynscope-cli --help`.
_dynscope_cli_commands="info check fk jacobian id mass bias fd energy trajectory simulate trace ik convert equations opcount assemble"

# Options every command takes.
_dynscope_cli_common="--gravity --floating-base --no-mimic --fix --help"

# Options of one command besides the common ones (`dynscope-cli COMMAND --help`).
_dynscope_cli_command_options() {
  case $1 in
    info) echo "" ;;
    check) echo "--project --strict" ;;
    fk) echo "--q --link" ;;
    jacobian) echo "--q --link --frame" ;;
    id) echo "--q --qd --qdd --algorithm --fext --wrench --trajectory --project --decompose --out --progress" ;;
    mass) echo "--q --algorithm" ;;
    bias) echo "--q --qd" ;;
    fd) echo "--q --qd --tau --algorithm --fext --wrench --trajectory --out --progress --loop-method --baumgarte" ;;
    energy) echo "--q --qd" ;;
    trajectory) echo "--project --demo --rate --out" ;;
    simulate)
      echo "--tau --algorithm --wrench --trajectory --duration --dt --integrator --controller --q0 --qd0" \
        "--torques --kp --kd --tolerance --compare --limit-stiffness --limit-damping --velocity-bound" \
        "--ground --friction --contact-time --contact-stiffness --contact-damping --record-every --out" \
        "--progress --loop-method --baumgarte --no-projection"
      ;;
    trace) echo "--q --qd --qdd --tau --algorithm --out" ;;
    ik) echo "--link --q0 --target --pin --lock --position-only" ;;
    convert) echo "--out --to --convention" ;;
    equations) echo "--parameters --format --out --q --qd --qdd --progress" ;;
    opcount) echo "--algorithm --chain --problem" ;;
    assemble) echo "--q --hold --hold-independent" ;;
  esac
}

# The values of --algorithm for one command.
_dynscope_cli_algorithms() {
  case $1 in
    id) echo "rnea denoc newton-euler-3 uicker-kahn waters lagrange-4x4 lagrange-3x3 configuration-space" ;;
    mass) echo "crba denoc" ;;
    fd) echo "aba crba denoc" ;;
    simulate) echo "aba crba" ;;
    trace)
      echo "rnea crba aba crba-ltl denoc-id denoc-gim denoc-fd newton-euler-3 lagrange-4x4 lagrange-3x3" \
        "waters uicker-kahn configuration-space"
      ;;
    opcount)
      echo "rnea denoc newton-euler-3 uicker-kahn waters lagrange-4x4 lagrange-3x3 configuration-space crba aba"
      ;;
  esac
}

# Options that are flags (every other option takes a value).
_dynscope_cli_flags=" --floating-base --no-mimic --decompose --compare --progress --position-only --strict --no-projection --hold-independent --help "

# Adds the files whose extension is one of $1 (an extglob alternation) and the folders to COMPREPLY.
_dynscope_cli_files() {
  local extensions=$1 cur=$2 restore
  restore=$(shopt -p extglob)
  shopt -s extglob
  local -a found
  mapfile -t found < <(compgen -d -- "$cur")
  COMPREPLY+=("${found[@]}")
  if [[ -n $extensions ]]; then
    mapfile -t found < <(compgen -f -X "!*.@($extensions)" -- "$cur")
  else
    mapfile -t found < <(compgen -f -- "$cur")
  fi
  COMPREPLY+=("${found[@]}")
  eval "$restore"
  compopt -o filenames 2>/dev/null
  return 0
}

_dynscope_cli_words() {
  local IFS=$' \t\n'
  mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")
}

_dynscope_cli() {
  COMPREPLY=()
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" command="" i
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  # --name=value: bash splits it at "=" (COMP_WORDBREAKS); the option is the word before "=".
  if [[ $cur == "=" ]]; then
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    cur=""
  elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  fi

  if ((COMP_CWORD == 1)); then
    if [[ $cur == -* ]]; then
      _dynscope_cli_words "--help --version" "$cur"
    else
      _dynscope_cli_words "$_dynscope_cli_commands" "$cur"
    fi
    return 0
  fi
  command=${COMP_WORDS[1]}
  [[ " $_dynscope_cli_commands " == *" $command "* ]] || return 0

  # The value of an option.
  case $prev in
    --algorithm)
      _dynscope_cli_words "$(_dynscope_cli_algorithms "$command")" "$cur"
      return 0
      ;;
    --frame) _dynscope_cli_words "local world local-world-aligned" "$cur"; return 0 ;;
    --fix) _dynscope_cli_words "balance-inertias unlimited-degenerate-limits mass-massless-links all" "$cur"; return 0 ;;
    --demo) _dynscope_cli_words "saha-stanford saha-planar3" "$cur"; return 0 ;;
    --integrator) _dynscope_cli_words "euler rk4 rk45" "$cur"; return 0 ;;
    --controller) _dynscope_cli_words "passive gravity constant pd computed-torque replay" "$cur"; return 0 ;;
    --problem) _dynscope_cli_words "id mass fd" "$cur"; return 0 ;;
    --loop-method)
      if [[ $command == fd ]]; then
        _dynscope_cli_words "1 2 3 global global-26 global-28" "$cur"
      else
        _dynscope_cli_words "1 2 3" "$cur"
      fi
      return 0
      ;;
    --to) _dynscope_cli_words "urdf dh" "$cur"; return 0 ;;
    --convention) _dynscope_cli_words "standard modified" "$cur"; return 0 ;;
    --parameters) _dynscope_cli_words "numeric symbolic" "$cur"; return 0 ;;
    --format) _dynscope_cli_words "text latex json c python matlab" "$cur"; return 0 ;;
    --project) _dynscope_cli_files "json|JSON" "$cur"; return 0 ;;
    --trajectory | --torques) _dynscope_cli_files "csv|CSV" "$cur"; return 0 ;;
    --out) _dynscope_cli_files "" "$cur"; return 0 ;;
    --*)
      # Any other option with a value (numbers, names): nothing to offer.
      [[ $_dynscope_cli_flags == *" $prev "* ]] || return 0
      ;;
  esac

  if [[ $cur == -* ]]; then
    _dynscope_cli_words "$(_dynscope_cli_command_options "$command") $_dynscope_cli_common" "$cur"
    return 0
  fi
  # MODEL: a robot (URDF, MJCF, DH table) or a project.
  _dynscope_cli_files "urdf|URDF|dh|DH|xml|XML|json|JSON" "$cur"
}

complete -F _dynscope_cli dynscope-cli
