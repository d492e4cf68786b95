# zsh -f zsh_complete.zsh FPATH_DIR BIN_DIR OUT LINE...
#
# Completes each LINE as a person would, in an interactive zsh on a
# pseudo-terminal (zsh/zpty) with the completion system (compinit) and the
# _roofline of FPATH_DIR, roofline found in BIN_DIR: the line is typed, then
# TAB. Every match the completion adds is written to OUT (a wrapper around
# the compadd builtin records what passes the typed prefix), each case
# between "@@case LINE" and "@@end". Used by test_completion.py.
zmodload zsh/zpty || exit 1
dir=$1 bin=$2 out=$3; shift 3
: > $out
zpty z zsh -f -i
zpty -w z "PS1='' PS2='' PROMPT_EOL_MARK=''; unsetopt beep; PATH=${(q)bin}:\$PATH; fpath=(${(q)dir} \$fpath)"
zpty -w z "autoload -Uz compinit && compinit -u -D"
zpty -w z "compadd() { if (( \${@[(I)-[OAD]]} )); then builtin compadd \"\$@\"; return; fi; local -a __m; builtin compadd -A __m \"\$@\"; (( \$#__m )) && print -rl -- \$__m >> ${(q)out}; builtin compadd \"\$@\" }"
zpty -w z "_cap_end() { print -r -- @@end >> ${(q)out} }; _cap() { comppostfuncs=(_cap_end); _main_complete }; zle -C cap-complete complete-word _cap; bindkey '^I' cap-complete"
for line in "$@"; do
  print -r -- "@@case $line" >> $out
  zpty -w -n z "$line"$'\t'
  integer i=0
  until [[ $(tail -n 1 $out) == @@end ]]; do
    while zpty -r -t z junk 2>/dev/null; do :; done
    sleep 0.05
    (( ++i > 400 )) && { print -u2 "zsh completion of '$line' timed out"; exit 1 }
  done
  zpty -w -n z $'\C-u'
done
zpty -d z
