/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flash_bench - host cost of the flash devices.
 *
 * The RAM device's program and read against a plain memcpy of the same
 * bytes in the same run (4 B, 256 B, 4 KiB), then the simulator's cost per
 * operation. Lengths are read through a volatile so that neither side gets
 * a copy specialised for a constant size. Each figure is the best of 5 runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fdtcache/flash_sim.h"

#define DEV_SIZE (1u << 20)
#define BYTES_PER_RUN (128ull << 20) /* per measurement, at least OPS_MIN ops */
#define OPS_MIN 4000000ull
#define TRIES 5 /* the best of TRIES runs is kept: the least disturbed */

static uint8_t mem[DEV_SIZE];
static uint8_t buf[DEV_SIZE];
static struct fc_flash_sim_unit units[DEV_SIZE / 4096];
static volatile uint32_t sink;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t ops_for(uint32_t len)
{
	uint64_t ops = BYTES_PER_RUN / len;

	return ops < OPS_MIN ? OPS_MIN : ops;
}

enum op { MEMCPY_IN, MEMCPY_OUT, DEV_PROG, DEV_READ };

/* ns per operation of len bytes at walking offsets. */
static double run_once(enum op op, const struct fc_flash *dev, uint32_t len)
{
	uint64_t i, ops = ops_for(len);
	uint32_t off = 0;
	double t0 = now_s();
	int rc = 0;

	for (i = 0; i < ops; i++) {
		switch (op) {
		case MEMCPY_IN:
			memcpy(mem + off, buf + off, len);
			break;
		case MEMCPY_OUT:
			memcpy(buf + off, mem + off, len);
			break;
		case DEV_PROG:
			rc |= fc_flash_prog(dev, off, buf + off, len);
			break;
		case DEV_READ:
			rc |= fc_flash_read(dev, off, buf + off, len);
			break;
		}
		off += len;
		if (off >= DEV_SIZE)
			off = 0;
	}
	if (rc) {
		fprintf(stderr, "flash_bench: device error %d\n", rc);
		exit(1);
	}
	sink += mem[off] + buf[off];
	return (now_s() - t0) * 1e9 / (double)ops;
}

/*
 * Best time of base and of op, run alternately so that both see the same
 * machine load.
 */
static void run_pair(enum op base, enum op op, const struct fc_flash *dev, uint32_t len,
		     double *base_ns, double *op_ns)
{
	double t;
	int i;

	*base_ns = *op_ns = 1e300;
	for (i = 0; i < TRIES; i++) {
		t = run_once(base, NULL, len);
		*base_ns = t < *base_ns ? t : *base_ns;
		t = run_once(op, dev, len);
		*op_ns = t < *op_ns ? t : *op_ns;
	}
}

static void print_header(void)
{
	printf("%8s %10s %10s %7s %10s %10s %7s\n", "bytes", "memcpy", "prog", "ratio", "memcpy",
	       "read", "ratio");
}

static void print_row(uint32_t len, double cin, double prog, double cout, double rd)
{
	printf("%8u %10.2f %10.2f %6.2fx %10.2f %10.2f %6.2fx\n", len, cin, prog, prog / cin, cout,
	       rd, rd / cout);
}

static void ram_table(void)
{
	static const uint32_t sizes[] = { 4, 256, 4096 };
	const struct fc_flash_geometry geo = { DEV_SIZE, 4096, 4, 0xff };
	volatile uint32_t vlen;
	struct fc_ram_flash ram;
	unsigned int i;

	fc_ram_flash_init(&ram, &geo, mem);
	printf("RAM device vs memcpy (ns per operation; ratio = device / memcpy)\n");
	print_header();
	for (i = 0; i < FC_ARRAY_SIZE(sizes); i++) {
		double cin, prog, cout, rd;

		vlen = sizes[i];
		run_pair(MEMCPY_IN, DEV_PROG, &ram.dev, vlen, &cin, &prog);
		run_pair(MEMCPY_OUT, DEV_READ, &ram.dev, vlen, &cout, &rd);
		print_row(sizes[i], cin, prog, cout, rd);
	}
}

/* ns per program of len bytes on the simulator, erasing (untimed) before and when full. */
static double sim_prog(struct fc_flash_sim *sim, uint32_t len)
{
	uint64_t i, ops = ops_for(len) / 4;
	uint32_t off = 0;
	double t = 0, t0;
	int rc = fc_flash_erase(&sim->dev, 0, DEV_SIZE);

	t0 = now_s();

	for (i = 0; i < ops; i++) {
		rc |= fc_flash_prog(&sim->dev, off, buf + off, len);
		off += len;
		if (off >= DEV_SIZE) {
			t += now_s() - t0;
			rc |= fc_flash_erase(&sim->dev, 0, DEV_SIZE);
			off = 0;
			t0 = now_s();
		}
	}
	t += now_s() - t0;
	if (rc) {
		fprintf(stderr, "flash_bench: simulator error %d\n", rc);
		exit(1);
	}
	return t * 1e9 / (double)ops;
}

static void sim_table(void)
{
	static const uint32_t sizes[] = { 4, 256, 4096 };
	struct fc_flash_sim_config cfg;
	struct fc_flash_sim sim;
	volatile uint32_t vlen;
	double t0, erase;
	unsigned int i, n = 2000;
	int t;

	fc_flash_sim_config_init(&cfg, fc_flash_sim_preset("nrf52840"), DEV_SIZE);
	memset(mem, 0xff, sizeof(mem));
	memset(buf, 0x5a, sizeof(buf));
	fc_flash_sim_init(&sim, &cfg, mem, units);
	printf("\nSimulator (nrf52840 preset, NOR checks, counters, timing) vs memcpy, ns per operation\n");
	print_header();
	for (i = 0; i < FC_ARRAY_SIZE(sizes); i++) {
		double cin, prog, cout, rd;

		vlen = sizes[i];
		cin = prog = 1e300;
		for (t = 0; t < TRIES; t++) {
			cin = FC_MIN(cin, run_once(MEMCPY_IN, NULL, vlen));
			prog = FC_MIN(prog, sim_prog(&sim, vlen));
		}
		run_pair(MEMCPY_OUT, DEV_READ, &sim.dev, vlen, &cout, &rd);
		print_row(sizes[i], cin, prog, cout, rd);
	}
	t0 = now_s();
	for (i = 0; i < n; i++)
		fc_flash_erase(&sim.dev, (i % (DEV_SIZE / 4096)) * 4096, 4096);
	erase = (now_s() - t0) * 1e9 / n;
	printf("erase of a 4 KiB unit: %.1f ns\n", erase);
}

int main(void)
{
	memset(buf, 0x5a, sizeof(buf));
	ram_table();
	sim_table();
	return 0;
}
