# roofline -- build, test and demo.
#
#   make            build/roofline, build/libroofline.so, build/libroofline.a
#   make check      install what is missing, build, run every test (also
#                   under AddressSanitizer + UndefinedBehaviorSanitizer)
#   make demo       install what is missing, build, run the headline analysis
#   make WERROR=1   warnings are errors (CI)
#   make SAN=1      sanitizer build in build/san
#
# Sources are found by directory, so a new module needs no edit here:
#   src/core/   pure core (no I/O, no globals, no clock)
#   src/io/     I/O modules around it (trace readers, measurement)
#   src/render/ renderers (SVG, terminal, HTML page)
#   cli/        the command, a thin client of include/roofline.h
#   tests/unit/ one C test program per file, tests/unit/test_*.c

CC      ?= cc
PYTHON  ?= python3
BUILD   ?= build
WARN    := -Wall -Wextra -Wshadow -Wconversion -Wdouble-promotion \
           -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla \
           -Wpointer-arith -Wcast-qual -Wundef
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT     ?= -O2 -g
CFLAGS  ?=
ifeq ($(WERROR),1)
WARN    += -Werror
endif
ifeq ($(SAN),1)
BUILD   := build/san
OPT     := -O1 -g -fno-omit-frame-pointer
SANFLAGS:= -fsanitize=address,undefined -fno-sanitize-recover=all
endif
ALLCFLAGS = $(CSTD) $(OPT) $(WARN) $(SANFLAGS) -fPIC -fvisibility=hidden \
            -Iinclude -Isrc $(CFLAGS)
# Libraries of the I/O modules (zlib: .json.gz traces, sqlite3: Nsight
# Systems exports, OpenBLAS: the matrix products of `roofline measure`).
LDLIBS  += -lz -lsqlite3 -lopenblas -lpthread -lm

CORE_SRC   := $(sort $(wildcard src/core/*.c))
IO_SRC     := $(sort $(wildcard src/io/*.c))
RENDER_SRC := $(sort $(wildcard src/render/*.c))
LIB_SRC    := $(CORE_SRC) $(IO_SRC) $(RENDER_SRC)
CLI_SRC    := $(sort $(filter-out cli/main.c,$(wildcard cli/*.c)))
TEST_SRC   := $(sort $(wildcard tests/unit/test_*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)

all: $(BUILD)/roofline $(BUILD)/libroofline.so $(BUILD)/libroofline.a

$(BUILD)/obj/%.o: %.c include/roofline.h $(wildcard src/*/*.h) $(wildcard src/*/*.inc) $(wildcard cli/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALLCFLAGS) -c $< -o $@

$(BUILD)/libroofline.a: $(LIB_OBJ)
	@rm -f $@
	@echo "  AR      $@"
	@ar rcs $@ $^

$(BUILD)/libroofline.so: $(LIB_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALLCFLAGS) -shared -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BUILD)/libroofline-cli.a: $(CLI_OBJ)
	@rm -f $@
	@echo "  AR      $@"
	@ar rcs $@ $^

$(BUILD)/roofline: $(BUILD)/obj/cli/main.o $(BUILD)/libroofline-cli.a $(BUILD)/libroofline.a
	@echo "  LD      $@"
	@$(CC) $(ALLCFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

# Each unit test links the CLI objects too, so golden tests can run the
# commands in-process.
$(BUILD)/tests/%: tests/unit/%.c tests/unit/harness.h $(BUILD)/libroofline-cli.a $(BUILD)/libroofline.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(ALLCFLAGS) -Itests/unit -Icli -o $@ $< $(BUILD)/libroofline-cli.a $(BUILD)/libroofline.a $(LDFLAGS) $(LDLIBS)

tests-bin: $(TEST_BIN)

# --- set-up ---------------------------------------------------------------
setup:
	@sh scripts/setup.sh

# --- generated tables -------------------------------------------------------
gen:
	$(PYTHON) tools/gen_tables.py

check-gen:
	$(PYTHON) tools/gen_tables.py --check

# --- tests ----------------------------------------------------------------
# test-c: C unit and golden tests; test-cli: the command as a subprocess;
# test-py: the Python binding (unittest).
test-c: all $(TEST_BIN)
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; $$t; done

test-cli: all
	$(PYTHON) tests/cli/run_cli_tests.py --roofline $(BUILD)/roofline

test-py: all
	@if [ -d tests/python ]; then PYTHONPATH=python ROOFLINE_LIB=$(BUILD)/libroofline.so \
	  $(PYTHON) -m unittest discover -s tests/python -p "test_*.py" -v; fi

test: test-c test-cli test-py

test-san:
	$(MAKE) SAN=1 test-c test-cli

check: setup
	$(MAKE) check-gen
	$(MAKE) test
	$(MAKE) test-san
	@echo "make check: all tests passed"

demo: setup
	$(MAKE) all
	@sh scripts/demo.sh $(BUILD)/roofline

clean:
	rm -rf build

.PHONY: all setup gen check-gen test-c test-cli test-py test test-san check demo clean tests-bin
.SECONDARY:
