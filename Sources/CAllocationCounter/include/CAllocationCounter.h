#ifndef C_ALLOCATION_COUNTER_H
#define C_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, memalign family) made by the calling thread
/// since it started. The benchmark executable links this target, whose malloc overrides libc's.
uint64_t notify_thread_allocation_count(void);

#endif
