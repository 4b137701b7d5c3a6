/*
 * The counting allocator (memory_budget.h). The one piece of thread state is which budget is current: the
 * hooks it serves cannot be handed one. The counts themselves live in the caller's wf_memory_budget.
 */
#include "memory_budget.h"

#include <stdlib.h>

static _Thread_local wf_memory_budget *current;

typedef union {
    struct {
        wf_memory_budget *budget;
        size_t size;
    } head;
    max_align_t align;
} block;

void wf_memory_budget_enter(wf_memory_budget *budget, size_t limit, int zeroed) {
    *budget = (wf_memory_budget){.limit = limit, .zeroed = zeroed, .outer = current};
    current = budget;
}

void wf_memory_budget_leave(wf_memory_budget *budget) {
    if (current == budget) current = budget->outer;
}

void *wf_counted_malloc(size_t size) {
    wf_memory_budget *budget = current;
    if (!budget) return NULL;
    if (size > budget->limit - budget->used) {
        budget->refused = 1;
        return NULL;
    }
    block *b = budget->zeroed ? calloc(1, sizeof *b + size) : malloc(sizeof *b + size);
    if (!b) return NULL;
    b->head.budget = budget;
    b->head.size = size;
    budget->used += size;
    return b + 1;
}

void wf_counted_free(void *pointer) {
    if (!pointer) return;
    block *b = (block *)pointer - 1;
    b->head.budget->used -= b->head.size;
    free(b);
}

void *wf_counted_realloc(void *pointer, size_t size) {
    if (!pointer) return wf_counted_malloc(size);
    block *b = (block *)pointer - 1;
    wf_memory_budget *budget = b->head.budget;
    size_t old = b->head.size;
    if (size > old && size - old > budget->limit - budget->used) {
        budget->refused = 1;
        return NULL;
    }
    block *grown = realloc(b, sizeof *b + size);
    if (!grown) return NULL;
    grown->head.size = size;
    budget->used = budget->used - old + size;
    return grown + 1;
}
