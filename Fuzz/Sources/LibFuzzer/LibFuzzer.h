// libFuzzer's documented driver entry (compiler-rt FuzzerInterface.h), linked by -sanitize=fuzzer.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
