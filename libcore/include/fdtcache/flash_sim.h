/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flash_sim.h - a simulated flash device for tests and benchmarks.
 *
 * The simulator is a struct fc_flash like any other (flash.h), with NOR
 * programming rules, counters, a simulated clock, wear, bad units and power
 * loss. Engines (nvs, settings) never need this header.
 */
#ifndef FDTCACHE_FLASH_SIM_H
#define FDTCACHE_FLASH_SIM_H

#include "flash.h"
#include "poll.h"

/*
 * Simulator: a NOR/NAND-like device over caller memory, deterministic, with
 * NOR programming rules, counters, a simulated clock, wear, bad units and
 * power loss. All state lives in struct fc_flash_sim and the caller's arrays.
 *
 * Timing: an operation costs op_ns plus unit_ns for every unit-sized,
 * unit-aligned window of the device it touches (a 4-byte program on a
 * 256-byte page device costs one page). Reads advance the clock at once;
 * a program or erase makes the device busy until now + cost, and the next
 * operation first waits for ready (or the caller waits with
 * fc_flash_sim_wait() and a poll policy).
 */
struct fc_flash_sim_cost {
	uint32_t op_ns;   /* fixed cost of each call */
	uint32_t unit_ns; /* cost of each window of `unit` bytes touched */
	uint32_t unit;    /* window size in bytes (the bus or program width), >= 1 */
};

struct fc_flash_sim_timing {
	struct fc_flash_sim_cost read, prog, erase;
};

/* Named part: geometry without total size, timing and rated endurance. */
struct fc_flash_sim_preset {
	const char *name;
	uint32_t erase_size;
	uint32_t write_size;
	uint8_t erase_value;
	uint32_t endurance; /* rated erase cycles per unit (informative), 0 = unlimited */
	struct fc_flash_sim_timing timing;
};

/* Config flags */
#define FC_FLASH_SIM_AND 0x1u /* programming non-erased data ANDs it in instead of failing */

struct fc_flash_sim_config {
	struct fc_flash_geometry geo;
	struct fc_flash_sim_timing timing;
	uint32_t flags;      /* FC_FLASH_SIM_* */
	uint32_t wear_limit; /* erases per unit before FC_EWORN; 0 = never wears out */
};

/* Per-erase-unit state, in a caller array of geo.size / geo.erase_size entries. */
struct fc_flash_sim_unit {
	uint32_t erases; /* completed erase cycles (wear) */
	uint8_t bad;     /* FC_FLASH_SIM_BAD_* */
};

#define FC_FLASH_SIM_UNITS(size, erase_size) ((size) / (erase_size))

/* Bad-unit behaviours, combinable */
#define FC_FLASH_SIM_BAD_PROG 0x1u  /* programs touching the unit fail with FC_EIO */
#define FC_FLASH_SIM_BAD_ERASE 0x2u /* erases of the unit fail with FC_EIO */
#define FC_FLASH_SIM_BAD_READ 0x4u  /* reads flip bit 0 of every byte at a unit offset % 16 == 0 */
#define FC_FLASH_SIM_FLIP_STRIDE 16u

/*
 * What a power cut leaves of the interrupted operation (littlefs emubd v3's
 * behaviours, plus torn and bits). "Changing bits" are those the program or
 * erase would move; a program's write blocks are write_size bytes.
 */
enum fc_flash_sim_cut_mode {
	FC_FLASH_SIM_CUT_ATOMIC, /* nothing */
	FC_FLASH_SIM_CUT_TORN,   /* the first half (rounded down) of the write blocks, or of the erased bytes */
	FC_FLASH_SIM_CUT_BITS,   /* a seeded random subset of the changing bits */
	FC_FLASH_SIM_CUT_SOMEBITS, /* one seeded changing bit */
	FC_FLASH_SIM_CUT_MOSTBITS, /* every changing bit but one seeded bit */
	FC_FLASH_SIM_CUT_OOO,      /* a seeded subset (any) of the write blocks, each whole */
	/* TORN, and the changing bits of the next write block (its first
	 * FC_FLASH_SIM_META_MAX bytes) read back at random on every read until
	 * a program or erase covers them */
	FC_FLASH_SIM_CUT_METASTABLE,
};

#define FC_FLASH_SIM_CUT_MODES 7 /* modes, for sweeps over all of them */
#define FC_FLASH_SIM_META_MAX 32u

/*
 * Metastable bytes left by a METASTABLE cut: the cells keep their old value
 * in memory, and the bits of mask read back at random. The last
 * FC_FLASH_SIM_META_REGIONS cuts' regions are kept; an older one settles to
 * where its bits were going (programmed, or erased).
 */
#define FC_FLASH_SIM_META_REGIONS 4u

struct fc_flash_sim_meta {
	uint32_t off, len; /* len 0 = unused */
	uint8_t mask[FC_FLASH_SIM_META_MAX];
};

/*
 * Counters, over requests that reach the powered device (failed ones too).
 * ops counts programs plus erases: a run's ops is the number of cut points.
 */
