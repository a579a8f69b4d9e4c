// sync_file_range(2), Linux's "start writing this range back now, do not wait", for the
// compactor's streamed output (RealmFormat's Platform/FileDescriptor.swift, startWriteback).
// glibc declares it only under _GNU_SOURCE, which Swift's Glibc module does not ask for.
// Header only: sync_file_range is in libc, nothing else is linked.
#ifdef __linux__
#define _GNU_SOURCE 1
#include <fcntl.h>

/// Starts writeback of [offset, offset + count) of `fd` without waiting; 0 or -1 (errno).
static inline int realmsh_start_writeback(int fd, long long offset, long long count) {
    return sync_file_range(fd, (off_t)offset, (off_t)count, SYNC_FILE_RANGE_WRITE);
}
#endif
