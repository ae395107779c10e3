# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by scripts/deps.sh and scripts/fresh-check.sh: the apt sources
# this machine is configured with, so no script names a mirror host.
#
# The machine's enabled binary ("deb") entries, one "URI<TAB>suite<TAB>
# components<TAB>signed-by" line each, from both formats apt reads:
# sources.list lines and deb822 .sources stanzas.
apt_entries() {
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk '$1 == "deb" {
                 i = 2; sb = "";
                 if ($2 ~ /^\[/) {
                     for (; i <= NF; i++) {
                         if ($i ~ /^\[?signed-by=/) { sb = $i; sub(/^\[?signed-by=/, "", sb); sub(/\]$/, "", sb) }
                         if ($i ~ /\]$/) { i++; break }
                     }
                 }
                 comps = ""; for (j = i + 2; j <= NF; j++) comps = comps " " $j;
                 print $i "\t" $(i + 1) "\t" comps "\t" sb
             }' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        [ "$(basename "$f")" = r500.sources ] && continue
        awk 'function flush() {
                 if (types ~ /(^| )deb( |$)/ && enabled != "no")
                     for (u = 1; u <= nu; u++) for (k = 1; k <= ns; k++)
                         print uris[u] "\t" suites[k] "\t" comps "\t" sb;
                 types = ""; nu = ns = 0; comps = ""; sb = ""; enabled = ""
             }
             /^[ \t]*#/ { next }
             /^[ \t]*$/ { flush(); next }
             { key = tolower($1); sub(/:$/, "", key); $1 = "" }
             key == "types" { types = $0 }
             key == "uris" { nu = split($0, uris, " ") }
             key == "suites" { ns = split($0, suites, " ") }
             key == "components" { comps = $0 }
             key == "signed-by" { sb = $0; gsub(/^ +/, "", sb) }
             key == "enabled" { enabled = tolower($2 $0); gsub(/ /, "", enabled) }
             END { flush() }' "$f"
    done
}

# The URI of the machine's main Debian archive for suite $1 (the first
# enabled entry of that suite with component main).
apt_main_uri() {
    apt_entries | awk -F'\t' -v suite="$1" \
        '$2 == suite && $3 ~ /(^| )main( |$)/ { print $1; exit }'
}

# The machine's own codename (bookworm, trixie, ...).
apt_host_codename() {
    (. /etc/os-release && echo "${VERSION_CODENAME:-}")
}

# A Debian release as codename: 11, 12, 13 or a codename.
apt_codename() {
    case "$1" in
    11) echo bullseye ;;
    12) echo bookworm ;;
    13) echo trixie ;;
    *) echo "$1" ;;
    esac
}

# The entries Debian release $1 (a codename) has on the machine's own
# mirrors, "URI<TAB>suite<TAB>signed-by" lines: each enabled entry of the
# machine's own release with its suite renamed (bookworm-updates ->
# trixie-updates, bookworm-security -> trixie-security; backports and
# proposed updates are not the release; sid has no others).
apt_release_entries() {
    local release=$1 host uri suite comps sb new
    host=$(apt_host_codename)
    apt_entries | sort -u | while IFS=$'\t' read -r uri suite comps sb; do
        case "$suite" in
        "$host") new=$release ;;
        "$host"-updates|"$host"-security)
            [ "$release" = sid ] && continue
            new="$release-${suite#"$host"-}" ;;
        *) continue ;;
        esac
        printf '%s\t%s\t%s\n' "$uri" "$new" "$sb"
    done
}
