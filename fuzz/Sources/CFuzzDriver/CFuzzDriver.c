// Declarations only (include/CFuzzDriver.h); libFuzzer's runtime, linked by
// -sanitize=fuzzer, defines LLVMFuzzerRunDriver.
#include "CFuzzDriver.h"
