/* SPDX-License-Identifier: BSD-2-Clause */
/* nvs-calls.h - one call of each NVS engine entry point, for the size
 * programs that must link all of them. */
#ifndef BENCH_SIZE_NVS_CALLS_H
#define BENCH_SIZE_NVS_CALLS_H
#include "fdtcache/nvs.h"

static int nvs_calls(struct fc_nvs *fs, const struct fc_nvs_config *cfg, uint8_t *v, size_t len)
{
	int sum = fc_nvs_mount(fs, cfg);

	sum += fc_nvs_write(fs, 1, v, len);
	sum += fc_nvs_write_hint(fs, 2, v, len, FC_NVS_HINT_ABSENT);
	sum += fc_nvs_read(fs, 1, v, len);
	sum += fc_nvs_read_hist(fs, 1, v, len, 1);
	sum += fc_nvs_delete(fs, 2);
	sum += fc_nvs_calc_free_space(fs);
	sum += fc_nvs_sector_max_data_size(fs);
	sum += fc_nvs_sector_use_next(fs);
	return sum;
}

#endif /* BENCH_SIZE_NVS_CALLS_H */
