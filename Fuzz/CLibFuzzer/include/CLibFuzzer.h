// libFuzzer's entry points, as declared by LLVM's FuzzerInterface.h (compiler-rt ships no header for them).
#ifndef C_LIBFUZZER_H
#define C_LIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

// Runs libFuzzer on `argc`/`argv` (its usual flags and corpus directories) with `callback` as the target.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
