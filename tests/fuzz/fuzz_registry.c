/* SPDX-License-Identifier: BSD-2-Clause */
#include "fuzz_targets.h"

const struct fuzz_target fuzz_targets[] = {
	{ "nvs_image", fuzz_nvs_image },
	{ "nvs_ops", fuzz_nvs_ops },
	{ "settings", fuzz_settings },
	{ "dtb", fuzz_dtb },
	{ "geometry", fuzz_geometry },
	{ "inspect", fuzz_inspect },
	{ "trace_parse", fuzz_trace_parse },
	{ "trace_import", fuzz_trace_import },
	{ "trace_generate", fuzz_trace_generate },
	{ "bench_defs", fuzz_bench_defs },
	{ "bench_csv", fuzz_bench_csv },
	{ "bench_plot", fuzz_bench_plot },
	{ NULL, NULL },
};
