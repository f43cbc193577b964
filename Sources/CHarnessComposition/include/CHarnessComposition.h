#ifndef C_HARNESS_COMPOSITION_H
#define C_HARNESS_COMPOSITION_H

/// Runs the program's composition point, `speech_harness_composition`, which the
/// HarnessComposition module defines, if that module is linked into the program.
/// Returns 1 when it ran and 0 when the program has no composition point.
int speech_harness_compose(void);

#endif
