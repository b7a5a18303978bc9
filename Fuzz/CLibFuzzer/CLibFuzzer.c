// Header-only shim: libFuzzer itself comes from the toolchain's runtime, linked by `-sanitize=fuzzer`.
#include "CLibFuzzer.h"
