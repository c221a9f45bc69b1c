// libFuzzer's driver entry point (compiler-rt, FuzzerDriver.cpp), declared for Swift.
//
// SwiftPM links every executable with `--defsym main=<Module>_main` (for testable executables),
// so libFuzzer's own `main` cannot be the program's; each fuzz target's `@main` calls this
// driver instead, which parses the usual libFuzzer flags and calls `UserCb` for each input.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
