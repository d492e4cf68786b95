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
 *   2. the files go to the processes by size, largest first, each to the
 *      least loaded (bytes) process, lowest rank among equals;
 *   3. each process reads its files (with -j threads) into rank summaries,
 *      packs them (rl_job_pack) and rank 0 gathers them (MPI_Gatherv),
 *      unpacks them into their slots and prints exactly what one process
 *      would print; the others print nothing.
 * A file a process cannot read travels as its error and is reported by
 * rank 0. A process that dies ends the run: mpirun aborts the job
 * (Open MPI's default errors-are-fatal handler), it does not hang.
 * Standard input alone (`zcat T | mpirun -n 2 roofline-mpi trace -`) is
 * read by process 0, to which mpirun forwards it (the others find theirs
 * empty); every process exits with process 0's status, the one that printed.
 * A program beside the command (cli/main.c), linked with the same CLI
 * objects; not compiled by the plain build (the Makefile takes the .c
 * files of cli/ itself, not of cli/mpi/).
 */
#include "cli.h"

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct mctx {
  int rank, size;
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

static int mpi_read(void *ctx, rl_job *j, const char *const *paths, int32_t n, int32_t threads) {
  mctx *m = ctx;
  int32_t *order = malloc(sizeof *order * ((size_t)n + 1));
  int32_t *mine = malloc(sizeof *mine * ((size_t)n + 1));
  double *load = calloc((size_t)m->size, sizeof *load);
  int32_t nm = 0;
  if (!order || !mine || !load) MPI_Abort(MPI_COMM_WORLD, 1);
  rl_job_order_by_size(paths, n, order);
  for (int32_t k = 0; k < n; k++) {
    struct stat sb;
    double sz = stat(paths[order[k]], &sb) == 0 ? (double)sb.st_size : 0;
    int to = 0;
    for (int q = 1; q < m->size; q++)
      if (load[q] < load[to]) to = q;
    load[to] += sz > 0 ? sz : 1;
    if (to == m->rank) mine[nm++] = order[k];
  }
  rl_job_read_list(j, paths, mine, nm, threads);
  /* my summaries: [int32 slot][uint64 length][bytes]... */
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
  MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
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
  MPI_Gatherv(buf, len, MPI_BYTE, all, lens, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
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
  free(mine);
  free(load);
  return m->rank == 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  static mctx m;
  MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m.size);
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
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return rc;
}
