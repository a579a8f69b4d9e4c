// A cache prefetch hint for the leaf scans (RealmFormat's ByteImage.prefetch). Swift has no
// prefetch of its own; clang's builtin becomes one PREFETCHT0 (x86) or PRFM (arm64). A prefetch
// only asks for a cache line: it never faults and its result is never read, so it cannot leak
// or trap on any address. Header only: nothing is linked.

/// Asks for the cache line holding `address` to be loaded for reading, into every cache level.
static inline void realmsh_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
