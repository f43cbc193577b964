// The declaration in include/CLibFuzzer.h is all this target provides: the definition is
// libFuzzer's, linked by -sanitize=fuzzer.
