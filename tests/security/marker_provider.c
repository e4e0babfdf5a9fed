/* SPDX-License-Identifier: Apache-2.0 */
/* A hostile "kernel provider": its constructor runs as soon as it is loaded, before any
 * symbol is checked, and leaves a marker file (named by MIPS_TEST_MARKER) saying with
 * which effective uid it ran. tests/security/setuid_loader.sh must never see that file
 * appear from a program in secure-execution mode. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((constructor)) static void leave_marker(void) {
  const char *path = getenv("MIPS_TEST_MARKER");
  if (path == NULL || path[0] == '\0') return;
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  char line[96];
  const int length = snprintf(line, sizeof line, "loaded with uid %d, euid %d\n", (int)getuid(),
                              (int)geteuid());
  if (length > 0) (void)!write(fd, line, (size_t)length);
  close(fd);
}
