/*
 * measure.c -- `roofline measure`: the empirical roofline of this CPU.
 *
 * Exports rl_clock_monotonic, rl_clock_tick, rl_bench_run, rl_cpu_probe and
 * rl_measure. The pure analysis (plateaus, levels, roofs) is in
 * src/core/measure_model.c, the kernels in measure_kernels.c.
 *
 * Method, after STREAM (McCalpin, stream.c: checktick, discard the first
 * run, best of N, check the results) and zstd's benchfn/timefn (wait for a
 * fresh tick, grow the repetitions until a sample is long enough):
 *   1. the clock's granularity (rl_clock_tick) and the core clock (a chain
 *      of dependent integer adds, one per cycle);
 *   2. peak FLOP/s: FMA kernels on 1 thread and on all, pinned one per CPU;
 *   3. bandwidth: read/copy/triad over working sets from L1/4 to 8 x the
 *      last-level cache (total over the threads; each thread owns a slice
 *      of one arena, touched once, that every kernel carves its arrays
 *      from: measure_bandwidth); at working
 *      sets past the LLC, copy and triad also run with non-temporal
 *      stores and keep the faster (past the LLC, not twice it: a virtual
 *      machine may report its host's whole L3, 532 MB on one here);
 *   4. OpenBLAS sgemm/dgemm (n = 16..4096, all threads; the library
 *      loaded at run time, measure_blas.c, and checked for before anything
 *      is timed) and an FP32 elementwise add of growing size, placed on the
 *      measured roofline by rl_measure_analyze.
 * Every figure is the best sample (as STREAM and likwid-bench report); the
 * samples' min/median/max are kept, and their spread says how noisy the
 * machine was. A sample during which the scheduler took a measuring
 * thread's CPU (its CPU time short of the wall time) or whose threads'
 * stamps diverge is taken again (time_on_pool), so on a shared machine one
 * descheduled thread does not spoil every sample.
 *
 * Threads: a pool of pthreads pinned with pthread_setaffinity_np to the
 * CPUs this process may use (sched_getaffinity); the calling thread is
 * worker 0, pinned while measuring and unpinned again before OpenBLAS
 * runs, so OpenBLAS's own threads are unaffected. The bandwidth arrays are
 * carved from one arena, touched once and on transparent huge pages past
 * 4 MiB (arena_alloc).
 */
#define _GNU_SOURCE
#include "measure_kernels.h"
#include "core/internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define MAX_THREADS 256

/* ---- clock ---------------------------------------------------------------- */
double rl_clock_monotonic(void *user) {
  (void)user;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double rl_clock_tick(rl_clock_fn clock, void *user) {
  if (!clock) clock = rl_clock_monotonic;
  double best = HUGE_VAL, prev = clock(user);
  int changes = 0;
  for (long spins = 0; changes < 20 && spins < 10000000L; spins++) {
    double t = clock(user);
    if (t > prev) {
      if (t - prev < best) best = t - prev;
      prev = t;
      changes++;
    }
  }
  return changes ? best : 0;
}

/* Wait for the clock to change (zstd's timefn: start on a fresh tick). */
static double fresh_tick(rl_clock_fn clock, void *user) {
  double t0 = clock(user), t = t0;
  for (long i = 0; i < 1000000L && t == t0; i++) t = clock(user);
  return t;
}

rl_status rl_bench_run(const rl_bench_spec *spec, rl_bench_result *out,
                       rl_error *err) {
  if (!spec || !spec->kernel || !out)
    return rli_fail(err, RL_EINVAL, "no kernel to time");
  rl_clock_fn clock = spec->clock ? spec->clock : rl_clock_monotonic;
  void *cu = spec->clock_user;
  double min_time = spec->min_time_s > 0 ? spec->min_time_s : 1e-3;
  int32_t repeats = spec->repeats > 0 ? spec->repeats : 5;
  int32_t warmup = spec->warmup == 0 ? 1 : spec->warmup < 0 ? 0 : spec->warmup;
  int64_t max_reps = spec->max_reps > 0 ? spec->max_reps : (int64_t)1 << 40;
  if (!isfinite(min_time) || min_time > 1e3)
    return rli_fail(err, RL_EINVAL, "min_time_s must be in (0, 1000] s");
  if (repeats > RLI_SAMPLER_MAX)
    return rli_fail(err, RL_EINVAL, "repeats must be at most %d", RLI_SAMPLER_MAX);
  memset(out, 0, sizeof *out);
  double tick = rl_clock_tick(clock, cu);
  if (!(tick > 0)) return rli_fail(err, RL_EINVAL, "the clock does not advance");
  out->tick_s = tick;
  if (min_time < 200 * tick) min_time = 200 * tick;
  /* calibrate (grow reps until one sample lasts min_time; that sample is
   * the first warm-up), warm up, time `repeats` samples: the sampler's
   * rules (measure_sample.c), every sample clean (no threads to watch) */
  rli_sampler sm;
  rli_sampler_init(&sm, min_time, 2 * tick, repeats, repeats);
  sm.max_reps = max_reps;
  int warmed = 0;
  for (;;) {
    if (sm.calibrated && !warmed) {
      for (int32_t w = 1; w < warmup; w++)
        if (spec->kernel(spec->arg, sm.reps))
          return rli_fail(err, RL_EINVAL, "the kernel's result check failed");
      warmed = 1;
    }
    double t0 = fresh_tick(clock, cu);
    if (spec->kernel(spec->arg, sm.reps))
      return rli_fail(err, RL_EINVAL, "the kernel's result check failed");
    double dt = clock(cu) - t0;
    if (dt < 0) dt = 0;
    if (!rli_sampler_add(&sm, dt, 1)) break;
  }
  out->reps = sm.reps;
  return rli_sampler_result(&sm, &out->per_rep, err);
}

/* ---- CPU probe -------------------------------------------------------------- */
static int count_cpu_list(const char *s) {
  int n = 0;
  while (*s) {
    char *e;
    long a = strtol(s, &e, 10);
    if (e == s) break;
    long b = a;
    if (*e == '-') {
      const char *f = e + 1;
      b = strtol(f, &e, 10);
    }
    if (b >= a) n += (int)(b - a + 1);
    s = e;
    if (*s == ',') s++;
    else break;
  }
  return n;
}

static int read_small(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, cap - 1, f);
  fclose(f);
  buf[n] = 0;
  while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = 0;
  return n > 0;
}

/* Caches from CPUID's deterministic cache parameters, where sysfs has none
 * (a guest without /sys/devices/system/cpu/cpu0/cache): Intel's leaf 4
 * (Intel 64 and IA-32 Architectures Software Developer's Manual, vol. 2A,
 * CPUID, "Deterministic Cache Parameters Leaf") and AMD's leaf 0x8000001D
 * (AMD64 Architecture Programmer's Manual, vol. 3, appendix E.4.15; present
 * when CPUID 0x80000001 ECX bit 22, TopologyExtensions, is set), the same
 * layout: EAX[4:0] type (1 data, 3 unified), EAX[7:5] level, EAX[25:14]
 * the logical processors sharing it minus 1; size = (EBX[31:22] + 1) ways
 * x (EBX[21:12] + 1) partitions x (EBX[11:0] + 1) line bytes x (ECX + 1)
 * sets. The legacy leaf 0x80000006 (what glibc's sysconf falls back to on
 * AMD) has no sharing field, and a hypervisor may pass the host's whole L3
 * through it (508 MiB seen in a 2-vCPU guest), so it comes last. Returns
 * the levels found. */
static int cpuid_caches(rl_cpu_info *c) {
  int found = 0;
#if defined(__x86_64__) || defined(__i386__)
  unsigned a, b, cc, d, leaf = 0;
  if (strcmp(c->vendor, "GenuineIntel") == 0) {
    if (__get_cpuid(0, &a, &b, &cc, &d) && a >= 4) leaf = 4;
  } else if (strcmp(c->vendor, "AuthenticAMD") == 0 || strcmp(c->vendor, "HygonGenuine") == 0) {
    if (__get_cpuid(0x80000000, &a, &b, &cc, &d) && a >= 0x8000001D &&
        __get_cpuid(0x80000001, &a, &b, &cc, &d) && (cc >> 22 & 1))
      leaf = 0x8000001D;
  }
  for (unsigned i = 0; leaf && i < 16; i++) {
    __cpuid_count(leaf, i, a, b, cc, d);
    unsigned type = a & 31, level = a >> 5 & 7;
    if (type == 0) break;
    if ((type != 1 && type != 3) || level < 1 || level > 3) continue;
    double size = (double)((b >> 22) + 1) * (double)((b >> 12 & 0x3ff) + 1) * (double)((b & 0xfff) + 1) *
                  ((double)cc + 1);
    c->cache[level - 1] = size;
    c->cache_shared[level - 1] = (int32_t)((a >> 14 & 0xfff) + 1);
    found++;
  }
#else
  (void)c;
#endif
  return found;
}

static void probe_caches(rl_cpu_info *c, int cpu0) {
  for (int i = 0; i < 8; i++) {
    char path[128], v[256];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu0, i);
    if (!read_small(path, v, sizeof v)) break;
    int level = atoi(v);
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu0, i);
    if (!read_small(path, v, sizeof v) || strcmp(v, "Instruction") == 0) continue;
    if (level < 1 || level > 3) continue;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu0, i);
    if (!read_small(path, v, sizeof v)) continue;
    char *e;
    double size = strtod(v, &e);
    if (*e == 'K') size *= 1024;
    else if (*e == 'M') size *= 1024 * 1024;
    else if (*e == 'G') size *= 1024.0 * 1024 * 1024;
    c->cache[level - 1] = size;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu0, i);
    c->cache_shared[level - 1] = read_small(path, v, sizeof v) ? count_cpu_list(v) : 1;
  }
  if (c->cache[0] <= 0 && c->cache[1] <= 0 && c->cache[2] <= 0) cpuid_caches(c);
