#ifndef CNOTIFYTICKS_H
#define CNOTIFYTICKS_H

#include <stdint.h>

/// The CPU's own tick counter, read in one instruction without entering the vDSO: the time-stamp
/// counter on x86-64, the virtual counter on AArch64. 0 where neither exists; Swift decides,
/// from the kernel's clock source, whether the counter may stand in for CLOCK_MONOTONIC.
static inline uint64_t notify_cpu_ticks(void) {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
    uint64_t ticks;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(ticks));
    return ticks;
#else
    return 0;
#endif
}

/// Ticks per second as the hardware states it (AArch64's CNTFRQ_EL0); 0 where it must be measured.
static inline uint64_t notify_cpu_tick_frequency(void) {
#if defined(__aarch64__)
    uint64_t frequency;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(frequency));
    return frequency;
#else
    return 0;
#endif
}

/// Asks for the cache line at `address` in a state this core may write, ahead of the write: a
/// hint (no fault on any address), so the line's transfer from another core's cache overlaps
/// other work rather than stalling the next atomic instruction, which waits for pending stores.
static inline void notify_prefetch_for_write(const void *address) {
#if defined(__x86_64__)
    // Spelled out: without a -mprfchw target, __builtin_prefetch asks for the line to read only.
    __asm__ __volatile__("prefetchw %0" : : "m"(*(const volatile char *)address));
#else
    __builtin_prefetch(address, 1, 3);
#endif
}

/// The calling thread's NotifyKit context (an unretained object pointer), NULL until NotifyKit
/// registers the thread and again once the thread's exit has let it go. A thread-local variable:
/// in an executable, reading it is one load, with no call and no lock.
extern __thread void *notify_thread_context_slot;

static inline void *notify_thread_context(void) {
    return notify_thread_context_slot;
}

static inline void notify_set_thread_context(void *context) {
    notify_thread_context_slot = context;
}

/// A counter only the calling thread writes, which other threads read: a relaxed store (a plain
/// store on x86-64 and AArch64) that readers' relaxed loads see whole. No read-modify-write.
static inline void notify_counter_store(uint64_t *counter, uint64_t value) {
    __atomic_store_n(counter, value, __ATOMIC_RELAXED);
}

static inline uint64_t notify_counter_load(const uint64_t *counter) {
    return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

/// A page of counters published by its one writer (release) and found by readers (acquire).
static inline void notify_page_publish(void **slot, void *page) {
    __atomic_store_n(slot, page, __ATOMIC_RELEASE);
}

static inline void *notify_page_load(void *const *slot) {
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

#endif
