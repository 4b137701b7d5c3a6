#include "decode.h"

#include <stdarg.h>
#include <stdio.h>

void wf_outcome_fail(wf_decode_outcome *out, wf_derive_status status, const char *format, ...) {
    out->status = status;
    va_list args;
    va_start(args, format);
    vsnprintf(out->message, sizeof out->message, format, args);
    va_end(args);
}
