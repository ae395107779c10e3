# SPDX-License-Identifier: GPL-2.0-or-later
# The two commands of the README:
#   make run    install what is missing, build everything, start the card
#   make test   install what is missing, build everything, run every test
BUILD ?= build

.PHONY: all run test deps clean

all: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

# Running needs QEMU with the card and its ROMs, not the sanitizer builds.
run: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) qemu.stamp
	scripts/run.sh $(BUILD)

test: all
	meson test -C $(BUILD) --print-errorlogs

deps:
	scripts/deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD)

clean:
	rm -rf $(BUILD)
