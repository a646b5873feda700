#ifndef C_TEST_SPAWN_H
#define C_TEST_SPAWN_H

/// Adds to posix_spawn file actions the closing of every descriptor from `lowest` up, so a test's
/// child gets only the descriptors it is given: glibc's posix_spawn_file_actions_addclosefrom_np,
/// which Swift's Glibc module leaves out. `actions` is a posix_spawn_file_actions_t *.
/// Returns 0, or an errno value.
int ctestspawn_add_close_from(void *actions, int lowest);

#endif
