# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# cpuledger: one entry point. `make` builds build/cpuledger; `make check` runs
# the whole suite; `make bench` the overhead benchmarks. V=1 shows commands.

BUILD		?= build
CC		?= gcc
CLANG		?= clang
LLVM_STRIP	?= llvm-strip
BPFTOOL		?= bpftool
ARCH		:= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
VERSION		:= $(shell cat VERSION 2>/dev/null || echo 0.0.0)
PREFIX		?= /usr/local

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

WARNINGS	:= -Wall -Wextra -Wshadow -Wno-unused-parameter -Wmissing-prototypes \
		   -Wstrict-prototypes -Wformat=2 -Wno-format-nonliteral \
		   -Wno-missing-field-initializers
CFLAGS		?= -O2 -g
ALL_CFLAGS	:= $(CFLAGS) -std=gnu11 $(WARNINGS) -D_GNU_SOURCE \
		   -DCPULEDGER_VERSION='"$(VERSION)"' -Iinclude -Isrc -I$(BUILD)
LDLIBS		:= $(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf -lelf -lz) -lsqlite3
BPF_CFLAGS	:= -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Ivmlinux/$(ARCH) -Iinclude -Ibpf \
		   -Wall -Wno-unused-function

CORE_SRCS	:= $(wildcard src/core/*.c) $(wildcard src/sinks/*.c)
CMD_SRCS	:= $(wildcard src/cmd_*.c) src/cli.c src/stream_cmd.c src/main.c
CORE_OBJS	:= $(patsubst src/%.c,$(BUILD)/%.o,$(CORE_SRCS))
CMD_OBJS	:= $(patsubst src/%.c,$(BUILD)/%.o,$(CMD_SRCS))
BPF_SRCS	:= $(wildcard bpf/*.bpf.c)
SKELS		:= $(patsubst bpf/%.bpf.c,$(BUILD)/%.skel.h,$(BPF_SRCS))
HEADERS		:= $(wildcard include/cpuledger/*.h src/*.h src/core/*.h src/sinks/*.h)

UNIT_SRCS	:= $(wildcard tests/unit/test_*.c)
UNIT_BINS	:= $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
WORKLOAD_SRCS	:= $(wildcard tests/workloads/*.c)
WORKLOAD_BINS	:= $(patsubst tests/workloads/%.c,$(BUILD)/workloads/%,$(WORKLOAD_SRCS))

.PHONY: all check test-unit test-integration tests bench install clean deps format-check
.DELETE_ON_ERROR:
.SECONDARY:

all: $(BUILD)/cpuledger

$(BUILD)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.bpf.h) $(wildcard include/cpuledger/*.h) | $(BUILD)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	$(Q)$(LLVM_STRIP) -g $@

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@

$(BUILD)/%.o: src/%.c $(HEADERS) $(SKELS) | $(BUILD)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libcpuledger.a: $(CORE_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/cpuledger: $(CMD_OBJS) $(BUILD)/libcpuledger.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(LDLIBS) -lm -o $@

$(BUILD)/tests/%: tests/unit/%.c tests/unit/unit.h tests/unit/golden.h $(BUILD)/libcpuledger.a
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/unit $< $(BUILD)/libcpuledger.a $(LDLIBS) -lm -o $@

$(BUILD)/workloads/%: tests/workloads/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $< -lpthread -o $@

$(BUILD):
	$(Q)mkdir -p $@

tests: $(BUILD)/cpuledger $(UNIT_BINS) $(WORKLOAD_BINS)

test-unit: tests
	$(Q)tests/run.sh --unit

test-integration: tests
	$(Q)tests/run.sh --integration

check: tests
	$(Q)tests/run.sh

bench: $(BUILD)/cpuledger $(WORKLOAD_BINS)
	$(Q)BUILD=$(BUILD) bench/run.sh

format-check:
	$(Q)clang-format --dry-run --Werror $(CORE_SRCS) $(CMD_SRCS) $(HEADERS) $(BPF_SRCS)

install: $(BUILD)/cpuledger
	install -D -m 0755 $(BUILD)/cpuledger $(DESTDIR)$(PREFIX)/sbin/cpuledger

deps:
	$(Q)scripts/deps.sh

clean:
	rm -rf $(BUILD)
