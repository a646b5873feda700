#define _GNU_SOURCE
#include <spawn.h>
#include "CTestSpawn.h"

int ctestspawn_add_close_from(void *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
}
