#ifndef CTERMINAL_H
#define CTERMINAL_H

#include <stdint.h>
#include <wchar.h>

/// wcwidth(3) for one Unicode scalar: its column count in the current locale, -1 when it is not
/// printable. Wrapped because Swift's Glibc module does not export wcwidth.
int cterminal_wcwidth(uint32_t scalar);

/// ncurses, reduced to what the app needs: its macros and globals are not usable from Swift, so
/// these small functions stand in for them.

/// Starts curses for terminal type `term` in raw mode with keypad keys, no echo and a hidden
/// cursor, in the locale already set. Returns 0 on success, -1 when the terminal cannot be used
/// (no terminfo entry for `term`).
int cterminal_start(const char *term);
/// 1 when the terminfo database has an entry for `term`, else 0.
int cterminal_has_terminfo(const char *term);
/// Restores the terminal (safe to call more than once).
void cterminal_stop(void);
/// From now on SIGTERM and SIGHUP end the process only when the app's loop has seen them
/// (`cterminal_termination_signal`) and kept what the user typed: they are recorded, and the
/// terminal is restored and the process ended 5 seconds later (SIGALRM) should the loop be busy.
/// Repeated signals are ignored (a closed terminal often sends two).
void cterminal_defer_termination(void);
/// The SIGTERM or SIGHUP received since `cterminal_defer_termination`; 0 when none.
int cterminal_termination_signal(void);
/// Leaves curses for a child program (the editor), and comes back with pending input discarded.
void cterminal_suspend(void);
void cterminal_resume(void);
/// Ctrl-Z: restores the terminal and stops the process group (SIGTSTP, as a shell's job control
/// expects); returns once continued (`fg`), with curses back and input typed meanwhile discarded.
void cterminal_stop_job(void);
int cterminal_rows(void);
int cterminal_columns(void);
/// Waits up to `timeout_ms` (-1: forever) for a key. Returns 0 with a character in `*key`, 1 with a
/// function key code (KEY_*) in `*key`, or -1 on timeout.
int cterminal_read_key(int timeout_ms, uint32_t *key);
/// Number of colours the terminal has (0 without colour).
int cterminal_colors(void);
/// Makes pair `pair` draw `fg` on `bg` (-1: the terminal's default colour). Returns 0 on success.
int cterminal_define_pair(int pair, int fg, int bg);
/// Defines palette entry `color` as an RGB colour (0-255 per channel), where the terminal allows it.
int cterminal_define_color(int color, int r, int g, int b);
int cterminal_max_pairs(void);
/// Draws `count` wide characters at (row, column) with the given attributes and colour pair.
void cterminal_put(int row, int column, const wchar_t *text, int count, int bold, int reverse, int dim,
                   int underline, int pair);
void cterminal_clear(void);
void cterminal_refresh(void);
/// The window's size in cells and pixels (TIOCGWINSZ on `fd`); 0 on success. Pixels are 0 when the
/// terminal does not fill them in.
int cterminal_window_size(int fd, int *cells_across, int *cells_down, int *pixels_across, int *pixels_down);
/// Marks rows for repainting whole at the next refresh: a picture drawn over them (sixel, iTerm2)
/// is not in ncurses' view of the screen, so only a full repaint of its cells removes it.
void cterminal_repaint_rows(int top, int count);
/// Stops ncurses inserting and deleting characters to shift a line's end (pictures drawn in
/// those cells would move).
void cterminal_no_character_shifts(void);
/// Writes bytes straight to the terminal after ncurses' own output (pictures), keeping ncurses'
/// idea of the cursor (the bytes must save and restore it).
void cterminal_write(const char *bytes, long count);
/// Codes of the keys the app reads.
int cterminal_key_code(const char *name);

#endif