struct fc_flash_sim_stats {
	uint32_t reads, progs, erases;
	uint64_t read_bytes, prog_bytes, erase_bytes;
	uint32_t ops;
	uint32_t cuts;     /* power cuts that happened */
	uint32_t max_wear; /* highest erase count of any unit (not reset) */
	uint64_t busy_ns;  /* simulated time spent reading, programming, erasing */
};

struct fc_flash_sim {
	struct fc_flash dev;
	struct fc_flash_sim_config cfg;
	uint8_t *mem;
	struct fc_flash_sim_unit *units;
	struct fc_flash_sim_stats stats;
	uint64_t now_ns;        /* simulated clock */
	uint64_t busy_until_ns; /* end of the running program or erase */
	bool powered;
	/* private: the cut machinery's state */
	enum fc_flash_sim_cut_mode cut_mode;
	uint32_t cut_countdown; /* prog/erase ops until the cut, 0 = not armed */
	uint32_t rng;           /* xorshift32 state of the seeded modes and metastable reads */
	const uint32_t *plan;   /* fc_flash_sim_cut_plan(): cuts armed at each power-on */
	uint32_t plan_len, plan_next;
	struct fc_flash_sim_meta meta[FC_FLASH_SIM_META_REGIONS]; /* METASTABLE cuts' bytes */
	uint32_t meta_next; /* region the next METASTABLE cut takes */
};

/*
 * fc_flash_sim_preset - the preset called name ("nrf52840", "stm32f4",
 * "spi-nor", "nand", "ram").
 *
 * returns: a static preset, or NULL for an unknown name.
 */
const struct fc_flash_sim_preset *fc_flash_sim_preset(const char *name);

/*
 * fc_flash_sim_preset_at - the i-th preset (for listings).
 *
 * returns: a static preset, or NULL past the last one.
 */
const struct fc_flash_sim_preset *fc_flash_sim_preset_at(unsigned int i);

/*
 * fc_flash_sim_config_init - a config for a device of size bytes of the
 * preset's part: its geometry and timing, no flags, no wear limit.
 *
 * returns:
 *	0, *cfg is set
 *	FC_EINVAL, a NULL argument or a size that is not a multiple of the
 *		erase size
 */
int fc_flash_sim_config_init(struct fc_flash_sim_config *cfg,
			     const struct fc_flash_sim_preset *preset, uint32_t size);

/*
 * fc_flash_sim_init - a powered simulator over mem (geo.size bytes, kept as
 * is: fill it with the erase value for a blank part) and units
 * (FC_FLASH_SIM_UNITS() entries, zeroed here). Clock, counters and faults
 * start at zero. mem and units are the simulator's until it is no longer
 * used.
 *
 * returns:
 *	0, sim->dev is ready
 *	FC_EINVAL, a bad geometry, a zero timing unit or a NULL argument
 */
int fc_flash_sim_init(struct fc_flash_sim *sim, const struct fc_flash_sim_config *cfg, void *mem,
		      struct fc_flash_sim_unit *units);

/*
 * fc_flash_sim_reset_stats - zero the counters; max_wear is recomputed from
 * the units.
 *
 * returns: nothing.
 */
void fc_flash_sim_reset_stats(struct fc_flash_sim *sim);

/*
 * fc_flash_sim_set_bad - set the FC_FLASH_SIM_BAD_* behaviours of the erase
 * unit with index unit (0 makes it good).
 *
 * returns:
 *	0, set
 *	FC_ERANGE, no such unit
 */
int fc_flash_sim_set_bad(struct fc_flash_sim *sim, uint32_t unit, uint32_t bad);

/*
 * fc_flash_sim_cut_after - arm a power cut: the n-th program or erase
 * operation from now (n >= 1) is interrupted as mode says and fails with
 * FC_EPOWER, and so does every later operation until fc_flash_sim_power_on().
 * seed drives the seeded modes. n == 0 disarms (and ends a plan).
 *
 * returns:
 *	0, armed (or disarmed)
 *	FC_EINVAL, an unknown mode
 */
int fc_flash_sim_cut_after(struct fc_flash_sim *sim, uint32_t n, enum fc_flash_sim_cut_mode mode,
			   uint32_t seed);

/*
 * fc_flash_sim_cut_plan - several cuts in one run: cuts[0] is armed now as
 * by fc_flash_sim_cut_after(), and each fc_flash_sim_power_on() arms the
 * next, counted from that power-on, until the n entries are used. cuts is
 * the caller's and is read while the plan runs.
 *
 * returns:
 *	0, the first cut is armed
 *	FC_EINVAL, an unknown mode, NULL cuts with n > 0, or a zero entry
 */
int fc_flash_sim_cut_plan(struct fc_flash_sim *sim, const uint32_t *cuts, uint32_t n,
			  enum fc_flash_sim_cut_mode mode, uint32_t seed);

