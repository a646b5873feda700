#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include <sys/prctl.h>
#include "CTestSpawn.h"

int ctestspawn_add_close_from(void *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
}

int ctestspawn_allow_any_tracer(void) {
    return prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0) == 0 ? 0 : errno;
}

int ctestspawn_forbid_tracers(void) {
    return prctl(PR_SET_PTRACER, 0, 0, 0, 0) == 0 ? 0 : errno;
}

int ctestspawn_pipe_closing_on_exec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC) == 0 ? 0 : errno;
}
