/*
 * cli_ask.c -- the mains' yes/no question on the terminal (cli.h). The libraries never read the terminal:
 * a library that needs the user's word takes a callback (store/mark.h's lab_store_mark_confirm_fn), and the
 * tool's main passes this one when there is a terminal to ask on.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* lab_cli_can_ask -- see cli.h. */
bool
lab_cli_can_ask (void)
{
   return isatty (STDIN_FILENO) && isatty (STDERR_FILENO);
}

/* lab_cli_confirm_tty -- see cli.h. */
bool
lab_cli_confirm_tty (const char *question, void *ctx)
{
   char line[64];

   (void)ctx;
   fprintf (stderr, "%s [y/N] ", question);
   fflush (stderr);
   if (!fgets (line, sizeof line, stdin)) {
      return false;
   }
   line[strcspn (line, "\r\n")] = '\0';
   return strcmp (line, "y") == 0 || strcmp (line, "Y") == 0 || strcmp (line, "yes") == 0;
}