#ifdef _SC_LEVEL1_DCACHE_SIZE
  if (c->cache[0] <= 0) { long s = sysconf(_SC_LEVEL1_DCACHE_SIZE); if (s > 0) { c->cache[0] = (double)s; c->cache_shared[0] = 1; } }
  if (c->cache[1] <= 0) { long s = sysconf(_SC_LEVEL2_CACHE_SIZE); if (s > 0) { c->cache[1] = (double)s; c->cache_shared[1] = 1; } }
  if (c->cache[2] <= 0) { long s = sysconf(_SC_LEVEL3_CACHE_SIZE); if (s > 0) { c->cache[2] = (double)s; c->cache_shared[2] = c->cpus; } }
#endif
  for (int k = 0; k < 3; k++)
    if (c->cache_shared[k] < 1) c->cache_shared[k] = 1;
}

static double nominal_hz(const char *brand) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  double mhz = 0;
  if (f) {
    char line[512];
    while (fgets(line, sizeof line, f))
      if (RLI_STARTS(line, "cpu MHz")) {
        const char *p = strchr(line, ':');
        if (p) mhz = strtod(p + 1, NULL);
        break;
      }
    fclose(f);
  }
  if (mhz > 0) return mhz * 1e6;
  char v[64];
  if (read_small("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", v, sizeof v))
    return strtod(v, NULL) * 1e3;
  const char *at = strstr(brand, "@ ");
  if (at) {
    double g = strtod(at + 2, NULL);
    if (g > 0) return g * 1e9;
  }
  return 0;
}

/* FLOP per cycle and core: FMA units x lanes x 2 (+ separate FP adders). */
static void flop_table(rl_cpu_info *c, int isa, int bf16) {
  double fma_units = 2, bits = 256, add_units = 0, bf16_factor = 2;
  int amd = strcmp(c->vendor, "AuthenticAMD") == 0;
  if (amd && c->family == 0x17) { /* Zen 1: 2x128 FMA, Zen 2: 2x256; 2 FADD */
    bits = c->model_id < 0x30 ? 128 : 256;
    add_units = 2;
  } else if (amd && c->family == 0x19) { /* Zen 3, Zen 4: 2x256 FMA + 2x256 FADD */
    bits = 256;
    add_units = 2;
    bf16_factor = 4; /* Zen 4: vdpbf16ps at 2 zmm per cycle (measured) */
  } else if (amd && c->family >= 0x1a) { /* Zen 5: 2x512 FMA + 2x512 FADD */
    bits = isa == RLI_ISA_AVX512 ? 512 : 256;
    add_units = 2;
  } else if (isa == RLI_ISA_AVX512) {
    bits = 512; /* Intel server cores: two 512-bit FMA ports */
  } else if (isa == RLI_ISA_AVX2) {
    bits = 256;
  } else { /* plain C, SSE2: one 128-bit mul and one add per cycle */
    fma_units = 1;
    bits = 128;
  }
  if (isa == RLI_ISA_AVX2 && bits > 256) bits = 256;
  double lanes64 = bits / 64, lanes32 = bits / 32;
  c->flop_per_cycle[RL_PK_FP64_FMA] = fma_units * lanes64 * 2;
  c->flop_per_cycle[RL_PK_FP32_FMA] = fma_units * lanes32 * 2;
  c->flop_per_cycle[RL_PK_BF16_DOT] = bf16 ? bf16_factor * c->flop_per_cycle[RL_PK_FP32_FMA] : 0;
  c->flop_per_cycle[RL_PK_FP64_FMA_ADD] = c->flop_per_cycle[RL_PK_FP64_FMA] + add_units * lanes64;
  c->flop_per_cycle[RL_PK_FP32_FMA_ADD] = c->flop_per_cycle[RL_PK_FP32_FMA] + add_units * lanes32;
}

static int chain_kernel(void *arg, int64_t reps) {
  uint64_t *sink = arg;
  *sink += rli_add_chain((uint64_t)reps * 1000u); /* asm volatile: kept */
  return 0;
}

rl_status rl_cpu_probe(rl_cpu_info *c, rl_clock_fn clock, void *clock_user,
                       rl_error *err) {
  if (!c) return rli_fail(err, RL_EINVAL, "no output");
  memset(c, 0, sizeof *c);
  cpu_set_t set;
  CPU_ZERO(&set);
  int cpu0 = 0;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    c->cpus = CPU_COUNT(&set);
    for (size_t i = 0; i < CPU_SETSIZE; i++)
      if (CPU_ISSET(i, &set)) { cpu0 = (int)i; break; }
  }
  if (c->cpus < 1) c->cpus = (int32_t)sysconf(_SC_NPROCESSORS_ONLN);
  if (c->cpus < 1) c->cpus = 1;
  int isa = rli_isa(), bf16 = rli_has_bf16();
#if defined(__x86_64__) || defined(__i386__)
  unsigned a, b, cc, d;
  if (__get_cpuid(0, &a, &b, &cc, &d)) {
    memcpy(c->vendor, &b, 4);
    memcpy(c->vendor + 4, &d, 4);
    memcpy(c->vendor + 8, &cc, 4);
    c->vendor[12] = 0;
  }
  if (__get_cpuid(1, &a, &b, &cc, &d)) {
    unsigned fam = (a >> 8) & 0xf, mod = (a >> 4) & 0xf;
    if (fam == 0xf) fam += (a >> 20) & 0xff;
    if (fam == 0x6 || fam >= 0xf) mod |= ((a >> 16) & 0xf) << 4;
    c->family = (int32_t)fam;
    c->model_id = (int32_t)mod;
  }
  unsigned brand[12];
  memset(brand, 0, sizeof brand);
  if (__get_cpuid(0x80000000, &a, &b, &cc, &d) && a >= 0x80000004) {
    for (unsigned i = 0; i < 3; i++)
      __get_cpuid(0x80000002 + i, &brand[4 * i], &brand[4 * i + 1], &brand[4 * i + 2], &brand[4 * i + 3]);
    char tmp[49];
    memcpy(tmp, brand, 48);
    tmp[48] = 0;
    const char *p = tmp;
    while (*p == ' ') p++;
    rli_strlcpy(c->model, p, sizeof c->model);
    size_t n = strlen(c->model);
    while (n && c->model[n - 1] == ' ') c->model[--n] = 0;
  }
  __builtin_cpu_init();
  struct { const char *name; int on; } ext[] = {
      {"sse2", __builtin_cpu_supports("sse2")},
      {"sse4.2", __builtin_cpu_supports("sse4.2")},
      {"avx", __builtin_cpu_supports("avx")},
      {"avx2", __builtin_cpu_supports("avx2")},
      {"fma", __builtin_cpu_supports("fma")},
      {"avx512f", __builtin_cpu_supports("avx512f")},
      {"avx512dq", __builtin_cpu_supports("avx512dq")},
      {"avx512bw", __builtin_cpu_supports("avx512bw")},
      {"avx512vl", __builtin_cpu_supports("avx512vl")},
      {"avx512ifma", __builtin_cpu_supports("avx512ifma")},
      {"avx512vbmi", __builtin_cpu_supports("avx512vbmi")},
      {"avx512vnni", __builtin_cpu_supports("avx512vnni")},
      {"avx512bf16", __builtin_cpu_supports("avx512bf16")},
#if !defined(__clang__) || __clang_major__ >= 16 /* clang 14 does not know the name */
      {"avx512fp16", __builtin_cpu_supports("avx512fp16")},
#endif
  };
  for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
    if (ext[i].on) {
      size_t n = strlen(c->simd);
      snprintf(c->simd + n, sizeof c->simd - n, "%s%s", n ? " " : "", ext[i].name);
    }
  if (strcmp(c->vendor, "AuthenticAMD") == 0) {
    const char *u = "";
    if (c->family == 0x17) u = c->model_id < 0x30 ? "Zen/Zen+" : "Zen 2";
    else if (c->family == 0x19) u = isa == RLI_ISA_AVX512 ? "Zen 4" : "Zen 3";
    else if (c->family == 0x1a) u = "Zen 5";
    rli_strlcpy(c->uarch, u, sizeof c->uarch);
  }
#endif
  if (!c->model[0]) rli_strlcpy(c->model, "unknown CPU", sizeof c->model);
  rli_strlcpy(c->isa, rli_isa_name(isa), sizeof c->isa);
  probe_caches(c, cpu0);
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && psz > 0) c->mem_bytes = (double)pages * (double)psz;
  c->nominal_hz = nominal_hz(c->model);
  flop_table(c, isa, bf16);
  /* the clock: 32 dependent adds per loop, 1000 loops per repetition */
  uint64_t sink = 0;
  rl_bench_spec bs;
  memset(&bs, 0, sizeof bs);
  bs.kernel = chain_kernel;
  bs.arg = &sink;
  bs.clock = clock;
  bs.clock_user = clock_user;
  bs.min_time_s = 3e-4;
  bs.repeats = 21;
  rl_bench_result br;
  rl_status st = rl_bench_run(&bs, &br, err);
  if (st) return st;
  c->measured_hz = br.per_rep.min > 0 ? 32000.0 / br.per_rep.min : 0;
  return RL_OK;
}

