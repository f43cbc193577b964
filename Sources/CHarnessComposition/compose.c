#include "CHarnessComposition.h"

// A weak reference: the linker resolves it when HarnessComposition's object files are part of
// the program and leaves it null otherwise, so SpeechCore needs no dependency on the engines.
extern void speech_harness_composition(void) __attribute__((weak));

int speech_harness_compose(void) {
    if (speech_harness_composition == 0) return 0;
    speech_harness_composition();
    return 1;
}
