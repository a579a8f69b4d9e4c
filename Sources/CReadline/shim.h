// GNU readline (Debian's libreadline-dev) for the interactive shell: line editing, history,
// completion. Swift 6 rejects readline's mutable globals (rl_line_buffer,
// rl_attempted_completion_function, ...), so the shell reaches them only through these
// accessors. Nothing here keeps state of its own.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <readline/readline.h>
#include <readline/history.h>

typedef char **realmsh_completion_function(const char *text, int start, int end);

/// One-time setup: the application name for ~/.inputrc conditionals, the completion hook,
/// the characters that end a word for completion (dots, @, $, -, / and brackets stay inside a
/// word so key paths, options and paths complete whole), no signal handlers of readline's own
/// (the shell handles Ctrl-C), and LINES/COLUMNS left alone.
static inline void realmsh_rl_configure(realmsh_completion_function *complete) {
    rl_readline_name = "realmsh";
    rl_attempted_completion_function = complete;
    rl_completer_word_break_characters = " \t\n\"'=<>!(){},&|;";
    rl_catch_signals = 0;
    rl_catch_sigwinch = 1;
    rl_change_environment = 0;
}

static inline const char *realmsh_rl_line_buffer(void) { return rl_line_buffer; }
static inline int realmsh_rl_point(void) { return rl_point; }

/// After a completion attempt: no fallback to readline's own filename completion.
static inline void realmsh_rl_set_completion_over(int over) { rl_attempted_completion_over = over; }
/// The character appended after a single match (0: none, so a key path can go on with '.').
static inline void realmsh_rl_set_append_character(int c) { rl_completion_append_character = c; }
/// Matches are file names: readline shows their last component and marks directories.
static inline void realmsh_rl_set_filename_completion(int on) { rl_filename_completion_desired = on; }

/// The array readline takes ownership of: count + 1 slots, zeroed (NULL-terminated).
static inline char **realmsh_rl_matches(size_t count) { return (char **)calloc(count + 1, sizeof(char *)); }
static inline char *realmsh_rl_strdup(const char *s) { return strdup(s); }
static inline void realmsh_rl_free(void *p) { free(p); }
