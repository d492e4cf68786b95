/* main.c -- the `roofline` command: everything is in cli_main (cli.c). */
#include "cli.h"

#include <signal.h>

int main(int argc, char **argv) {
  /* a closed pipe is a write error cli_main ends on quietly (exit 1), not a signal */
  signal(SIGPIPE, SIG_IGN);
  /* past a file size limit (ulimit -f) a write fails with EFBIG, which the
   * command reports (exit 1) after removing its temporary file */
  signal(SIGXFSZ, SIG_IGN);
  return cli_main(argc, argv, stdout, stderr);
}
