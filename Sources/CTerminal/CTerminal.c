#define _XOPEN_SOURCE 700
#define NCURSES_WIDECHAR 1
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <ncursesw/term.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include "CTerminal.h"

static int started = 0;

int cterminal_wcwidth(uint32_t scalar) {
    return wcwidth((wchar_t)scalar);
}

int cterminal_start(const char *term) {
    // The locale is the caller's (a UTF-8 one, chosen before): setting it from the environment
    // here would undo that choice when LANG is not UTF-8, and non-ASCII text would vanish.
    // A parent may have left SIGWINCH ignored or blocked (both are inherited): ncurses then never
    // learns of a resize. Restore both before ncurses installs its handler.
    sigset_t resize;
    sigemptyset(&resize);
    sigaddset(&resize, SIGWINCH);
    sigprocmask(SIG_UNBLOCK, &resize, NULL);
    signal(SIGWINCH, SIG_DFL);
    // newterm, unlike initscr, returns NULL for an unknown terminal instead of exiting.
    SCREEN *screen = newterm(term, stdout, stdin);
    if (screen == NULL) return -1;
    set_term(screen);
    started = 1;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    if (has_colors()) {
        start_color();
        use_default_colors();
    }
    return 0;
}

void cterminal_stop(void) {
    if (!started) return;
    started = 0;
    curs_set(1);
    endwin();
}

static volatile sig_atomic_t termination_signal = 0;

/// The grace period is over: the terminal restored, the process ends as the signal would end it.
static void stop_after_grace(int unused) {
    (void)unused;
    cterminal_stop();
    _exit(128 + termination_signal);
}

/// Repeats are ignored: a closed terminal or a logout often sends two signals milliseconds apart
/// (a shell's SIGHUP to its jobs, then the kernel's; systemd's SIGTERM, then SIGHUP), and the
/// second must not end the process while the loop writes the draft. The alarm ends it regardless.
static void note_termination(int number) {
    if (termination_signal != 0) return;
    termination_signal = number;
    signal(SIGALRM, stop_after_grace);
    alarm(5);
}

void cterminal_defer_termination(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = note_termination;
    sigemptyset(&action.sa_mask);
    // No SA_RESTART: the wait for a key is cut short, so the loop sees the signal at once.
    action.sa_flags = 0;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
}

int cterminal_termination_signal(void) {
    return termination_signal;
}

void cterminal_suspend(void) {
    def_prog_mode();
    endwin();
}

int cterminal_has_terminfo(const char *term) {
    int status = 0;
    TERMINAL *saved = cur_term;
    if (setupterm(term, -1, &status) != OK) {
        set_curterm(saved);
        return 0;
    }
    del_curterm(cur_term);
    set_curterm(saved);
    return 1;
}

void cterminal_resume(void) {
    // What was typed for the child, and the terminal's late replies to its queries (cursor
    // position reports), must not arrive as keys.
    tcflush(STDIN_FILENO, TCIFLUSH);
    flushinp();
    reset_prog_mode();
    clearok(stdscr, TRUE);
    refresh();
}

void cterminal_stop_job(void) {
    cterminal_suspend();
    // The default action stops the process; the handler ncurses may have installed comes back
    // after `fg`. The whole process group stops, as the shell's job control expects.
    void (*previous)(int) = signal(SIGTSTP, SIG_DFL);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &stop, NULL);
    kill(0, SIGTSTP);
    // Here after SIGCONT (`fg`).
    signal(SIGTSTP, previous);
    cterminal_resume();
}

int cterminal_rows(void) { return LINES; }
int cterminal_columns(void) { return COLS; }

int cterminal_read_key(int timeout_ms, uint32_t *key) {
    wint_t value = 0;
    timeout(timeout_ms);
    int result = get_wch(&value);
    if (result == ERR) return -1;
    *key = (uint32_t)value;
    return result == KEY_CODE_YES ? 1 : 0;
}

