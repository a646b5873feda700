#ifndef C_TEST_SPAWN_H
#define C_TEST_SPAWN_H

/// Adds to posix_spawn file actions the closing of every descriptor from `lowest` up, so a test's
/// child gets only the descriptors it is given: glibc's posix_spawn_file_actions_addclosefrom_np,
/// which Swift's Glibc module leaves out. `actions` is a posix_spawn_file_actions_t *.
/// Returns 0, or an errno value.
int ctestspawn_add_close_from(void *actions, int lowest);

/// Lets any process of the user trace this one (Yama's `PR_SET_PTRACER`), so a test can attach
/// strace to its own process where `ptrace_scope` is 1: prctl is variadic, which Swift cannot
/// call. Returns 0, or an errno value (EINVAL without Yama, where no permission is needed).
int ctestspawn_allow_any_tracer(void);

/// Takes back `ctestspawn_allow_any_tracer`'s leave. Returns 0, or an errno value.
int ctestspawn_forbid_tracers(void);

/// pipe2 with O_CLOEXEC, which Swift's Glibc module leaves out: both ends closed in any child
/// another thread starts meanwhile. Returns 0, or an errno value.
int ctestspawn_pipe_closing_on_exec(int ends[2]);

#endif
