// ncurses, wide-character build (Debian's libncurses-dev: libncursesw + libtinfo), for the
// Realm Browser's screen. Only the browser's Terminal type uses it. ncurses' attributes, mouse
// masks and its stdscr are macros or mutable globals that Swift cannot import, so they are
// reached through these accessors; nothing here keeps state of its own.
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>

static inline WINDOW *realmsh_nc_screen(void) { return stdscr; }

static inline attr_t realmsh_nc_bold(void) { return A_BOLD; }
static inline attr_t realmsh_nc_dim(void) { return A_DIM; }
static inline attr_t realmsh_nc_reverse(void) { return A_REVERSE; }
static inline attr_t realmsh_nc_underline(void) { return A_UNDERLINE; }

static inline mmask_t realmsh_nc_wheel_up(void) { return BUTTON4_PRESSED; }
static inline mmask_t realmsh_nc_wheel_down(void) { return BUTTON5_PRESSED; }
static inline mmask_t realmsh_nc_click(void) { return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED; }
static inline mmask_t realmsh_nc_double_click(void) { return BUTTON1_DOUBLE_CLICKED; }

// wcwidth, for measuring text as the terminal will draw it. <wchar.h> declares it only under
// _XOPEN_SOURCE, which this header does not define (it would change what other headers
// declare); the declaration is the POSIX one.
#include <wchar.h>
int wcwidth(wchar_t c);
static inline int realmsh_wcwidth(wchar_t c) { return wcwidth(c); }
