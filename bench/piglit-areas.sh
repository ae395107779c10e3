#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Rerun the piglit tests chosen for issue #17's held-out conformance areas
# on llvmpipe and on Mesa r300 through the DRM shim, and print a Markdown
# table (area, test, llvmpipe, card).  Not part of `make test`: it needs
# Debian's piglit package (apt-get install piglit) and takes a minute or two.
# Usage: bench/piglit-areas.sh [BUILD_DIR] [CAPTURE_DIR]
#   CAPTURE_DIR, when given, receives one R500_CAPTURE file per test.
#   PIGLIT_TIMEOUT (default 60) bounds each run, in seconds; PIGLIT_BIN
#   and PIGLIT_PLATFORM (default surfaceless_egl) override the defaults.
# See docs/mesa-scenes.md, section "Held-out conformance areas".
BUILD=${1:-build}
CAP=${2:-}
SHIM=$(cd "$BUILD" && pwd)/tools/libr500-drm-shim.so
BIN=${PIGLIT_BIN:-/usr/lib/x86_64-linux-gnu/piglit/bin}
export PIGLIT_PLATFORM=${PIGLIT_PLATFORM:-surfaceless_egl}
[ -x "$BIN/fbo-cubemap" ] || { echo "piglit not found in $BIN" >&2; exit 1; }
[ -f "$SHIM" ] || { echo "no shim at $SHIM" >&2; exit 1; }

result() {
    # the PIGLIT: {"result": ...} line, else the exit status
    r=$(sed -n 's/.*"result": *"\([a-z]*\)".*/\1/p' "$1" | tail -1)
    if [ -n "$r" ]; then echo "$r"
    elif [ "$2" = 124 ]; then echo "timeout (${PIGLIT_TIMEOUT:-60} s)"
    else echo "crash (rc $2)"; fi
}

echo "| area | test | llvmpipe | card |"
echo "|---|---|---|---|"
while read -r area test args; do
    case "$area" in ''|'#'*) continue ;; esac
    out=$(mktemp)
    LIBGL_ALWAYS_SOFTWARE=1 timeout ${PIGLIT_TIMEOUT:-60} "$BIN/$test" $args -auto -fbo \
        >"$out" 2>&1
    ref=$(result "$out" $?)
    if [ -n "$CAP" ]; then
        mkdir -p "$CAP"
        export R500_CAPTURE="$CAP/$test.r5c"
    fi
    LD_PRELOAD=$SHIM timeout ${PIGLIT_TIMEOUT:-60} "$BIN/$test" $args -auto -fbo >"$out" 2>&1
    card=$(result "$out" $?)
    unset R500_CAPTURE
    rm -f "$out"
    echo "| $area | \`$test${args:+ $args}\` | $ref | $card |"
done <<'LIST'
cube fbo-cubemap
cube cubemap
cube cubemap-shader
cube glsl-fs-texturecube
depth depth-tex-compare
depth depth-tex-modes
depth depth-tex-modes-glsl
depth depth-tex-modes-rg
tex3d tex3d
tex3d tex3d-npot
tex3d tex3d-maxsize
tex3d tex3d-depth1
tex3d fbo-generatemipmap-3d
mip levelclamp
mip gl-1.2-texture-base-level
mip texsubimage
mip texgen
mip mipmap-setup
srgb tex-srgb
srgb fbo-srgb
mrt fbo-drawbuffers-blend-add
mrt fbo-drawbuffers-fragcolor
mrt fbo-mrt-alphatest
fbo fbo-alpha
fbo fbo-luminance-alpha
fbo fbo-blending-format-quirks
fbo fbo-colormask-formats
drawpix draw-pixels
drawpix draw-pixel-with-texture
edge gl-1.0-edgeflag
edge gl-2.0-edgeflag
stipple gl-2.1-polygon-stipple-fs
offset polygon-offset
offset gl-1.4-polygon-offset
scissor fbo-scissor-bitmap
scissor fbo-scissor-blit
pbo pbo-readpixels-small
pbo fbo-pbo-readpixels-small
pbo dlist-fdo3129-01
s3tc s3tc-errors
blit fbo-blit-scaled-linear
LIST