/* ---- thread pool ------------------------------------------------------------ */
/* The calling thread is worker 0, pinned to the first CPU while measuring;
 * workers 1..n-1 are pinned to the next CPUs. A job is posted by bumping a
 * generation counter. A worker waiting for the next job spins (pause) for
 * SPIN_S, long enough to span the gap between two samples, and then sleeps
 * on a futex, so an idle pool costs nothing and, when there are as many
 * threads as cores, a waiting thread does not take a core from a neighbour
 * (or from one of our own threads) for a whole time slice.
 *
 * Timed jobs start at a barrier and every thread stamps its own start and
 * end (CLOCK_MONOTONIC, one clock for all CPUs): the sample is the last end
 * minus the first start, so a thread woken late does not add its wake-up to
 * the sample and a thread that ran alone for a while cannot make it look
 * faster. The per-thread stamps also tell a disturbed sample (one thread
 * descheduled: its start late or its duration longer than the others'),
 * which pool_bench discards and takes again. */
#define SPIN_S 2e-4

typedef int (*job_fn)(void *arg, int tid, int64_t reps);

typedef struct pool {
  int n; /* threads including the caller */
  pthread_t th[MAX_THREADS];
  atomic_uint gen; /* futex word: bumped once per job */
  atomic_int quit;
  atomic_int pending; /* workers still running the job */
  atomic_int arrived; /* at the start barrier */
  int nthreads;       /* threads taking part in the job */
  int timed;          /* stamp t0/t1 around the job */
  job_fn job;
  void *arg;
  int64_t reps;
  atomic_int fail[MAX_THREADS];
  double t0[MAX_THREADS], t1[MAX_THREADS];
  double lost[MAX_THREADS]; /* wall time minus CPU time over the job, s */
} pool;

