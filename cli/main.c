/* main.c -- the `roofline` command: everything is in cli_main (cli.c). */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv, stdout, stderr); }
