# Sourced by scripts/load and scripts/robustness: finds or builds the release `archivegate`, installs
# wrk when missing, raises the open-file limit.
#
# The binary: $ARCHIVEGATE_BIN when set, else the one scripts/check-image builds — the Dockerfile's
# own `RUN swift build` line (a static release build) run on a hard-linked copy of what the build
# stage COPYs, in .build-image-context/ with scratch .build-release-static/, exactly as check-image
# does it. So CI (scripts/test runs these before check-image) builds it once: check-image's build
# finds the same inodes and times and has nothing to do. It is also the binary the image ships.

lg_say() { echo "${LG_NAME:-load}: $*" >&2; }
lg_die() { echo "${LG_NAME:-load}: FAIL: $*" >&2; exit 1; }

# The Dockerfile with continuation lines joined, each line prefixed by its stage's name
# (the same parsing as scripts/check-image).
lg_staged_dockerfile() {
    sed -e ':join' -e '/\\$/{N; s/\\\n//; b join' -e '}' Dockerfile \
        | awk '/^FROM /{stage = ($NF ~ /^[A-Za-z]/ && $(NF-1) ~ /^[Aa][Ss]$/) ? $NF : "unnamed"}
               stage != "" && !/^[[:space:]]*#/ {print stage "\t" $0}'
}

# Sets LG_BIN to a release `archivegate` (with `archivegate-server`, which `archivegate serve` execs,
# in the same folder). Run from the repository root.
lg_build_binary() {
    if [ -n "${ARCHIVEGATE_BIN:-}" ]; then
        [ -x "$ARCHIVEGATE_BIN" ] || lg_die "ARCHIVEGATE_BIN=$ARCHIVEGATE_BIN is not an executable"
        LG_BIN="$ARCHIVEGATE_BIN"
        lg_say "using ARCHIVEGATE_BIN=$LG_BIN (no build)"
        return
    fi
    local root="$PWD" context="$PWD/.build-image-context" scratch="$PWD/.build-release-static"
    local build_line copy_line source path words plain=1
    local -a build_lines build_command
    # One `RUN swift build … --product X` line per binary the image ships.
    mapfile -t build_lines < <(lg_staged_dockerfile | awk -F'\t' '$1 == "build" && $2 ~ /^RUN swift build /{print $2}')
    for build_line in "${build_lines[@]}"; do
        if [[ "$build_line" == *['&;|$`<>']* ]]; then plain=0; fi
    done
    if [ "${#build_lines[@]}" -eq 0 ] || [ "$plain" -eq 0 ]; then
        # The Dockerfile no longer has the plain lines check-image parses: a build of our own.
        lg_say "no plain 'RUN swift build' lines in Dockerfile: building in .build-release"
        swift build -c release --product archivegate --scratch-path .build-release >&2
        swift build -c release --product archivegate-server --scratch-path .build-release >&2
        LG_BIN="$root/.build-release/release/archivegate"
        return
    fi
    rm -rf "$context" && mkdir -p "$context"
    while IFS= read -r copy_line; do
        read -r -a words <<< "$copy_line"
        for source in "${words[@]:1:${#words[@]}-2}"; do
            case "$source" in --*) continue ;; /*|*..*) lg_die "COPY source outside the context: $source" ;; esac
            for path in $source; do if [ -e "$path" ]; then cp -al --parents "$path" "$context/"; fi; done
        done
    done < <(lg_staged_dockerfile | awk -F'\t' '$1 == "build" && $2 ~ /^COPY / && $2 !~ /--from/ {print $2}')
    local started=$SECONDS
    for build_line in "${build_lines[@]}"; do
        read -r -a build_command <<< "${build_line#RUN }"
        lg_say "building the image's binary: ${build_command[*]} (in ${context#"$root"/}, scratch ${scratch#"$root"/}; shared with scripts/check-image)"
        "${build_command[@]}" --package-path "$context" --scratch-path "$scratch" >&2 || lg_die "release build failed"
    done
    LG_BIN="$("${build_command[0]}" build -c release --package-path "$context" --scratch-path "$scratch" --show-bin-path)/archivegate"
    [ -x "$LG_BIN" ] || lg_die "no binary at $LG_BIN"
    [ -x "$(dirname "$LG_BIN")/archivegate-server" ] \
        || lg_die "no archivegate-server beside $LG_BIN: the Dockerfile needs a 'RUN swift build … --product archivegate-server' line"
    lg_say "binaries ready after $((SECONDS - started)) s: $LG_BIN and archivegate-server"
}

# wrk from Debian when missing (root only).
lg_need_wrk() {
    command -v wrk > /dev/null && return
    if [ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null; then
        lg_say "installing wrk"
        { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk > /dev/null 2>&1 \
            || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk > /dev/null; }; } \
            || lg_die "could not install wrk (apt-get install wrk)"
    else
        lg_die "wrk is not installed (Debian: apt-get install wrk)"
    fi
}

# The soft open-file limit raised to at least $1 (up to the hard limit); fails when the hard limit is lower.
lg_need_files() {
    local want="$1" soft hard
    soft="$(ulimit -Sn)"; hard="$(ulimit -Hn)"
    if [ "$soft" != unlimited ] && [ "$soft" -lt "$want" ]; then
        if [ "$hard" = unlimited ] || [ "$hard" -ge "$want" ]; then
            ulimit -Sn "$want"
        else
            lg_die "open-file limit: need $want, hard limit is $hard (raise it: ulimit -Hn / limits.conf)"
        fi
    fi
    lg_say "open-file limit $(ulimit -Sn) (need $want)"
}
