/* main.c -- the `roofline` command: everything is in cli_main (cli.c). */
#include "cli.h"

#include <signal.h>

int main(int argc, char **argv) {
  /* a closed pipe is a write error cli_main reports (exit 1), not a signal */
  signal(SIGPIPE, SIG_IGN);
  return cli_main(argc, argv, stdout, stderr);
}
