/*
 * roofline_mpi.c -- build/roofline-mpi (`make mpi`, Open MPI): the same
 * command, with `roofline trace DIR` spread over the processes of
 * `mpirun -n P build/roofline-mpi trace DIR` on a shared filesystem, after
 * the design of Scalasca's parallel trace analyser (Geimer et al., "The
 * Scalasca performance toolset architecture", CCPE 22(6), 2010): one
 * analysis process per group of traces, the results reduced over MPI.
 *
 *   1. rank 0 lists the files and broadcasts the list (every process then
 *      takes part in every collective call, whatever its filesystem says);
 *   2. the files, largest first, go one at a time to whichever worker
 *      (-j threads in each process) is free, through a counter in process
 *      0's memory (MPI_Fetch_and_op): dynamic, so a process on a busier
 *      core or with slower files takes fewer (mpi_read below);
 *   3. each process packs its rank summaries (rl_job_pack) and rank 0
 *      gathers them (MPI_Igatherv), unpacks them into their slots and
 *      prints exactly what one process would print; the others print
 *      nothing. No process spins while it waits (lazy_wait below).
 * A file a process cannot read travels as its error and is reported by
 * rank 0. Each process runs on the CPUs its launcher bound it to (Open MPI
 * binds each to one core when it starts 2 or fewer, mpirun(1)); rank 0 says
 * so on stderr when one has fewer than its workers or its share of the node
 * (mpi_cpus below). A process that dies ends the run: mpirun aborts the job
 * (Open MPI's default errors-are-fatal handler), it does not hang.
 * Standard input alone (`zcat T | mpirun -n 2 roofline-mpi trace -`) is
 * read by process 0, to which mpirun forwards it (the others find theirs
 * empty); every process exits with process 0's status, the one that printed.
 * A program beside the command (cli/main.c), linked with the same CLI
 * objects; not compiled by the plain build (the Makefile takes the .c
 * files of cli/ itself, not of cli/mpi/).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "cli.h"

#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct mctx {
  int rank, size;
  int local;        /* processes on this node */
  int thread_level; /* MPI_Init_thread's answer */
} mctx;