typedef struct worker_arg {
  pool *p;
  int tid;
} worker_arg;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static void futex_wait(atomic_uint *w, unsigned v) {
#ifdef SYS_futex
  syscall(SYS_futex, (unsigned *)(uintptr_t)w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
#else
  (void)w;
  (void)v;
  sched_yield();
#endif
}

static void futex_wake_all(atomic_uint *w) {
#ifdef SYS_futex
  syscall(SYS_futex, (unsigned *)(uintptr_t)w, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
  (void)w;
#endif
}

/* Spin until *w != v (for SPIN_S), then sleep on the futex. */
static void wait_change(atomic_uint *w, unsigned v) {
  double t_end = rl_clock_monotonic(NULL) + SPIN_S;
  for (unsigned i = 1;; i++) {
    if (atomic_load(w) != v) return;
    cpu_relax();
    if ((i & 255) == 0 && rl_clock_monotonic(NULL) > t_end) break;
  }
  while (atomic_load(w) == v) futex_wait(w, v);
}

/* Spin until *c reaches `target` (down: falls to it); past SPIN_S, yield
 * the CPU between looks (a thread we wait for may need this core). */
static void wait_count(atomic_int *c, int target, int down) {
  double t_end = rl_clock_monotonic(NULL) + SPIN_S;
  int yield = 0;
  for (unsigned i = 1;; i++) {
    int v = atomic_load(c);
    if (down ? v <= target : v >= target) return;
    if (yield) {
      sched_yield();
    } else {
      cpu_relax();
      if ((i & 255) == 0 && rl_clock_monotonic(NULL) > t_end) yield = 1;
    }
  }
}

/* CPU time of the calling thread, s; 0 when unknown. */
static double thread_cpu_s(void) {
#ifdef CLOCK_THREAD_CPUTIME_ID
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
  return 0;
}

/* One thread's share of the current job: barrier, stamp, run, stamp. The
 * thread's CPU time over the same interval says how much of it the
 * scheduler gave to other tasks. */
static int pool_part(pool *p, int tid) {
  double c0 = 0;
  if (p->timed) {
    atomic_fetch_add(&p->arrived, 1);
    wait_count(&p->arrived, p->nthreads, 0);
    p->t0[tid] = rl_clock_monotonic(NULL);
    c0 = thread_cpu_s();
  }
  int f = p->job(p->arg, tid, p->reps);
  if (p->timed) {
    double c1 = thread_cpu_s();
    p->t1[tid] = rl_clock_monotonic(NULL);
    p->lost[tid] = c0 > 0 && c1 > 0 ? (p->t1[tid] - p->t0[tid]) - (c1 - c0) : 0;
  }
  return f;
}

static void *worker(void *v) {
  pool *p = ((worker_arg *)v)->p;
  int tid = ((worker_arg *)v)->tid;
  free(v);
  unsigned seen = 0;
  for (;;) {
    wait_change(&p->gen, seen);
    seen = atomic_load(&p->gen);
    if (atomic_load(&p->quit)) break;
    if (tid >= p->nthreads) continue;
    atomic_store(&p->fail[tid], pool_part(p, tid));
    atomic_fetch_sub(&p->pending, 1);
  }
  return NULL;
}

static void pool_stop(pool *p) {
  atomic_store(&p->quit, 1);
  atomic_fetch_add(&p->gen, 1);
  futex_wake_all(&p->gen);
  for (int i = 1; i < p->n; i++) pthread_join(p->th[i], NULL);
  p->n = 0;
}

/* Start workers 1..n-1, worker i pinned to cpus[i] (unpinned if refused). */
static rl_status pool_start(pool *p, int n, const int *cpus, rl_error *err) {
  memset(p, 0, sizeof *p);
  p->n = 1;
  for (int i = 1; i < n; i++) {
    worker_arg *wa = malloc(sizeof *wa);
    int rc = ENOMEM;
    if (wa) {
      wa->p = p;
      wa->tid = i;
      pthread_attr_t attr;
      pthread_attr_init(&attr);
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET((size_t)cpus[i], &set);
      pthread_attr_setaffinity_np(&attr, sizeof set, &set);
      rc = pthread_create(&p->th[i], &attr, worker, wa);
      pthread_attr_destroy(&attr);
      if (rc) rc = pthread_create(&p->th[i], NULL, worker, wa);
      if (rc) free(wa);
    }
    if (rc) {
      pool_stop(p);
      return rli_fail(err, RL_ENOMEM, "cannot start measuring thread %d: %s", i + 1, strerror(rc));
    }
    p->n = i + 1;
  }
  return RL_OK;
}

/* Run job on threads 0..nthreads-1 (the caller is thread 0); timed: each
 * stamps p->t0/t1 after a common start barrier. Returns nonzero when any
 * thread's check failed. */
static int pool_run_timed(pool *p, int nthreads, job_fn job, void *arg, int64_t reps,
                          int timed) {
  if (nthreads > p->n) nthreads = p->n;
  if (nthreads < 1) nthreads = 1;
  p->job = job;
  p->arg = arg;
  p->reps = reps;
  p->nthreads = nthreads;
  p->timed = timed;
  atomic_store(&p->arrived, 0);
  if (nthreads == 1) return pool_part(p, 0);
  atomic_store(&p->pending, nthreads - 1);
  atomic_fetch_add(&p->gen, 1);
  futex_wake_all(&p->gen);
  int fail = pool_part(p, 0);
  wait_count(&p->pending, 0, 1);
  for (int i = 1; i < nthreads; i++) fail |= atomic_load(&p->fail[i]);
  return fail;
}

static int pool_run(pool *p, int nthreads, job_fn job, void *arg, int64_t reps) {
  return pool_run_timed(p, nthreads, job, arg, reps, 0);
}

/* ---- jobs ----------------------------------------------------------------- */
/* One thread's arrays for the kernel being timed (a, b, c; NULL where the
 * kernel has fewer), carved from the arena (carve). */
typedef struct tbuf {
  double *a, *b, *c;
  size_t cap; /* doubles per array */
} tbuf;

/* Every bandwidth array of the run lives in one region, the arena,
 * allocated and first touched once and reused by every kernel, working set
 * and thread count; each kernel carves its arrays from it (carve) and sets
 * the values it reads (fill_job). Allocating three arrays of the largest
 * working set for each thread count, as before, touched 6 GiB for a
 * 1 GiB sweep (--quick) and 25.6 GB for the full one's 4.3 GB; on this
 * 2-vCPU guest memory touched for the first time costs 1.2-2.4 s of
 * kernel time a GiB, huge pages or not, one thread or two (the hypervisor
 * backs guest memory as it is touched, and the guest hands freed memory
 * back to it: free page reporting), so the quick run spent 1.5-6.8 s of
 * system time faulting (perf: clear_page_erms, 41% of its samples). The
 * arena is the largest working set: the kernel with one array (read) takes
 * all of it, copy two halves, triad and the add three thirds, as their
 * working sets were carved from separate arrays before (the bytes counted,
 * the working sets and the per-thread slices are the same). */
typedef struct arena {
  char *base;
  size_t bytes;
  int touched_by; /* threads that first touched it (their slices) */
} arena;

/* Past 4 MiB: 2 MiB-aligned and advised onto transparent huge pages
 * (MADV_HUGEPAGE; THP in "madvise" mode, Debian's default, gives them only
 * to who asks), before the first touch. A streaming read over 4 KiB pages
 * misses the TLB every 64 lines, and in a virtual machine each miss is a
 * two-dimensional page walk: here (Zen 4 under KVM) one thread read 1 GB
 * at 21-27 GB/s on 4 KiB pages and at 31 on 2 MiB ones. The bytes counted
 * and the working set are the same; where the OS refuses huge pages
 * (THP "never") the arena is on 4 KiB pages: 262,144 faults a GiB instead
 * of 512, and the TLB misses above. */
#define RL_HUGE_BYTES ((size_t)2 << 20)
#define RL_PAGE_BYTES ((size_t)4096)
static int arena_alloc(arena *ar, size_t bytes) {
  memset(ar, 0, sizeof *ar);
  size_t align = bytes >= 2 * RL_HUGE_BYTES ? RL_HUGE_BYTES : RL_PAGE_BYTES;
  bytes = (bytes + align - 1) / align * align;
  ar->base = aligned_alloc(align, bytes);
  if (!ar->base) return 0;
  ar->bytes = bytes;
#ifdef MADV_HUGEPAGE
  if (align == RL_HUGE_BYTES) madvise(ar->base, bytes, MADV_HUGEPAGE);
#endif
  return 1;
}

static void arena_free(arena *ar) {
  free(ar->base);
  memset(ar, 0, sizeof *ar);
}

/* Thread tid's slice of the arena among `threads`: whole pages. */
static char *arena_slice(const arena *ar, int threads, int tid, size_t *len) {
  size_t s = ar->bytes / (size_t)threads / RL_PAGE_BYTES * RL_PAGE_BYTES;
  *len = s;
  return ar->base + (size_t)tid * s;
}

/* Where array j (a, b, c) of thread `tid` starts past its part of the
 * slice: a different multiple of 64 B within 4 KiB for each array and
 * thread. Every part starts on a page boundary, so a kernel's loads and
 * stores (c[i] = a[i]) would sit at the same offset mod 4 KiB, where a
 * load is taken for one depending on an older store to the same low 12
 * address bits ("4K aliasing": Intel 64 and IA-32 Architectures
 * Optimization Reference Manual, sec. 3.6.8), and a small working set of
 * several arrays would pile onto the same cache sets instead of spreading
 * over them (STREAM's OFFSET does the same). Measured here (Xeon, 2
 * threads, 8 rounds each): within the noise at 32 kB, and at the edge of
 * the 48 KiB L1 (47 kB, 1 thread) copy 354 GB/s against 287 and triad 401
 * against 378 at best, 231 against 114 and 374 against 157 at the
 * median. */
#define RL_STAGGER_BYTES 4096
static size_t stagger(int j, int tid) {
  return (size_t)((j * 21 + tid * 5) % 64) * 64;
}

/* The arena's bytes for working sets up to ws_max (all threads together)
 * on up to `threads` threads: the working set plus, per thread and array,
 * the stagger and the rounding of slices and parts to pages. */
static size_t arena_bytes(double ws_max, int threads) {
  return (size_t)ws_max + (size_t)threads * 3 * 4 * RL_PAGE_BYTES;
}

/* Carve `arrays` arrays per thread (a; a and c; a, c and b) out of each of
 * `threads` slices; bufs[t].cap doubles each. */
static void carve(const arena *ar, int threads, int arrays, tbuf *bufs) {
  for (int t = 0; t < threads; t++) {
    size_t len;
    char *s = arena_slice(ar, threads, t, &len);
    size_t part = len / (size_t)arrays / RL_PAGE_BYTES * RL_PAGE_BYTES;
    tbuf *b = &bufs[t];
    memset(b, 0, sizeof *b);
    size_t cap = part > RL_STAGGER_BYTES ? (part - RL_STAGGER_BYTES) / sizeof(double) : 0;
    b->cap = cap / RLI_BW_UNROLL * RLI_BW_UNROLL;
    b->a = (double *)(void *)(s + stagger(0, t));
    if (arrays >= 2) b->c = (double *)(void *)(s + part + stagger(2, t));
    if (arrays >= 3) b->b = (double *)(void *)(s + 2 * part + stagger(1, t));
  }
}

/* The first touch of thread tid's slice of the arena among `threads`
 * (their owner's, for the NUMA placement): the kernel populates the pages
 * (MADV_POPULATE_WRITE, Linux 5.14) without the program writing a byte,
 * or, where that is refused, one store a page. Nothing is zeroed by hand:
 * each kernel writes its inputs (fill_job), its outputs it overwrites. */
typedef struct touch_job {
  const arena *ar;
  int threads;
} touch_job;

static int touch_job_fn(void *v, int tid, int64_t reps) {
  (void)reps;
  const touch_job *j = v;
  size_t len;
  char *s = arena_slice(j->ar, j->threads, tid, &len);
#ifdef MADV_POPULATE_WRITE
  if (madvise(s, len, MADV_POPULATE_WRITE) == 0) return 0;
#endif
  for (size_t i = 0; i < len; i += RL_PAGE_BYTES) ((volatile char *)s)[i] = 0;
  return 0;
}

/* The values a kernel reads, written by their owner before its sweep,
 * over the n elements its largest working set uses: a[i] = 1 (read's sum
 * checks that), b[i] = 2; floats for the add. The arena holds whatever the
 * kernel before wrote there. */
typedef struct fill_job {
  tbuf *bufs;
  int kernel;
  size_t n; /* elements per array and thread (floats for RL_BW_ADD) */
} fill_job;

static int fill_job_fn(void *v, int tid, int64_t reps) {
  (void)reps;
  const fill_job *j = v;
  tbuf *b = &j->bufs[tid];
  if (j->kernel == RL_BW_ADD) {
    float *fa = (float *)(void *)b->a, *fb = (float *)(void *)b->b;
    for (size_t i = 0; i < j->n; i++) { fa[i] = 1.0f; fb[i] = 2.0f; }
    return 0;
  }
  for (size_t i = 0; i < j->n; i++) b->a[i] = 1.0;
  if (b->b) for (size_t i = 0; i < j->n; i++) b->b[i] = 2.0;
  return 0;
}

typedef struct bw_job {
  tbuf *bufs;
  int kernel, isa, nt;
  size_t elems; /* per thread (floats for RL_BW_ADD) */
} bw_job;

#define TRIAD_Q 3.0

static int bw_job_fn(void *v, int tid, int64_t reps) {
  bw_job *j = v;
  tbuf *b = &j->bufs[tid];
  size_t n = j->elems, last = n - 1;
  switch (j->kernel) {
  case RL_BW_READ: {
    double s = 0;
    for (int64_t r = 0; r < reps; r++) s += rli_bw_read(j->isa, b->a, n);
    return s != (double)reps * (double)n; /* a[i] = 1 */
  }
  case RL_BW_COPY:
    for (int64_t r = 0; r < reps; r++) rli_bw_copy(j->isa, j->nt, b->c, b->a, n);
    return b->c[0] != b->a[0] || b->c[last] != b->a[last];
  case RL_BW_TRIAD:
    for (int64_t r = 0; r < reps; r++)
      rli_bw_triad(j->isa, j->nt, b->c, b->a, b->b, TRIAD_Q, n);
    return b->c[0] != b->a[0] + TRIAD_Q * b->b[0] ||
           b->c[last] != b->a[last] + TRIAD_Q * b->b[last];
  case RL_BW_ADD: {
    float *fa = (float *)(void *)b->a, *fb = (float *)(void *)b->b, *fc = (float *)(void *)b->c;
    for (int64_t r = 0; r < reps; r++) rli_add_f32(j->isa, fc, fa, fb, n);
    return fc[0] != fa[0] + fb[0] || fc[last] != fa[last] + fb[last];
  }
  default:
    return 1;
  }
}

typedef struct pk_job {
  int k, isa;
  int64_t inner;
  double fpi;
} pk_job;

static int pk_job_fn(void *v, int tid, int64_t reps) {
  (void)tid;
  pk_job *j = v;
  double fpi = 0;
  double cs = rli_peak_kernel(j->k, j->isa, reps * j->inner, &fpi);
  return !(cs > 0 && isfinite(cs));
}

typedef struct gemm_job {
  const rli_blas *blas;
  int dp;
  int n;
  void *a, *b, *c;
} gemm_job;

static int gemm_kernel(void *v, int64_t reps) {
  gemm_job *g = v;
  int n = g->n;
  size_t last = (size_t)n * (size_t)n - 1;
  for (int64_t r = 0; r < reps; r++) {
    if (g->dp)
      g->blas->dgemm(RLI_CBLAS_ROW_MAJOR, RLI_CBLAS_NO_TRANS, RLI_CBLAS_NO_TRANS, n, n, n, 1.0,
                  g->a, n, g->b, n, 0.0, g->c, n);
    else
      g->blas->sgemm(RLI_CBLAS_ROW_MAJOR, RLI_CBLAS_NO_TRANS, RLI_CBLAS_NO_TRANS, n, n, n, 1.0f,
                  g->a, n, g->b, n, 0.0f, g->c, n);
  }
  if (g->dp) return ((double *)g->c)[0] != n || ((double *)g->c)[last] != n;
  return ((float *)g->c)[0] != (float)n || ((float *)g->c)[last] != (float)n;
}

/* ---- the measurement ----------------------------------------------------- */
typedef struct mctx {
  const rl_measure_opts *o;
  rl_measurement *m;
  rl_clock_fn clock;
  void *cu;
  int isa;
  int repeats;
  double min_time;
  rli_blas blas; /* loaded when the gemm part is asked for */
  double deadline; /* clock time past which --quick retakes nothing; 0: none */
  int *budget_said; /* the progress said the budget is spent */
} mctx;

/* --quick: after this many seconds nothing is taken again (peaks, sweep
 * points, figures on too few clean samples, the gemm passes after the
 * first); each figure still gets its `repeats` samples, and what stays
 * disturbed is marked. */
#define RL_QUICK_BUDGET_S 5.0

/* The FP32 add's largest n (all threads): 4 Mi elements (--quick), 16 Mi. */
#define RL_ADD_MAX_QUICK 4194304.0
#define RL_ADD_MAX 16777216.0

static void progress(const mctx *x, const char *fmt, ...) RLI_PRINTF(2, 3);
static void progress(const mctx *x, const char *fmt, ...) {
  if (!x->o->progress) return;
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  x->o->progress(x->o->progress_user, line);
}

static const char *q(char *buf, size_t cap, double v, rl_unit u) {
  rl_format_quantity(v, u, buf, cap);
  return buf;
}

/* One sample of job on the pool: *dt, the seconds from the first thread's
 * start to the last one's end; *clean, 0 when a thread was held up: the
 * scheduler gave more than 2% of the sample to another task (wall time
 * minus the thread's CPU time), or the stamps show a thread that started
 * late by more than 5% of the sample or ran 1.5 x longer than another (a
 * vCPU the hypervisor held back). With an injected clock the caller's
 * clock times the whole run and every sample is clean. */
static int pool_sample(const mctx *x, pool *p, int nthreads, job_fn job, void *arg,
                       int64_t reps, double *dt, int *clean) {
  *clean = 1;
  if (x->clock != rl_clock_monotonic) {
    double t0 = fresh_tick(x->clock, x->cu);
    int f = pool_run(p, nthreads, job, arg, reps);
    *dt = x->clock(x->cu) - t0;
    if (*dt < 0) *dt = 0;
    return f;
  }
  int f = pool_run_timed(p, nthreads, job, arg, reps, 1);
  double s0 = p->t0[0], s1 = p->t0[0], e1 = p->t1[0];
  double dmin = p->t1[0] - p->t0[0], dmax = dmin, lost = p->lost[0];
  for (int i = 1; i < nthreads; i++) {
    double d = p->t1[i] - p->t0[i];
    if (p->t0[i] < s0) s0 = p->t0[i];
    if (p->t0[i] > s1) s1 = p->t0[i];
    if (p->t1[i] > e1) e1 = p->t1[i];
    if (d < dmin) dmin = d;
    if (d > dmax) dmax = d;
    if (p->lost[i] > lost) lost = p->lost[i];
  }
  *dt = e1 > s0 ? e1 - s0 : 0;
  *clean = lost <= 0.02 * *dt && s1 - s0 <= 0.05 * *dt && dmax <= 1.5 * dmin;
  return f;
}

/* Past the budget (--quick): no more retakes or extra samples; said once
 * in the progress. */
static int budget_spent(const mctx *x) {
  if (!(x->deadline > 0) || x->clock(x->cu) <= x->deadline) return 0;
  if (!*x->budget_said) {
    *x->budget_said = 1;
    progress(x, "`quick`: the %.0f s budget for retakes is spent: no more retakes; what stays disturbed "
                "is marked unreliable ('!')", RL_QUICK_BUDGET_S);
  }
  return 1;
}

/* The better of two timings of one figure: one that can be trusted over
 * one that cannot, then the one on more clean samples, then the faster. */
static int better_timing(const rl_stats *a, const rl_stats *b) {
  if ((a->disturbed == 0) != (b->disturbed == 0)) return a->disturbed == 0;
  if (a->n != b->n) return a->n > b->n;
  return a->min < b->min;
}

/* rl_bench_run's discipline on the pool, timed by pool_sample, under the
 * sampler's rules (src/core/measure_sample.c): the repetitions calibrated
 * on clean samples only, a sample much shorter than its calibrating one
 * sending it back to calibrating, `repeats` clean samples wanted in 3 x
 * repeats tries (past them on until 3 are clean, up to 6 x repeats or
 * 0.5 s). A figure on fewer than 3 clean samples, or on samples whose
 * timer overhead is above 1%, is taken again from the calibration, up to
 * SAMPLE_RETAKES times (none past the --quick budget: then `repeats`
 * tries); what stays so is kept with its reason in per_rep.disturbed,
 * which rl_measure_analyze marks unreliable. */
#define SAMPLE_RETAKES 2
static rl_status time_on_pool(const mctx *x, pool *p, int nthreads, job_fn job,
                              void *arg, double min_time, int repeats,
                              rl_bench_result *br, rl_error *err) {
  memset(br, 0, sizeof *br);
  if (repeats > RLI_SAMPLER_MAX / 3) repeats = RLI_SAMPLER_MAX / 3;
  double tick = rl_clock_tick(x->clock, x->cu);
  if (!(tick > 0)) return rli_fail(err, RL_EINVAL, "the clock does not advance");
  br->tick_s = tick;
  if (min_time < 200 * tick) min_time = 200 * tick;
  int spent = budget_spent(x);
  for (int attempt = 0; attempt <= (spent ? 0 : SAMPLE_RETAKES); attempt++) {
    if (attempt) x->m->retakes++;
    rli_sampler sm;
    rli_sampler_init(&sm, min_time, 2 * tick, repeats, spent ? repeats : 3 * repeats);
    double t_first = x->clock(x->cu);
    for (;;) {
      int clean;
      double dt;
      if (pool_sample(x, p, nthreads, job, arg, sm.reps, &dt, &clean))
        return rli_fail(err, RL_EINVAL, "the kernel's result check failed");
      if (!rli_sampler_add(&sm, dt, clean)) break;
      if (sm.calibrated && sm.tries >= sm.max_tries && x->clock(x->cu) - t_first > 0.5) break;
    }
    rl_stats t;
    rl_status st = rli_sampler_result(&sm, &t, err);
    if (st) return st;
    if (attempt == 0 || better_timing(&t, &br->per_rep)) {
      br->per_rep = t;
      br->reps = sm.reps;
    }
    if (!t.disturbed || budget_spent(x)) break;
  }
  return RL_OK;
}

/* One peak kernel k on `threads` threads; a better figure than the one in
 * ps (a retake) replaces it, a worse one is dropped (the best sample is the
 * figure). Returns 0 when the kernel is not on this CPU. */
static int measure_peak(const mctx *x, pool *p, int threads, int k, rl_peak_set *ps,
                        rl_status *st, rl_error *err) {
  const rl_cpu_info *c = &x->m->cpu;
  int cores = threads; /* one thread per CPU; no SMT assumed beyond cpus */
  pk_job j = {k, x->isa, 1000, 0};
  *st = RL_OK;
  if (rli_peak_kernel(k, x->isa, 0, &j.fpi) < 0) return 0; /* not on this CPU */
  rl_bench_result br;
  *st = time_on_pool(x, p, threads, pk_job_fn, &j, x->min_time, 2 * x->repeats + 1, &br, err);
  if (*st) return 1;
  double f = (double)threads * (double)j.inner * j.fpi / br.per_rep.min;
  if (f > ps->flops[k]) {
    ps->t[k] = br.per_rep;
    ps->flops[k] = f;
  }
  ps->theory[k] = c->measured_hz * c->flop_per_cycle[k] * cores;
  char b1[48], b2[48];
  progress(x, "peak %-12s %d thread%s: %s (theoretical %s)", rl_peak_kernel_name(k), threads,
           threads == 1 ? " " : "s", q(b1, sizeof b1, f, RL_UNIT_FLOP_S),
           q(b2, sizeof b2, ps->theory[k], RL_UNIT_FLOP_S));
  return 1;
}

static rl_status measure_peaks(const mctx *x, pool *p, int threads,
                               rl_peak_set *ps, rl_error *err) {
  rl_status st = RL_OK;
  for (int k = 0; k < RL_PK_COUNT && !st; k++) measure_peak(x, p, threads, k, ps, &st, err);
  return st;
}

/* A disturbed peak (rl_measure_disturbed) is taken again, up to
 * RL_PEAK_RETAKES times; what stays disturbed rl_measure_analyze marks
 * unreliable. */
#define RL_PEAK_RETAKES 3
static rl_status retake_peaks(const mctx *x, pool *p, int T, rl_measurement *m, rl_error *err) {
  rl_status st = RL_OK;
  for (int k = 0; k < RL_PK_COUNT && !st; k++)
    for (int r = 0; r < RL_PEAK_RETAKES && !st && !budget_spent(x); r++) {
      int bad1 = rl_measure_disturbed(m->peak_1t.flops[k], 0, 1, m->peak_1t.theory[k]) != 0;
      int badT = T > 1 && rl_measure_disturbed(m->peak.flops[k], m->peak_1t.flops[k], T,
                                               m->peak.theory[k]) != 0;
      if (!bad1 && !badT) break;
      if (bad1 || T == 1) {
        measure_peak(x, p, 1, k, &m->peak_1t, &st, err);
        if (T == 1) m->peak = m->peak_1t;
      } else {
        measure_peak(x, p, T, k, &m->peak, &st, err);
      }
      m->retakes++;
    }
  return st;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One point of a sweep: `elems` doubles per array and thread; past
 * the LLC, copy and triad also with non-temporal stores, keeping the
 * faster. Fills pt's bytes, t, bw and nt (its ws is the caller's). */
static rl_status time_bw_point(const mctx *x, pool *p, tbuf *bufs, int threads, int kernel,
                               size_t elems, double llc, rl_sweep_point *pt, rl_error *err) {
  rl_status st = rl_bw_traffic(kernel, (double)elems * threads, sizeof(double), &pt->bytes, NULL, err);
  if (st) return st;
  bw_job j = {bufs, kernel, x->isa, 0, elems};
  rl_bench_result br;
  st = time_on_pool(x, p, threads, bw_job_fn, &j, x->min_time, x->repeats, &br, err);
  if (st) return st;
  pt->t = br.per_rep;
  pt->nt = 0;
  if (kernel != RL_BW_READ && llc > 0 && pt->ws > llc && x->isa != RLI_ISA_SCALAR) {
    j.nt = 1;
    rl_bench_result nb;
    st = time_on_pool(x, p, threads, bw_job_fn, &j, x->min_time, x->repeats, &nb, err);
    if (st) return st;
    if (nb.per_rep.min < br.per_rep.min) {
      pt->t = nb.per_rep;
      pt->nt = 1;
    }
  }
  pt->bw = pt->t.min > 0 ? pt->bytes / pt->t.min : 0;
  if (!(pt->bw > 0)) return rli_fail(err, RL_ERANGE, "the clock did not resolve a bandwidth sample");
  return RL_OK;
}

static double sweep_llc(const rl_sweep *s) {
  return s->cache[2] > 0 ? s->cache[2] : s->cache[1] > 0 ? s->cache[1] : s->cache[0];
}

/* Disturbed points of a sweep (rl_sweep_retake: a dip below both
 * neighbours, or a level of all threads below one thread's, given `one`)
 * are taken again, up to RL_BW_RETAKES rounds, each keeping the faster
 * sample; what stays disturbed rl_measure_analyze marks unreliable. */
#define RL_BW_RETAKES 3
#define RL_DIP_TOL 0.15
static rl_status retake_sweep(const mctx *x, pool *p, tbuf *bufs, rl_sweep *s,
                              const rl_sweep *one, rl_error *err) {
  int arrays = rl_bw_kernel_arrays(s->kernel);
  for (int r = 0; r < RL_BW_RETAKES && !budget_spent(x); r++) {
    uint8_t again[RL_MEASURE_MAX_WS];
    if (rl_sweep_retake(s, one, RL_DIP_TOL, again) == 0) break;
    for (int32_t i = 0; i < s->n && !budget_spent(x); i++) {
      if (!again[i]) continue;
      rl_sweep_point *pt = &s->p[i], nw = *pt;
      size_t elems = (size_t)llround(pt->ws / ((double)s->threads * arrays * (double)sizeof(double)));
      rl_status st = time_bw_point(x, p, bufs, s->threads, s->kernel, elems, sweep_llc(s), &nw, err);
      if (st) return st;
      char b1[48], b2[48], b3[48];
      progress(x, "retake %s %d thread%s at %s: %s (was %s)", rl_bw_kernel_name(s->kernel),
               (int)s->threads, s->threads == 1 ? "" : "s", q(b1, sizeof b1, pt->ws, RL_UNIT_BYTES),
               q(b2, sizeof b2, nw.bw, RL_UNIT_BYTES_S), q(b3, sizeof b3, pt->bw, RL_UNIT_BYTES_S));
      if (nw.bw > pt->bw) *pt = nw;
      x->m->retakes++;
    }
  }
  return RL_OK;
}

/* Doubles per array and thread of working set ws (all threads) of a
 * kernel with `arrays` arrays, whole loop iterations, at most cap. */
static size_t sweep_elems(double ws, int threads, int arrays, size_t cap) {
  double per = ws / ((double)threads * arrays * (double)sizeof(double));
  size_t elems = (size_t)(per / RLI_BW_UNROLL) * RLI_BW_UNROLL;
  if (elems < RLI_BW_UNROLL) elems = RLI_BW_UNROLL;
  return elems > cap ? cap : elems;
}

static rl_status measure_sweep(const mctx *x, pool *p, const arena *ar, tbuf *bufs, int threads,
                               int kernel, const double *ws, int n_ws,
                               rl_sweep *s, const rl_sweep *one, rl_error *err) {
  const rl_cpu_info *c = &x->m->cpu;
  s->kernel = kernel;
  s->threads = threads;
  rl_cache_capacity(c, threads, s->cache);
  double llc = sweep_llc(s);
  int arrays = rl_bw_kernel_arrays(kernel);
  carve(ar, threads, arrays, bufs);
  fill_job fj = {bufs, kernel, sweep_elems(ws[n_ws - 1], threads, arrays, bufs[0].cap)};
  pool_run(p, threads, fill_job_fn, &fj, 1);
  double prev_ws = 0;
  s->n = 0;
  for (int i = 0; i < n_ws && s->n < RL_MEASURE_MAX_WS; i++) {
    size_t elems = sweep_elems(ws[i], threads, arrays, bufs[0].cap);
    double real_ws = (double)elems * (double)threads * arrays * (double)sizeof(double);
    if (real_ws <= prev_ws) continue;
    prev_ws = real_ws;
    rl_sweep_point *pt = &s->p[s->n];
    memset(pt, 0, sizeof *pt);
    pt->ws = real_ws;
    rl_status st = time_bw_point(x, p, bufs, threads, kernel, elems, llc, pt, err);
    if (st) return st;
    s->n++;
  }
  rl_status st = retake_sweep(x, p, bufs, s, one, err);
  if (st) return st;
  rl_levels lv;
  double wsv[RL_MEASURE_MAX_WS], bwv[RL_MEASURE_MAX_WS];
  for (int i = 0; i < s->n; i++) { wsv[i] = s->p[i].ws; bwv[i] = s->p[i].bw; }
  if (s->n > 0 && rl_bw_levels(wsv, bwv, s->n, s->cache, 0.15, &lv, NULL) == RL_OK) {
    char b[4][48];
    progress(x, "%-5s %d thread%s: L1 %s, L2 %s, L3 %s, DRAM %s", rl_bw_kernel_name(kernel),
             threads, threads == 1 ? " " : "s", q(b[0], 48, lv.bw[0], RL_UNIT_BYTES_S),
             q(b[1], 48, lv.bw[1], RL_UNIT_BYTES_S), q(b[2], 48, lv.bw[2], RL_UNIT_BYTES_S),
             q(b[3], 48, lv.bw[3], RL_UNIT_BYTES_S));
  }
  return RL_OK;
}

static rl_status add_point(rl_measurement *m, const char *op, int32_t dtype,
                           int threads, double n, const rl_bench_result *br,
                           rl_error *err) {
  if (m->n_points >= RL_MEASURE_MAX_POINTS) return RL_OK;
  rl_measure_point *pt = &m->points[m->n_points];
  memset(pt, 0, sizeof *pt);
  rli_strlcpy(pt->op, op, sizeof pt->op);
  pt->dtype = dtype;
  pt->threads = threads;
  pt->n = n;
  rl_op o = rl_op_init(strcmp(op, "add") == 0 ? RL_OP_ADD : RL_OP_MATMUL, dtype);
  if (o.kind == RL_OP_ADD) o.n = n;
  else o.m = o.n = o.k = n;
  rl_cost cost;
  rl_status st = rl_op_cost(&o, &cost, err);
  if (st) return st;
  pt->flops = cost.flops;
  pt->bytes = cost.bytes;
  pt->intensity = cost.intensity;
  pt->t = br->per_rep;
  pt->achieved = br->per_rep.min > 0 ? cost.flops / br->per_rep.min : 0;
  m->n_points++;
  return RL_OK;
}

static int gemm_job_fn(void *v, int tid, int64_t reps) {
  (void)tid;
  return gemm_kernel(v, reps);
}

/* One OpenBLAS call of order n, timed as the bandwidth kernels are
 * (time_on_pool on the calling thread alone: OpenBLAS starts its own
 * threads): back-to-back calls until a sample lasts 2 x min_time (4 ms:
 * about 20,000 calls at n = 16, whose 0.2 us would otherwise be timed
 * against a 20 ns tick), the calibrating samples as warm-up, best of
 * `repeats` (3 from n = 2048, whose calls last 0.1-1 s). A
 * sample in which the scheduler took the calling thread's CPU (more than
 * 2% of it) is taken again: OpenBLAS runs a small product on the calling
 * thread, a large one on it and its own threads. */
static rl_status time_gemm(const mctx *x, pool *p, gemm_job *g, rl_bench_result *br,
                           rl_error *err) {
  rl_status st = time_on_pool(x, p, 1, gemm_job_fn, g, 2 * x->min_time,
                              g->n >= 2048 ? 3 : x->repeats, br, err);
  if (st == RL_EINVAL)
    st = rli_fail(err, RL_EINVAL, "%s n=%d: wrong result", g->dp ? "dgemm" : "sgemm", g->n);
  return st;
}

/* Matrices of order n = 16..4096 (--quick: ..1024), sgemm then dgemm, all
 * threads (openblas_set_num_threads; OpenBLAS itself runs a product of
 * n^3 <= 64^3 on one). F = 2n^3 (rl_op_cost), as bench/gemm_direct.c
 * counts. The products of n <= 1024 (under 20 ms a call) are timed in
 * three passes over the sizes, seconds apart, each keeping its fastest
 * pass (bench/gemm_direct.c times OpenBLAS alone the same way). A short
 * window of samples can fall entirely inside another process's burst
 * (once here: dgemm n = 16 at 0.1 GFLOP/s in the first pass, 26 in the
 * second), which a window at another moment does not share. */
#define GEMM_AGAIN_MAX_N 1024
#define GEMM_PASSES 3
static rl_status measure_gemm(const mctx *x, pool *p, int threads, rl_error *err) {
  int nmax = x->m->quick ? 1024 : 4096;
  size_t elems = (size_t)nmax * (size_t)nmax;
  double *a = aligned_alloc(64, elems * sizeof(double));
  double *b = aligned_alloc(64, elems * sizeof(double));
  double *c = aligned_alloc(64, elems * sizeof(double));
  rl_status st = RL_OK;
  if (!a || !b || !c) {
    st = rli_fail(err, RL_ENOMEM, "cannot allocate the matrices (3 x %d x %d doubles)", nmax, nmax);
    goto done;
  }
  x->blas.set_num_threads(threads);
  int32_t first = x->m->n_points;
  for (int pass = 0; pass < GEMM_PASSES && !st && !(pass && budget_spent(x)); pass++)
    for (int dp = 0; dp < 2 && !st; dp++) {
      int top = pass ? (nmax < GEMM_AGAIN_MAX_N ? nmax : GEMM_AGAIN_MAX_N) : nmax;
      size_t used = (size_t)top * (size_t)top;
      if (dp) for (size_t i = 0; i < used; i++) { a[i] = 1.0; b[i] = 1.0; c[i] = 0; }
      else {
        float *fa = (float *)(void *)a, *fb = (float *)(void *)b, *fc = (float *)(void *)c;
        for (size_t i = 0; i < used; i++) { fa[i] = 1.0f; fb[i] = 1.0f; fc[i] = 0; }
      }
      const char *op = dp ? "dgemm" : "sgemm";
      for (int n = 16; n <= top; n *= 2) {
        int32_t i = first;
        if (pass) { /* the point of the first pass */
          while (i < x->m->n_points && !(strcmp(x->m->points[i].op, op) == 0 && x->m->points[i].n == n)) i++;
          if (i >= x->m->n_points) continue;
        }
        gemm_job g = {&x->blas, dp, n, a, b, c};
        rl_bench_result br;
        st = time_gemm(x, p, &g, &br, err);
        if (st) break;
        char b1[48], b2[48];
        if (pass == 0) {
          st = add_point(x->m, op, dp ? RL_FP64 : RL_FP32, threads, n, &br, err);
          if (st) break;
          const rl_measure_point *pt = &x->m->points[x->m->n_points - 1];
          progress(x, "%s n=%-5d %s in %s", op, n, q(b1, sizeof b1, pt->achieved, RL_UNIT_FLOP_S),
                   q(b2, sizeof b2, pt->t.min, RL_UNIT_SECONDS));
          continue;
        }
        rl_measure_point *pt = &x->m->points[i];
        double again = br.per_rep.min > 0 ? pt->flops / br.per_rep.min : 0;
        progress(x, "%s n=%-5d pass %d: %s (best so far %s)", op, n, pass + 1,
                 q(b1, sizeof b1, again, RL_UNIT_FLOP_S), q(b2, sizeof b2, pt->achieved, RL_UNIT_FLOP_S));
        if (again > pt->achieved) {
          pt->t = br.per_rep;
          pt->achieved = again;
        }
      }
    }
done:
  free(a);
  free(b);
  free(c);
  return st;
}

static rl_status measure_add(const mctx *x, pool *p, const arena *ar, tbuf *bufs, int threads,
                             rl_error *err) {
  double nmax = x->m->quick ? RL_ADD_MAX_QUICK : RL_ADD_MAX;
  carve(ar, threads, 3, bufs);
  size_t fmax = (size_t)(nmax / threads / RLI_BW_UNROLL) * RLI_BW_UNROLL;
  fill_job fj = {bufs, RL_BW_ADD, fmax < 2 * bufs[0].cap ? fmax : 2 * bufs[0].cap};
  pool_run(p, threads, fill_job_fn, &fj, 1);
  for (double n = 4096; n <= nmax; n *= 4) {
    size_t per = (size_t)(n / threads / RLI_BW_UNROLL) * RLI_BW_UNROLL;
    if (per < RLI_BW_UNROLL) per = RLI_BW_UNROLL;
    if (per > 2 * bufs[0].cap) break;
    bw_job j = {bufs, RL_BW_ADD, x->isa, 0, per};
    rl_bench_result br;
    rl_status st = time_on_pool(x, p, threads, bw_job_fn, &j, x->min_time, x->repeats, &br, err);
    if (st) return st;
    st = add_point(x->m, "add", RL_FP32, threads, (double)per * threads, &br, err);
    if (st) return st;
    const rl_measure_point *pt = &x->m->points[x->m->n_points - 1];
    char b1[48], b2[48];
    progress(x, "add   n=%-9.0f %s (%s)", pt->n, q(b1, sizeof b1, pt->achieved, RL_UNIT_FLOP_S),
             q(b2, sizeof b2, pt->bytes / pt->t.min, RL_UNIT_BYTES_S));
  }
  return RL_OK;
}

/* The options' own checks, before anything is touched. */
static rl_status measure_opts_check(const rl_measure_opts *o, rl_error *err) {
  if (o->threads < 0) return rli_fail(err, RL_EINVAL, "threads must be >= 1 (0 = all CPUs)");
  if (o->n_ws < 0 || o->n_ws > RL_MEASURE_MAX_WS || (o->n_ws > 0 && !o->ws))
    return rli_fail(err, RL_EINVAL, "give 1..%d working sets", RL_MEASURE_MAX_WS);
  for (int32_t i = 0; i < o->n_ws; i++) {
    if (!rli_positive(o->ws[i])) return rli_fail(err, RL_EINVAL, "working set %d must be > 0", (int)i + 1);
    char what[32];
    snprintf(what, sizeof what, "working set %d", (int)i + 1);
    TRY(rl_range_check(RL_QTY_WORKING_SET, o->ws[i], what, err)); /* ranges.c */
  }
  uint32_t parts = o->parts ? o->parts : RL_MEASURE_ALL;
  if (parts & ~RL_MEASURE_ALL) return rli_fail(err, RL_EINVAL, "unknown measurement parts 0x%x", parts);
  return RL_OK;
}

/* Cheap checks before anything slow: the CPUs this process may run on
 * (cpus[0..*ncpu-1]) against the threads asked for, and the working sets
 * against the machine's memory (*mem, 0 when unknown). */
static rl_status measure_cpus_mem(const rl_measure_opts *o, int *cpus, int *ncpu, double *mem,
                                  rl_error *err) {
  cpu_set_t set;
  CPU_ZERO(&set);
  int n = 0;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (size_t i = 0; i < CPU_SETSIZE && n < MAX_THREADS; i++)
      if (CPU_ISSET(i, &set)) cpus[n++] = (int)i;
  if (n == 0) cpus[n++] = 0;
  *ncpu = n;
  if (o->threads > n)
    return rli_fail(err, RL_EINVAL, "%d threads asked, but this process may run on %d CPU%s",
                    (int)o->threads, n, n == 1 ? "" : "s");
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
  *mem = pages > 0 && psz > 0 ? (double)pages * (double)psz : 0;
  for (int32_t i = 0; i < o->n_ws; i++)
    if (*mem > 0 && o->ws[i] > 0.75 * *mem) {
      char b1[48], b2[48];
      return rli_fail(err, RL_ERANGE, "working set %s does not fit in this machine's memory (%s; at most 75%% of it)",
                      q(b1, sizeof b1, o->ws[i], RL_UNIT_BYTES), q(b2, sizeof b2, *mem, RL_UNIT_BYTES));
    }
  return RL_OK;
}

/* Memory the kernel says could be allocated without swapping
 * (/proc/meminfo MemAvailable), B; 0 when unknown. */
static double mem_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  double kb = 0;
  if (!f) return 0;
  char line[256];
  while (fgets(line, sizeof line, f))
    if (RLI_STARTS(line, "MemAvailable:")) {
      kb = strtod(line + RLI_LEN("MemAvailable:"), NULL);
      break;
    }
  fclose(f);
  return kb > 0 ? kb * 1024 : 0;
}

/* The working sets of the sweep, ascending: the caller's, or L1/4 .. 8 x
 * the LLC geometric, at least 64 MiB (--quick 32), at most a quarter of
 * the memory and half of what is available (a misreported LLC, such as a
 * host's whole L3 seen from a guest, must not push the sweep into swap),
 * and with --quick at most 1 GiB (past any LLC but a few servers', and
 * the largest sample stays a fraction of a second). Returns how many. */
#define QUICK_WS_MAX 1073741824.0
static int measure_ws(const mctx *x, double mem, double *ws) {
  const rl_measure_opts *o = x->o;
  int n_ws = 0;
  double cap_all[3];
  rl_cache_capacity(&x->m->cpu, x->m->threads, cap_all);
  double llc = cap_all[2] > 0 ? cap_all[2] : cap_all[1] > 0 ? cap_all[1] : 8e6;
  if (o->n_ws > 0) {
    for (int32_t i = 0; i < o->n_ws; i++) ws[n_ws++] = o->ws[i];
    qsort(ws, (size_t)n_ws, sizeof ws[0], cmp_dbl);
  } else {
    double lo = (o->quick ? 2048.0 : 4096.0) * x->m->threads, hi = 8 * llc;
    if (hi < (o->quick ? 32.0 : 64.0) * 1048576) hi = (o->quick ? 32.0 : 64.0) * 1048576;
    if (mem > 0 && hi > 0.25 * mem) hi = 0.25 * mem;
    double avail = mem_available();
    if (avail > 0 && hi > 0.5 * avail) hi = 0.5 * avail;
    if (o->quick && hi > QUICK_WS_MAX) hi = QUICK_WS_MAX;
    double step = o->quick ? 2.0 : sqrt(2.0);
    for (double w = lo; w <= hi * 1.0001 && n_ws < RL_MEASURE_MAX_WS; w *= step) ws[n_ws++] = w;
  }
  return n_ws;
}

/* The arena's bytes: the largest working set of the sweeps (the kernel
 * with one array, read, takes it whole; copy and triad as much over two and
 * three arrays) and the add's three float arrays, whichever is larger. */
static size_t measure_arena_need(const mctx *x, const double *ws, int n_ws) {
  uint32_t parts = x->m->parts;
  int want_bw = (parts & (RL_MEASURE_READ | RL_MEASURE_COPY | RL_MEASURE_TRIAD)) != 0;
  double need = want_bw ? ws[n_ws - 1] : 0;
  double add_max = x->o->quick ? RL_ADD_MAX_QUICK : RL_ADD_MAX;
  if ((parts & RL_MEASURE_ADD) && 3 * sizeof(float) * add_max > need) need = 3 * sizeof(float) * add_max;
  return arena_bytes(need, x->m->threads);
}

/* The peaks: 1 thread, then all; the clock once more, hot (the
 * theoretical peaks use the fastest of three readings: a reading slowed
 * by a neighbour would make the theory too low); then the retakes. */
static rl_status measure_all_peaks(const mctx *x, pool *pl, rl_error *err) {
  rl_measurement *m = x->m;
  int T = m->threads;
  rl_status st = measure_peaks(x, pl, 1, &m->peak_1t, err);
  if (st) return st;
  if (T > 1) st = measure_peaks(x, pl, T, &m->peak, err);
  else m->peak = m->peak_1t;
  if (st) return st;
  rl_cpu_info again;
  if (rl_cpu_probe(&again, x->clock, x->cu, NULL) == RL_OK && again.measured_hz > m->cpu.measured_hz) {
    double f = again.measured_hz / m->cpu.measured_hz;
    m->cpu.measured_hz = again.measured_hz;
    for (int k = 0; k < RL_PK_COUNT; k++) {
      m->peak.theory[k] *= f;
      m->peak_1t.theory[k] *= f;
    }
  }
  return retake_peaks(x, pl, T, m, err);
}

/* The NUMA nodes online (/sys/devices/system/node/online); 1 when
 * unknown. */
static int numa_nodes(void) {
  char v[256];
  int n = read_small("/sys/devices/system/node/online", v, sizeof v) ? count_cpu_list(v) : 1;
  return n > 1 ? n : 1;
}

/* The transparent huge page mode (/sys/kernel/mm/transparent_hugepage/
 * enabled: the bracketed word of "always [madvise] never"), "" when
 * unknown. */
static const char *thp_mode(char *buf, size_t cap) {
  char v[128];
  buf[0] = 0;
  if (!read_small("/sys/kernel/mm/transparent_hugepage/enabled", v, sizeof v)) return buf;
  const char *o = strchr(v, '['), *e = o ? strchr(o, ']') : NULL;
  if (o && e && (size_t)(e - o) < cap) {
    memcpy(buf, o + 1, (size_t)(e - o - 1));
    buf[e - o - 1] = 0;
  }
  return buf;
}

/* Allocate the arena of `need` bytes and have `touchers` threads first
 * touch it, each its slice; a progress line says how long that took. */
static rl_status arena_start(const mctx *x, pool *pl, arena *ar, size_t need, int touchers,
                             rl_error *err) {
  char b1[48], b2[48], mode[32];
  if (!arena_alloc(ar, need))
    return rli_fail(err, RL_ENOMEM, "cannot allocate %s for the bandwidth arrays",
                    q(b1, sizeof b1, (double)need, RL_UNIT_BYTES));
  double t0 = x->clock(x->cu);
  touch_job tj = {ar, touchers};
  pool_run(pl, touchers, touch_job_fn, &tj, 1);
  ar->touched_by = touchers;
  thp_mode(mode, sizeof mode);
  progress(x, "arrays %s, first touched in %s by %d thread%s%s%s%s",
           q(b1, sizeof b1, (double)ar->bytes, RL_UNIT_BYTES),
           q(b2, sizeof b2, x->clock(x->cu) - t0, RL_UNIT_SECONDS), touchers, touchers == 1 ? "" : "s",
           mode[0] ? " (transparent huge pages: " : "", mode, mode[0] ? ")" : "");
  return RL_OK;
}

/* Bandwidth: one thread first (the whole largest working set in its
 * arrays), then all threads (a slice each), and the add on all threads,
 * every array carved from one arena of `need` bytes. On one NUMA node,
 * where the thread that first touches a page does not decide where it
 * sits, the arena is allocated and touched once (all threads, each a
 * slice) and serves both; on several, a page sits on the node of the
 * thread that first touched it, so thread 0 touches it for the one-thread
 * sweeps, and for the all-thread ones it is allocated again and each
 * thread touches its own slice. */
static rl_status measure_bandwidth(const mctx *x, pool *pl, tbuf *bufs, const double *ws, int n_ws,
                                   size_t need, rl_error *err) {
  rl_measurement *m = x->m;
  uint32_t parts = m->parts;
  int T = m->threads;
  int want_bw = (parts & (RL_MEASURE_READ | RL_MEASURE_COPY | RL_MEASURE_TRIAD)) != 0;
  int want_add = (parts & RL_MEASURE_ADD) != 0;
  int nodes = numa_nodes();
  arena ar;
  memset(&ar, 0, sizeof ar);
  rl_status st = RL_OK;
  for (int cfg = 1; cfg >= 0 && !st; cfg--) {
    int thr = cfg ? 1 : T;
    if (cfg == 1 && !want_bw) continue;
    if (cfg == 0 && T == 1 && want_bw)
      for (int k = 0; k < 3; k++) m->sweep[0][k] = m->sweep[1][k];
    if (cfg == 0 && !want_add && !(want_bw && T > 1)) continue;
    int touchers = nodes > 1 ? thr : T;
    if (ar.base && ar.touched_by != touchers) arena_free(&ar);
    if (!ar.base && (st = arena_start(x, pl, &ar, need, touchers, err)) != RL_OK) break;
    static const uint32_t bit[3] = {RL_MEASURE_READ, RL_MEASURE_COPY, RL_MEASURE_TRIAD};
    if (want_bw && !(cfg == 0 && T == 1))
      for (int k = 0; k < 3 && !st; k++)
        if (parts & bit[k])
          st = measure_sweep(x, pl, &ar, bufs, thr, k, ws, n_ws, &m->sweep[cfg][k],
                             cfg == 0 && m->sweep[1][k].kernel >= 0 ? &m->sweep[1][k] : NULL, err);
    if (!st && want_add && cfg == 0) st = measure_add(x, pl, &ar, bufs, T, err);
  }
  arena_free(&ar);
  return st;
}

rl_status rl_measure(const rl_measure_opts *o, rl_measurement *m,
                     rl_error *err) {
  if (!o || !m) return rli_fail(err, RL_EINVAL, "no options or output");
  rl_status st = measure_opts_check(o, err);
  if (st) return st;
  uint32_t parts = o->parts ? o->parts : RL_MEASURE_ALL;
  rl_clock_fn clock = o->clock ? o->clock : rl_clock_monotonic;
  memset(m, 0, sizeof *m);
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 3; k++) m->sweep[t][k].kernel = -1;
  double t_start = clock(o->clock_user);
  int cpus[MAX_THREADS], ncpu = 0;
  double mem = 0;
  st = measure_cpus_mem(o, cpus, &ncpu, &mem, err);
  if (st) return st;
  mctx x;
  memset(&x, 0, sizeof x);
  x.o = o;
  x.m = m;
  x.clock = clock;
  x.cu = o->clock_user;
  x.isa = rli_isa();
  x.repeats = o->quick ? 5 : 7;
  x.min_time = o->quick ? 1e-3 : 2e-3;
  int budget_said = 0;
  x.budget_said = &budget_said;
  if (o->quick) x.deadline = t_start + RL_QUICK_BUDGET_S;
  m->quick = o->quick ? 1 : 0;
  m->repeats = x.repeats;
  m->parts = parts;
  if ((parts & RL_MEASURE_GEMM) && (st = rli_blas_load(&x.blas, err)) != RL_OK) return st;
  st = rl_cpu_probe(&m->cpu, clock, o->clock_user, err);
  if (st) return st;
  m->threads = o->threads ? o->threads : (ncpu < m->cpu.cpus ? ncpu : m->cpu.cpus);
  if (m->threads < 1) m->threads = 1;
  m->tick_s = rl_clock_tick(clock, o->clock_user);
  {
    char b1[48], b2[48], b3[48];
    progress(&x, "%s%s%s%s, %d thread%s, %s; clock %s measured (%s reported); timer tick %s",
             m->cpu.model, m->cpu.uarch[0] ? " (" : "", m->cpu.uarch, m->cpu.uarch[0] ? ")" : "",
             (int)m->threads, m->threads == 1 ? "" : "s", m->cpu.isa,
             q(b1, sizeof b1, m->cpu.measured_hz, RL_UNIT_COUNT), q(b2, sizeof b2, m->cpu.nominal_hz, RL_UNIT_COUNT),
             q(b3, sizeof b3, m->tick_s, RL_UNIT_SECONDS));
  }
  double ws[RL_MEASURE_MAX_WS];
  int n_ws = measure_ws(&x, mem, ws);
  int T = m->threads;
  size_t need = measure_arena_need(&x, ws, n_ws);

  pool *pl = calloc(1, sizeof(pool));
  tbuf *bufs = calloc((size_t)T, sizeof(tbuf));
  int started = 0, pinned = 0;
  cpu_set_t saved;
  if (!pl || !bufs) {
    st = rli_fail(err, RL_ENOMEM, "out of memory");
    goto done;
  }
  /* the caller becomes worker 0, pinned to the first CPU */
  if (pthread_getaffinity_np(pthread_self(), sizeof saved, &saved) == 0) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET((size_t)cpus[0], &one);
    pinned = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
  }
  st = pool_start(pl, T, cpus, err);
  if (st) goto done;
  started = 1;
  {
    /* the clock again, now pinned and warm; keep the faster reading */
    rl_cpu_info again;
    if (rl_cpu_probe(&again, clock, o->clock_user, NULL) == RL_OK && again.measured_hz > m->cpu.measured_hz)
      m->cpu.measured_hz = again.measured_hz;
  }
  if ((parts & RL_MEASURE_PEAK) && (st = measure_all_peaks(&x, pl, err)) != RL_OK) goto done;
  st = measure_bandwidth(&x, pl, bufs, ws, n_ws, need, err);
  if (st) goto done;
  if (pinned) { /* OpenBLAS places its own threads */
    pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);
    pinned = 0;
  }
  if (parts & RL_MEASURE_GEMM) {
    st = measure_gemm(&x, pl, T, err);
    if (st) goto done;
  }
done:
  if (started) pool_stop(pl);
  if (pinned) pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);
  free(pl);
  free(bufs);
  if (st) return st;
  m->wall_s = clock(o->clock_user) - t_start;
  return rl_measure_analyze(m, err);
}
