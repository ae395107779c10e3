# SPDX-License-Identifier: GPL-2.0-or-later
# The two commands of the README:
#   make run    install what is missing, build everything, start the card
#   make test   install what is missing, build everything, run every test
BUILD ?= build
# The QEMU the card builds into (scripts/qemu-build.sh's table): 10.0 by
# default; QEMU_VERSION=10.2 make run takes another for a new build
# directory (an existing one: meson configure build -Dqemu_version=10.2).
QEMU_VERSION ?=

.PHONY: all run test test-guests deps clean

all: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

# Running needs QEMU with the card and its ROMs, not the sanitizer builds.
run: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) qemu.stamp
	scripts/run.sh $(BUILD)

test: all
	meson test -C $(BUILD) --print-errorlogs

# Every guest on every Debian release (11, 12, 13): the guest suite and
# the matrix that make test leaves out; hours under TCG (docs/guests.md).
test-guests: all
	meson test -C $(BUILD) --setup matrix --suite guest --suite guest-matrix \
	    --print-errorlogs

deps:
	scripts/deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(if $(QEMU_VERSION),-Dqemu_version=$(QEMU_VERSION))

clean:
	rm -rf $(BUILD)