/*
 * fc_flash_sim_cut_mode_name - the name of a cut mode ("atomic", "torn"...).
 *
 * returns: a static string, or NULL for an unknown mode.
 */
const char *fc_flash_sim_cut_mode_name(enum fc_flash_sim_cut_mode mode);

/*
 * fc_flash_sim_power_on - power the device on again; the interrupted
 * operation is gone (metastable bits stay). Arms the plan's next cut.
 *
 * returns: nothing.
 */
void fc_flash_sim_power_on(struct fc_flash_sim *sim);

/*
 * Cut schedules, as littlefs's test runner has them. A run is a workload
 * with cuts[0..n) armed by fc_flash_sim_cut_plan(): the first cut counts the
 * run's program/erase ops, each later one those after the power-on that
 * followed the previous cut. After each run the caller reports how many
 * ops its last segment did (after the last cut; the whole run when uncut):
 * those are the cut points of the next level.
 */
enum fc_flash_sim_schedule {
	FC_FLASH_SIM_SCHED_NONE,       /* the uncut run only */
	FC_FLASH_SIM_SCHED_LINEAR,     /* the uncut run, then one cut at each of its ops */
	FC_FLASH_SIM_SCHED_LOG,        /* the uncut run, then one cut at ops 1, 2, 4, 8... */
	/* every sequence of up to depth cuts: each op of the uncut run, then
	 * each op of the segment that follows that cut, and so on */
	FC_FLASH_SIM_SCHED_EXHAUSTIVE,
	FC_FLASH_SIM_SCHED_LIST,       /* one run with the caller's list of cuts */
};

#define FC_FLASH_SIM_SCHED_DEPTH_MAX 8u

struct fc_flash_sim_sched {
	enum fc_flash_sim_schedule kind;
	uint32_t depth;                              /* EXHAUSTIVE: most cuts a run */
	uint32_t cuts[FC_FLASH_SIM_SCHED_DEPTH_MAX]; /* the run to do, n of them */
	uint32_t n;
	/* private: fc_flash_sim_sched_next()'s walk */
	const uint32_t *list;
	uint32_t list_len;
	uint32_t bound[FC_FLASH_SIM_SCHED_DEPTH_MAX + 1]; /* cut points of each level */
	bool started;
};

/*
 * fc_flash_sim_sched_init - a schedule; depth is used by EXHAUSTIVE (1..
 * FC_FLASH_SIM_SCHED_DEPTH_MAX), list/list_len by LIST (as many cuts at
 * most, each >= 1; the list is copied).
 *
 * returns:
 *	0, ready for fc_flash_sim_sched_next()
 *	FC_EINVAL, NULL it, an unknown kind, a depth outside 1..
 *		FC_FLASH_SIM_SCHED_DEPTH_MAX (EXHAUSTIVE), or a bad list (LIST)
 */
int fc_flash_sim_sched_init(struct fc_flash_sim_sched *it, enum fc_flash_sim_schedule kind,
			    uint32_t depth, const uint32_t *list, uint32_t list_len);

/*
 * fc_flash_sim_sched_next - move to the next run; last_ops is what the
 * previous run's last segment did (ignored on the first call).
 *
 * returns:
 *	1, it->cuts / it->n are the next run (n == 0: the uncut run)
 *	0, the schedule is over
 */
int fc_flash_sim_sched_next(struct fc_flash_sim_sched *it, uint32_t last_ops);

/*
 * fc_flash_sim_advance - let ns of simulated time pass (the caller's own work).
 *
 * returns: nothing.
 */
void fc_flash_sim_advance(struct fc_flash_sim *sim, uint64_t ns);

/*
 * fc_flash_sim_elapsed - simulated time at which every issued operation is
 * done.
 *
 * returns: that time in ns.
 */
uint64_t fc_flash_sim_elapsed(const struct fc_flash_sim *sim);

/*
 * fc_flash_sim_clock - make clk the simulator's clock: now() reads it,
 * sleep() advances it. clk is valid while sim is.
 *
 * returns: nothing.
 */
void fc_flash_sim_clock(struct fc_flash_sim *sim, struct fc_clock *clk);

/*
 * fc_flash_sim_ready - poll condition (fc_poll_ready_fn) over a struct
 * fc_flash_sim.
 *
 * returns: 1 once the clock reached busy_until (reported as the ready
 * time), else 0.
 */
int fc_flash_sim_ready(void *sim, uint64_t *ready_at_ns);

/*
 * fc_flash_sim_wait - wait for the running program or erase with policy
 * cfg over the simulated clock; res (may be NULL) gets polls and overshoot.
 * A device that is not busy returns at once with no poll.
 *
 * returns:
 *	0, the device is ready
 *	FC_EINVAL or FC_ETIMEDOUT, as fc_poll_wait()
 */
int fc_flash_sim_wait(struct fc_flash_sim *sim, const struct fc_poll_config *cfg,
		      struct fc_poll_result *res);

#endif /* FDTCACHE_FLASH_SIM_H */