int cterminal_colors(void) { return has_colors() ? COLORS : 0; }
int cterminal_max_pairs(void) { return has_colors() ? COLOR_PAIRS : 0; }

int cterminal_define_pair(int pair, int fg, int bg) {
#if NCURSES_EXT_COLORS
    return init_extended_pair(pair, fg, bg) == OK ? 0 : -1;
#else
    return init_pair((short)pair, (short)fg, (short)bg) == OK ? 0 : -1;
#endif
}

int cterminal_define_color(int color, int r, int g, int b) {
    if (!can_change_color()) return -1;
#if NCURSES_EXT_COLORS
    return init_extended_color(color, r * 1000 / 255, g * 1000 / 255, b * 1000 / 255) == OK ? 0 : -1;
#else
    return init_color((short)color, (short)(r * 1000 / 255), (short)(g * 1000 / 255), (short)(b * 1000 / 255)) == OK ? 0 : -1;
#endif
}

void cterminal_put(int row, int column, const wchar_t *text, int count, int bold, int reverse, int dim,
                   int underline, int pair) {
    attr_t attributes = A_NORMAL;
    if (bold) attributes |= A_BOLD;
    if (reverse) attributes |= A_REVERSE;
    if (dim) attributes |= A_DIM;
    if (underline) attributes |= A_UNDERLINE;
    attr_set(attributes, 0, &pair);
    mvaddnwstr(row, column, text, count);
    attr_set(A_NORMAL, 0, NULL);
}

void cterminal_clear(void) { erase(); }
void cterminal_refresh(void) { refresh(); }

int cterminal_key_code(const char *name) {
    if (strcmp(name, "up") == 0) return KEY_UP;
    if (strcmp(name, "down") == 0) return KEY_DOWN;
    if (strcmp(name, "left") == 0) return KEY_LEFT;
    if (strcmp(name, "right") == 0) return KEY_RIGHT;
    if (strcmp(name, "home") == 0) return KEY_HOME;
    if (strcmp(name, "end") == 0) return KEY_END;
    if (strcmp(name, "pageup") == 0) return KEY_PPAGE;
    if (strcmp(name, "pagedown") == 0) return KEY_NPAGE;
    if (strcmp(name, "backspace") == 0) return KEY_BACKSPACE;
    if (strcmp(name, "delete") == 0) return KEY_DC;
    if (strcmp(name, "enter") == 0) return KEY_ENTER;
    if (strcmp(name, "resize") == 0) return KEY_RESIZE;
    if (strcmp(name, "btab") == 0) return KEY_BTAB;
    // Ctrl-Home and Ctrl-End have no fixed codes: terminfo names their sequences (kHOM5,
    // kEND5 in xterm's and tmux's entries) and ncurses numbers them when keypad is on.
    const char *capability = strcmp(name, "controlhome") == 0 ? "kHOM5" : strcmp(name, "controlend") == 0 ? "kEND5" : NULL;
    if (capability != NULL) {
        char *sequence = tigetstr(capability);
        if (sequence == NULL || sequence == (char *)-1) return -1;
        int code = key_defined(sequence);
        return code > 0 ? code : -1;
    }
    return -1;
}

int cterminal_window_size(int fd, int *cells_across, int *cells_down, int *pixels_across, int *pixels_down) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *cells_across = size.ws_col;
    *cells_down = size.ws_row;
    *pixels_across = size.ws_xpixel;
    *pixels_down = size.ws_ypixel;
    return 0;
}

void cterminal_repaint_rows(int top, int count) { wredrawln(stdscr, top, count); }

void cterminal_no_character_shifts(void) { idcok(stdscr, FALSE); }

void cterminal_write(const char *bytes, long count) {
    fflush(stdout);
    long written = 0;
    while (written < count) {
        ssize_t result = write(STDOUT_FILENO, bytes + written, (size_t)(count - written));
        if (result > 0) {
            written += result;
        } else if (result < 0 && errno != EINTR && errno != EAGAIN) {
            return;
        }
    }
}
