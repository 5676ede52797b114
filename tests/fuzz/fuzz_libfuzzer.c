/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer entry point; FUZZ_TARGET selects the target (see `make fuzz`). */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return FUZZ_TARGET(data, size);
}
