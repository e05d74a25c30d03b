// The counter is read through the static inline functions in include/CNotifyTicks.h; the thread's
// context slot those functions read is defined here.
#include "CNotifyTicks.h"

__thread void *notify_thread_context_slot = 0;
