#ifndef SPEECH_HARNESS_CLIBFUZZER_H
#define SPEECH_HARNESS_CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt), for a program that keeps its own main: given the program's
/// arguments and the function to call with each input. Defined only when linked with
/// -sanitize=fuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
