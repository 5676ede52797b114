# libcore.mk - libcore's sources and headers for other build systems, the
# way libfdt's Makefile.libfdt is used: variables only, no rules. Paths are
# relative to this folder (libcore/). A firmware build adds include/ to its
# include path, compiles the .c files of LIBCORE_SRCS (or of the modules it
# needs; the _int.h files are internal headers) and, for the dt module,
# provides libfdt's header.
# A module's dependencies are the modules whose headers its files include.
# tests/embed/libcore-mk.sh checks these lists against Makemodule.am.

LIBCORE_MODULES = env err version crc cache poll flash flash_sim nvs settings zms settings_zms dt

LIBCORE_env_SRCS =
LIBCORE_env_HDRS = include/fdtcache/fc_env.h
LIBCORE_err_SRCS = err.c
LIBCORE_err_HDRS = include/fdtcache/fc_err.h
LIBCORE_version_SRCS = version.c
LIBCORE_version_HDRS = include/fdtcache/version.h
LIBCORE_crc_SRCS = crc.c
LIBCORE_crc_HDRS = include/fdtcache/crc.h
LIBCORE_cache_SRCS = cache.c
LIBCORE_cache_HDRS = include/fdtcache/cache.h
LIBCORE_poll_SRCS = poll.c
LIBCORE_poll_HDRS = include/fdtcache/poll.h
LIBCORE_flash_SRCS = flash.c flash_int.h
LIBCORE_flash_HDRS = include/fdtcache/flash.h
LIBCORE_flash_sim_SRCS = flash_sim.c
LIBCORE_flash_sim_HDRS = include/fdtcache/flash_sim.h
LIBCORE_nvs_SRCS = nvs_int.h nvs_ate.c nvs_ate_cache.c nvs_log.c nvs_index.c nvs_zephyr.c nvs.c nvs_walk.c
LIBCORE_nvs_HDRS = include/fdtcache/nvs.h
LIBCORE_settings_SRCS = settings.c
LIBCORE_settings_HDRS = include/fdtcache/settings.h
LIBCORE_zms_SRCS = zms_int.h zms.c zms_gc.c zms_log.c zms_index.c zms_zephyr.c zms_walk.c \
	zms_recover.c
LIBCORE_zms_HDRS = include/fdtcache/zms.h
LIBCORE_settings_zms_SRCS = settings_zms.c
LIBCORE_settings_zms_HDRS = include/fdtcache/settings_zms.h
LIBCORE_dt_SRCS = dt_int.h dt.c dt_walk.c dt_lookup.c
LIBCORE_dt_HDRS = include/fdtcache/dt.h

# Everything (the union of the lists above).
LIBCORE_SRCS = err.c version.c crc.c cache.c poll.c flash.c flash_int.h flash_sim.c \
	nvs_int.h nvs_ate.c nvs_ate_cache.c nvs_log.c nvs_index.c nvs_zephyr.c nvs.c nvs_walk.c settings.c \
	zms_int.h zms.c zms_gc.c zms_log.c zms_index.c zms_zephyr.c zms_walk.c zms_recover.c settings_zms.c \
	dt_int.h dt.c dt_walk.c dt_lookup.c
LIBCORE_HDRS = include/fdtcache/fc_env.h include/fdtcache/fc_err.h include/fdtcache/version.h \
	include/fdtcache/crc.h include/fdtcache/cache.h include/fdtcache/poll.h \
	include/fdtcache/flash.h include/fdtcache/flash_sim.h include/fdtcache/nvs.h \
	include/fdtcache/settings.h include/fdtcache/zms.h \
	include/fdtcache/settings_zms.h include/fdtcache/dt.h