static rl_status mpi_list(void *ctx, const char *const *args, int32_t nargs, char ***paths, int32_t *np,
                          char ***skipped, int32_t *nskipped, rl_error *err) {
  mctx *m = ctx;
  /* rank 0's answer as one blob: status, counts, then NUL-terminated paths */
  long long hdr[3] = {0, 0, 0};
  char *blob = NULL;
  size_t blen = 0;
  char **p = NULL, **s = NULL;
  int32_t n = 0, ns = 0;
  if (m->rank == 0) {
    rl_status st = rl_job_find_files(args, nargs, &p, &n, &s, &ns, err);
    hdr[0] = st;
    if (st == RL_OK) {
      for (int32_t i = 0; i < n; i++) blen += strlen(p[i]) + 1;
      for (int32_t i = 0; i < ns; i++) blen += strlen(s[i]) + 1;
      blob = malloc(blen + 1);
      if (!blob) MPI_Abort(MPI_COMM_WORLD, 1);
      size_t o = 0;
      for (int32_t i = 0; i < n; i++) { strcpy(blob + o, p[i]); o += strlen(p[i]) + 1; }
      for (int32_t i = 0; i < ns; i++) { strcpy(blob + o, s[i]); o += strlen(s[i]) + 1; }
      hdr[1] = n;
      hdr[2] = ns;
    }
    long long msg[4] = {hdr[0], hdr[1], hdr[2], (long long)blen};
    MPI_Bcast(msg, 4, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (blen) MPI_Bcast(blob, (int)blen, MPI_CHAR, 0, MPI_COMM_WORLD);
    char txt[sizeof err->msg];
    memset(txt, 0, sizeof txt);
    if (st) snprintf(txt, sizeof txt, "%s", err->msg);
    MPI_Bcast(txt, (int)sizeof txt, MPI_CHAR, 0, MPI_COMM_WORLD);
    free(blob);
    if (st) return st;
    *paths = p;
    *np = n;
    *skipped = s;
    *nskipped = ns;
    return RL_OK;
  }
  long long msg[4];
  MPI_Bcast(msg, 4, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  blen = (size_t)msg[3];
  blob = malloc(blen + 1);
  if (blen) MPI_Bcast(blob, (int)blen, MPI_CHAR, 0, MPI_COMM_WORLD);
  char txt[sizeof err->msg];
  MPI_Bcast(txt, (int)sizeof txt, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (msg[0]) {
    free(blob);
    snprintf(err->msg, sizeof err->msg, "%s", txt);
    return (rl_status)msg[0];
  }
  n = (int32_t)msg[1];
  ns = (int32_t)msg[2];
  p = calloc((size_t)n + 1, sizeof *p);
  s = calloc((size_t)ns + 1, sizeof *s);
  size_t o = 0;
  for (int32_t i = 0; p && blob && i < n + ns; i++) {
    size_t l = strlen(blob + o);
    char *d = malloc(l + 1);
    if (d) memcpy(d, blob + o, l + 1);
    if (i < n) p[i] = d;
    else if (s) s[i - n] = d;
    o += l + 1;
  }
  free(blob);
  *paths = p;
  *np = n;
  *skipped = s;
  *nskipped = ns;
  return RL_OK;
}

/* ---- waiting without spinning ----------------------------------------------
 * Open MPI's blocking calls poll for messages while they wait (a whole core
 * per waiting process; mpi_yield_when_idle only adds sched_yield to the
 * loop), which on a machine with as many processes as cores takes the core
 * from a process still reading. Every wait of ours is a nonblocking call
 * tested every 20 us at first, doubling to 2 ms: the waiting process
 * sleeps, at most 2 ms late. */
static void lazy_wait(MPI_Request *rq) {
  long ns = 20000;
  for (;;) {
    int done = 0;
    MPI_Test(rq, &done, MPI_STATUS_IGNORE);
    if (done) return;
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
    if (ns < 2000000) ns *= 2;
  }
}

/* ---- reading: dynamic assignment through a shared counter -------------------
 * The files, largest first (rl_job_order_by_size: every process computes the
 * same order), are taken one at a time by whichever worker (a thread of
 * any process) is free: the next index comes from a counter in process 0's
 * memory, MPI_Fetch_and_op (MPI-3 one-sided, passive target). The classic
 * self-scheduling of a loop (Polychronopoulos and Kuck, "Guided
 * self-scheduling", IEEE Trans. Computers C-36(12), 1987, chunks of one):
 * a process that reads faster (a smaller or plain file, a core another
 * program does not share) takes more files, and no process waits for
 * another but for the last file. On one node Open MPI's osc/sm does the
 * fetch in shared memory; across nodes process 0 answers between its own
 * files. */
typedef struct reader {
  rl_job *j;
  const char *const *paths;
  const int32_t *order;
  int32_t n;
  MPI_Win win;
  pthread_mutex_t mu; /* MPI_THREAD_SERIALIZED: one thread in MPI at a time */
  int32_t *mine;      /* the slots this process read, to send to process 0 */
  int32_t nm;
  int done;           /* process 0: its workers are done (under mu) */
} reader;

/* Process 0's counter answers without process 0 only where Open MPI does the
 * fetch in hardware or in shared memory (osc/sm on one node); otherwise
 * (osc/pt2pt: across nodes over TCP) a fetch waits for process 0 to enter
 * MPI, which its workers do only between files: a worker elsewhere would
 * wait up to one of process 0's files for its next one (0.8 s measured with
 * `--mca osc pt2pt` and a 70 MB file on process 0). This thread of process 0
 * enters MPI every millisecond while its workers read (MPI_Iprobe drives
 * Open MPI's progress engine), at about 1% of a core. */
static void *progress(void *arg) {
  reader *r = arg;
  for (;;) {
    pthread_mutex_lock(&r->mu);
    int stop = r->done;
    if (!stop) {
      int flag = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    pthread_mutex_unlock(&r->mu);
    if (stop) return NULL;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

static void *read_worker(void *arg) {
  reader *r = arg;
  for (;;) {
    const int one = 1;
    int k = 0;
    pthread_mutex_lock(&r->mu);
    MPI_Fetch_and_op(&one, &k, MPI_INT, 0, 0, MPI_SUM, r->win);
    MPI_Win_flush(0, r->win);
    if (k < r->n) r->mine[r->nm++] = r->order[k];
    pthread_mutex_unlock(&r->mu);
    if (k >= r->n) return NULL;
    rl_error e;
    rl_job_read(r->j, r->order[k], r->paths[r->order[k]], &e); /* a failure travels in the summary */
  }
}

/* ---- the CPUs a process may run on -----------------------------------------
 * mpirun binds each process to one core when it starts 2 or fewer and to a
 * package otherwise (mpirun(1), Open MPI 4.1: "--bind-to core" for np <= 2,
 * "--bind-to socket" else, none when oversubscribed). All of a process's
 * threads then share that mask: its -j workers and each worker's reading
 * thread (src/io/trace_src.c), 1.37 s instead of 0.92 s with --bind-to none
 * for `mpirun -n 1 roofline-mpi trace DIR -j 2` on a 558 MB job (2 cores,
 * docs/performance.md). We leave the binding as the launcher made it (the
 * user may mean it) and count it: the CPUs in this process's mask
 * (sched_getaffinity; 0 where it cannot be read: then nothing is said), and
 * the node's, the online CPUs, or fewer where the launcher itself may use
 * fewer (mpirun or orted, our parent, in a container's cpuset). */
static int mask_cpus(pid_t pid, int *first) {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(pid, sizeof set, &set) != 0) return 0;
  if (first) {
    *first = 0;
    for (size_t i = 0; i < CPU_SETSIZE; i++)
      if (CPU_ISSET(i, &set)) { *first = (int)i; break; }
  }
  return CPU_COUNT(&set);
#else
  (void)pid;
  (void)first;
  return 0;
#endif
}

/* the hardware threads of CPU c's core (sysfs thread_siblings_list, "0,32"
 * or "0-1"): mpirun's PE=n counts cores, our share counts CPUs */
static int core_threads(int c) {
  char path[96];
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
  FILE *f = fopen(path, "r");
  if (!f) return 1;
  int k = 0, a, b;
  while (fscanf(f, "%d", &a) == 1) {
    char sep = 0;
    b = a;
    if (fscanf(f, "%c", &sep) == 1 && sep == '-' && fscanf(f, "%d", &b) == 1) (void)fscanf(f, "%c", &sep);
    k += b >= a ? b - a + 1 : 1;
    if (sep != ',') break;
  }
  fclose(f);
  return k > 0 ? k : 1;
}

typedef struct cpus {
  int mask;  /* CPUs this process may run on; 0: unknown */
  int node;  /* the node's CPUs */
  int share; /* node / processes on the node, at least 1 */
  int smt;   /* hardware threads per core */
} cpus;

static cpus mpi_cpus(const mctx *m) {
  cpus c = {0, 0, 0, 1};
  int first = 0;
  c.mask = mask_cpus(0, &first);
  long on = sysconf(_SC_NPROCESSORS_ONLN);
  c.node = on > 0 ? (int)on : 1;
  int parent = mask_cpus(getppid(), NULL);
  if (parent > 0 && parent < c.node) c.node = parent;
  if (c.mask > c.node) c.node = c.mask;
  c.share = c.node / (m->local > 0 ? m->local : 1);
  if (c.share < 1) c.share = 1;
  if (c.mask > 0) c.smt = core_threads(first);
  return c;
}

/* Every process sends rank 0 its CPUs and workers (a collective call); rank 0
 * prints one line for the whole job, on the process with the fewest CPUs
 * for what it runs (the largest max(workers, share) / mask), when one is
 * bound to fewer CPUs than its workers or than its share of the node. Exit
 * status and stdout are unchanged. */
static void mpi_warn_binding(const mctx *m, cpus c, int32_t workers) {
  int mine[5] = {c.mask, (int)workers, c.share, c.node, c.smt};
  int *all = m->rank == 0 ? malloc(sizeof *all * 5 * (size_t)m->size) : NULL;
  if (m->rank == 0 && !all) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Request rq;
  MPI_Igather(mine, 5, MPI_INT, all, 5, MPI_INT, 0, MPI_COMM_WORLD, &rq);
  lazy_wait(&rq);
  if (m->rank != 0) return;
  int worst = -1;
  long long wneed = 0, wmask = 1;
  for (int q = 0; q < m->size; q++) {
    const int *v = all + 5 * q;
    int need = v[1] > v[2] ? v[1] : v[2];
    /* unknown, or not bound (the whole node: more workers than CPUs is -j's
     * choice, as in one process), or enough */
    if (v[0] <= 0 || v[0] >= v[3] || v[0] >= need) continue;
    if (worst < 0 || (long long)need * wmask > wneed * v[0]) {
      worst = q;
      wneed = need;
      wmask = v[0];
    }
  }
  if (worst >= 0) {
    const int *v = all + 5 * worst;
    /* --map-by node:PE=n binds each process to n cores: offered where that
     * gives it more CPUs than it has */
    int pe = v[2] / (v[4] > 0 ? v[4] : 1);
    char alt[64] = "";
    if (pe * (v[4] > 0 ? v[4] : 1) > v[0]) snprintf(alt, sizeof alt, ", or --map-by node:PE=%d", pe);
    char who[64];
    if (v[1] == 1) snprintf(who, sizeof who, "1 worker and its reading thread");
    else snprintf(who, sizeof who, "%d workers (each with a reading thread)", v[1]);
    fprintf(stderr,
            "roofline-mpi: rank %d is bound to %d CPU%s of %d and runs %s on %s, where its share of the node "
            "is %d CPU%s (mpirun binds each process to a core when it starts 2 or fewer, to a socket "
            "otherwise): run mpirun with --bind-to none%s\n",
            worst, v[0], v[0] == 1 ? "" : "s", v[3], who, v[0] == 1 ? "it" : "them", v[2], v[2] == 1 ? "" : "s",
            alt);
    fflush(stderr);
  }
  free(all);
}

static int mpi_read(void *ctx, rl_job *j, const char *const *paths, int32_t n, int32_t threads) {
  mctx *m = ctx;
  reader r;
  memset(&r, 0, sizeof r);
  int32_t *order = malloc(sizeof *order * ((size_t)n + 1));
  r.mine = malloc(sizeof *r.mine * ((size_t)n + 1));
  if (!order || !r.mine) MPI_Abort(MPI_COMM_WORLD, 1);
  rl_job_order_by_size(paths, n, order);
  r.j = j;
  r.paths = paths;
  r.order = order;
  r.n = n;
  /* -j N: N workers in each process; none given (0): the node's CPUs shared
   * among the processes on it, no more than this process may run on */
  cpus c = mpi_cpus(m);
  if (threads <= 0) {
    threads = c.share;
    if (c.mask > 0 && c.mask < threads) threads = c.mask;
  }
  if (m->thread_level < MPI_THREAD_SERIALIZED) threads = 1;
  if (threads > n) threads = n > 0 ? n : 1;
  mpi_warn_binding(m, c, threads);
  int *counter = NULL;
  MPI_Win_allocate(m->rank == 0 ? (MPI_Aint)sizeof(int) : 0, (int)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &counter, &r.win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, r.win);
  if (m->rank == 0) {
    *counter = 0;
    MPI_Win_sync(r.win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  pthread_mutex_init(&r.mu, NULL);
  pthread_t *th = malloc(sizeof *th * (size_t)threads);
  int32_t started = 0;
  for (int32_t i = 1; th && i < threads; i++)
    if (pthread_create(&th[started], NULL, read_worker, &r) == 0) started++;
  pthread_t pt;
  int helper = m->rank == 0 && m->size > 1 && m->thread_level >= MPI_THREAD_SERIALIZED &&
               pthread_create(&pt, NULL, progress, &r) == 0;
  read_worker(&r); /* this thread works too */
  for (int32_t i = 0; i < started; i++) pthread_join(th[i], NULL);
  free(th);
  if (helper) {
    pthread_mutex_lock(&r.mu);
    r.done = 1;
    pthread_mutex_unlock(&r.mu);
    pthread_join(pt, NULL);
  }
  pthread_mutex_destroy(&r.mu);
  MPI_Win_unlock_all(r.win);
  /* the last file read anywhere: then the window goes (a collective call) */
  MPI_Request rq;
  MPI_Ibarrier(MPI_COMM_WORLD, &rq);
  lazy_wait(&rq);
  MPI_Win_free(&r.win);

  /* my summaries: [int32 slot][uint64 length][bytes]... */
  int32_t nm = r.nm;
  const int32_t *mine = r.mine;
  size_t total = 0;
  for (int32_t k = 0; k < nm; k++) total += 12 + rl_job_pack(j, mine[k], NULL, 0);
  unsigned char *buf = malloc(total + 1);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 1);
  size_t o = 0;
  for (int32_t k = 0; k < nm; k++) {
    uint64_t l = rl_job_pack(j, mine[k], NULL, 0);
    memcpy(buf + o, &mine[k], 4);
    memcpy(buf + o + 4, &l, 8);
    rl_job_pack(j, mine[k], buf + o + 12, l);
    o += 12 + l;
  }
  int len = (int)total;
  int *lens = m->rank == 0 ? malloc(sizeof *lens * (size_t)m->size) : NULL;
  int *displs = m->rank == 0 ? malloc(sizeof *displs * (size_t)m->size) : NULL;
  MPI_Igather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
  lazy_wait(&rq);
  unsigned char *all = NULL;
  size_t alen = 0;
  if (m->rank == 0) {
    for (int q = 0; q < m->size; q++) {
      displs[q] = (int)alen;
      alen += (size_t)lens[q];
    }
    all = malloc(alen + 1);
    if (!all) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Igatherv(buf, len, MPI_BYTE, all, lens, displs, MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
  lazy_wait(&rq);
  if (m->rank == 0) {
    for (size_t q = 0; q + 12 <= alen;) {
      int32_t slot;
      uint64_t l;
      memcpy(&slot, all + q, 4);
      memcpy(&l, all + q + 4, 8);
      if (l > alen - q - 12) break;
      rl_error e;
      if (slot >= 0 && slot < n) rl_job_unpack(j, slot, all + q + 12, (size_t)l, &e);
      q += 12 + (size_t)l;
    }
  }
  free(all);
  free(lens);
  free(displs);
  free(buf);
  free(order);
  free(r.mine);
  return m->rank == 0;
}

int main(int argc, char **argv) {
  static mctx m;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &m.thread_level);
  MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &m.local);
  MPI_Comm_free(&node);
  static cli_job_runner runner = {mpi_list, mpi_read, &m};
  cli_job_mpi = &runner;
  FILE *quiet = NULL;
  if (m.rank != 0) quiet = fopen("/dev/null", "w");
  int rc = cli_main(argc, argv, quiet ? quiet : stdout, quiet ? quiet : stderr);
  if (quiet) fclose(quiet);
  /* the exit status is process 0's, which printed the report or the error:
   * a command that is no job (`trace -`, `op ...`) runs on every process,
   * and another's failure (its standard input is empty: mpirun forwards
   * stdin to rank 0 only) is no failure of the run */
  MPI_Request rq;
  MPI_Ibcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
  lazy_wait(&rq);
  MPI_Finalize();
  return rc;
}
