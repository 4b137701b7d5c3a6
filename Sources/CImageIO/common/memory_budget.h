/*
 * Internal: a counting allocator for the C libraries whose memory hooks take no context pointer (expat's
 * XML_Memory_Handling_Suite, libiptcdata's IptcMem). The count lives in a wf_memory_budget the caller owns
 * for one parse; while that parse runs, wf_memory_budget_enter names it as this thread's, so that the hooks'
 * allocations are charged to it. Each block carries its budget, so a free or realloc is charged to the
 * budget that gave the block, whatever is current.
 */
#ifndef WF_MEMORY_BUDGET_H
#define WF_MEMORY_BUDGET_H

#include <stddef.h>

typedef struct wf_memory_budget {
    size_t limit;   /* bytes live at once, at most */
    size_t used;
    int zeroed;     /* hand out zeroed memory (libiptcdata expects it, as its own allocator gives) */
    int refused;    /* an allocation was refused for the limit (not for the system's lack of memory) */
    struct wf_memory_budget *outer; /* the budget current before this one (restored on leave) */
} wf_memory_budget;

/* Makes `budget` (limit set, the rest zeroed here) the one this thread's wf_counted_* calls are charged to,
 * until wf_memory_budget_leave. */
void wf_memory_budget_enter(wf_memory_budget *budget, size_t limit, int zeroed);
void wf_memory_budget_leave(wf_memory_budget *budget);

/* malloc, realloc and free charged to the current budget; NULL past its limit or with no budget entered. */
void *wf_counted_malloc(size_t size);
void *wf_counted_realloc(void *pointer, size_t size);
void wf_counted_free(void *pointer);

#endif
