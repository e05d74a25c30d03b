// The counter is read through the static inline functions in include/CNotifyTicks.h; this file
// exists because a C target needs one source of its own.
#include "CNotifyTicks.h"
