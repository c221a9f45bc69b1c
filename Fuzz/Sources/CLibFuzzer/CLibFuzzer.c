// Intentionally empty: the target only exports CLibFuzzer.h; the symbol is in the toolchain's
// libclang_rt.fuzzer, which `-sanitize=fuzzer` links.
#include "CLibFuzzer.h"
